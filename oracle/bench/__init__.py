"""Benchmarks that print numbers and assert nothing: the suite behind `canasta-oracle bench` (suite.py), one row
per line of issue 13's table, in process (thread CPU time) and as servers against an echo baseline.

May import the service layer and below; only the CLI imports it.
"""
