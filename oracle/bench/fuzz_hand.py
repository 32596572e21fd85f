"""The fuzz seeds' walk of a simulated hand: its positions, its end table as ScoreHand, one position's requests.

Shared by the seed builders of rule sets that form sides in play (oracle.bench.fuzz_seeds), have runs
(oracle.bench.fuzz_runs) or a foot (oracle.bench.fuzz_feet).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from google.protobuf.message import Message

from oracle.api.v1 import oracle_pb2, ruleset_pb2
from oracle.bench.states import simulated_hand
from oracle.model.actions import Action
from oracle.model.events import HandEnded
from oracle.model.state import GameState
from oracle.rules.referee import Verdict
from oracle.rules.view import view_of
from oracle.ruleset.compiled import CompiledRules
from oracle.service.convert_game import action_to_proto, state_to_proto
from oracle.service.convert_table import table_to_proto
from oracle.service.convert_view import view_to_proto


class CorpusSink(Protocol):
    """Where the requests go (oracle.bench.fuzz_seeds.Corpus)."""

    def add(self, rpc: str, request: Message) -> None:
        """Add a request of `rpc`."""


def walk_simulated_hand(
    corpus: CorpusSink, rules: CompiledRules, rule_set_id: str, seed: int
) -> Iterator[tuple[int, GameState, Action, Verdict]]:
    """The first hand of the game simulated from `seed`: each position, the action played there and its verdict
    (before the next is given); the hand's end table goes to `corpus` as ScoreHand under `rule_set_id`."""
    ref = oracle_pb2.RuleSetRef(id=rule_set_id)
    for n, (state, action, verdict) in enumerate(simulated_hand(rules, seed)):
        yield n, state, action, verdict
        for event in verdict.events:
            if isinstance(event, HandEnded):
                corpus.add("ScoreHand", oracle_pb2.ScoreHandRequest(rule_set=ref, table=table_to_proto(event.table)))


def add_position(
    corpus: CorpusSink,
    ref: oracle_pb2.RuleSetRef,
    state: GameState,
    plays: Sequence[tuple[Action, oracle_pb2.RuleSetRef]],
    against: Sequence[oracle_pb2.RuleSetRef] = (),
) -> None:
    """The requests of one position: for each (action, rule set) of `plays`, CheckAction from the state under that
    rule set and from the mover's view under `ref`, and Adjudicate (against `against`, every rule set if empty);
    then ValidateState and ListLegalActions from the state and from the view under `ref`."""
    state_msg = state_to_proto(state)
    view_msg = view_to_proto(view_of(state, state.seat_to_move))
    for action, used in plays:
        action_msg = action_to_proto(action)
        corpus.add("CheckAction", oracle_pb2.CheckActionRequest(rule_set=used, state=state_msg, action=action_msg))
        corpus.add("CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, view=view_msg, action=action_msg))
        corpus.add("Adjudicate", oracle_pb2.AdjudicateRequest(state=state_msg, action=action_msg, rule_sets=against))
    corpus.add("ValidateState", oracle_pb2.ValidateStateRequest(rule_set=ref, state=state_msg))
    corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=state_msg))
    corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, view=view_msg))


def house_ref(
    rule_set_id: str, section: str, field: str, value: int | bool, cite: tuple[str, str]
) -> oracle_pb2.RuleSetRef:
    """An inline rule set extending `rule_set_id` with `section.field` set to `value`, with its rule note citing
    `cite` (source id, section)."""
    house = ruleset_pb2.RuleSet(id=f"house-{rule_set_id}", extends=rule_set_id, title="House rule")
    setattr(getattr(house, section), field, value)
    note = house.rules.add(field=f"{section}.{field}", text="A house rule.")
    note.cite.add(source=cite[0], section=cite[1])
    return oracle_pb2.RuleSetRef(inline=house)


__all__ = ["CorpusSink", "add_position", "house_ref", "walk_simulated_hand"]
