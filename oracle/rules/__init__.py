"""Legality and scoring, decided once per rule fact: the rule checks of each phase of a turn (draw.py: draw and
take the pile; play.py: meld, discard, ask, finish), the state changes of a legal action, the violation-code
registry (violations.py), the state and table checks, scoring, and the candidate space move generation
enumerates. Pure functions over immutable values.

Contract: a ``check_*`` function returns the violations it finds (``list[Violation]``, empty when the action
passes) and nothing else; an ``apply_*`` function computes the next state and events of a legal action;
``is_``/``has_``/``can_`` functions return a bool; ``validate_*`` functions raise InvalidInputError (or list
problems) for malformed input, which is never "illegal". ``referee.check_action`` joins them into a Verdict.
One place per fact: the initial-meld minimum (minimum.py), going out (going_out.py), the covered upcard
(upcards.py), what a canasta is and how many a side has (melds.py).

May import: oracle.model, oracle.ruleset (the compiled, typed view of a rule set). Never games, verify, service
or the front ends.
"""
