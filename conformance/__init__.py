"""Conformance cases as data (shipped as the package oracle.conformance.data)."""
