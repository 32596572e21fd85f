"""Legality and scoring: one module per phase of a turn (draw, take the pile, meld, discard, go out, ask),
the violation-code registry, the state check, scoring, the minimum meld and the canonical candidate space
that move generation enumerates. Pure functions over immutable values.

May import: oracle.model, oracle.ruleset.compiled, oracle.api. Never games, verify, service or the front ends.
"""
