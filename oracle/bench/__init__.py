"""Benchmarks that print numbers and assert nothing: checks per state in process, and whole games in
process, over a stream and as unary calls against an echo baseline.

May import the service layer and below; only the CLI imports it.
"""
