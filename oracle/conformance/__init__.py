"""The conformance runner: runs the language-neutral cases (data in oracle.conformance.data) against
this engine in process or any server of the API over gRPC.

May import the service layer and below; only the CLI imports it.
"""
