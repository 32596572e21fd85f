"""The fuzz's seeds for rule sets with runs (Samba): positions whose actions name a meld (onto, new) or combine two.

Deterministic as the rest of the seed corpus (oracle.bench.fuzz_seeds): a simulated hand of a fixed seed.
"""

from __future__ import annotations

from oracle.api.v1 import oracle_pb2
from oracle.bench.fuzz_hand import CorpusSink, add_position, house_ref, walk_simulated_hand
from oracle.model.actions import Action, Combine, Meld, TakePile
from oracle.rules.candidates import candidates
from oracle.ruleset.loader import RuleBook

RUNS_SEED = 1  #: the simulated game whose first hand gives the positions of rule sets with runs


def names_a_meld(action: Action) -> bool:
    """The action names the meld it joins (onto), starts a new one (new) or combines two: Samba's action fields."""
    if isinstance(action, Combine):
        return True
    if isinstance(action, TakePile):
        return action.onto > 0 or action.new or any(g.onto or g.new for g in action.melds)
    return isinstance(action, Meld) and any(g.onto or g.new for g in action.groups)


_CITE = ("4P-CLASSIC", "Other versions, and where the rule books differ")


def add_runs_positions(corpus: CorpusSink, book: RuleBook, every: int, per_position: int = 2) -> None:
    """For each rule set with runs (runs.min_size set): the first hand of a simulated game (RUNS_SEED); at every
    `every`-th position, the action played and up to `per_position` candidates that name a meld (onto, new) or
    combine two, as CheckAction from the state and from the mover's view, ListLegalActions and Adjudicate (against
    every rule set); now and then under an inline rule set extending it without combining, or without runs."""
    for rule_set_id in book.ids():
        rules = book.get(rule_set_id).rules
        if not rules.runs.min_size:
            continue
        ref = oracle_pb2.RuleSetRef(id=rule_set_id)
        houses = [
            house_ref(rule_set_id, "melds", "combine_same_rank", False, _CITE),
            house_ref(rule_set_id, "runs", "min_size", 0, _CITE),
            house_ref(rule_set_id, "runs", "max_size", 0, _CITE),
        ]
        for n, state, action, _ in walk_simulated_hand(corpus, rules, rule_set_id, RUNS_SEED):
            if n % every == 0 or names_a_meld(action):
                named = [a for a in candidates(rules, state) if names_a_meld(a)][:per_position]
                plays = [
                    (chosen, houses[(n + k) % len(houses)] if (n + k) % 4 == 0 else ref)
                    for k, chosen in enumerate([action, *named])
                ]
                add_position(corpus, ref, state, plays)


__all__ = ["RUNS_SEED", "add_runs_positions", "names_a_meld"]
