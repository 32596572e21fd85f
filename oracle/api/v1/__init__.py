"""oracle.api.v1: generated messages and service stubs (regenerate with python -m oracle.codegen)."""
