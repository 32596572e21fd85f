"""Whole games: the deal and the shuffle, game totals and the end, legal-move generation, perft data,
records and replay, the live referee's state, simulation and adjudication across rule sets.

May import: oracle.rules, oracle.ruleset.compiled, oracle.model, oracle.api.
"""
