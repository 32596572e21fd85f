"""Judge-all replay: every illegal action of a game in one pass, checkpoints compared and adopted, uncertainty."""

from __future__ import annotations

import importlib.util
import random
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from oracle.api.v1 import oracle_pb2, record_pb2
from oracle.games.claims import ClaimedState
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import legal_actions
from oracle.games.record import GameRecord, HandRecord
from oracle.games.replay import CHECKPOINT, ILLEGAL, replay
from oracle.games.simulate import choose
from oracle.model.cards import format_cards
from oracle.model.errors import InvalidInputError
from oracle.model.events import HandEnded
from oracle.model.state import GameState, SeatState
from oracle.rules.referee import check_action
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_record import record_to_proto
from oracle.service.record_files import LoadedGame, to_domain

ROOT = Path(__file__).resolve().parent.parent
RULES = default_rule_book().get("classic-2p").rules


def example(name: str) -> ModuleType:
    """A module of examples/canlog, imported from its file."""
    path = ROOT / "examples" / "canlog" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"canlog_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


FAULTY = example("faulty_engine")
CONVERTER = example("converter").CanlogConverter()


def faulty_game(seed: int, breaks: int) -> tuple[record_pb2.GameRecord, list[tuple[int, int, str]]]:
    """A game of the faulty engine converted from its canlog text, and the breaks planted in it."""
    game = FAULTY.play(RULES, seed, breaks=breaks)
    [(_, message)] = list(CONVERTER.convert("\n".join(game.lines), f"seed-{seed}.canlog"))
    return message, game.planted


def faulty_record(seed: int, breaks: int) -> tuple[GameRecord, list[tuple[int, int, str]]]:
    """The same game as a domain record."""
    message, planted = faulty_game(seed, breaks)
    return to_domain(LoadedGame(f"seed-{seed}.canlog", 1, message), RULES), planted


def illegal(report: object) -> list[tuple[int, int, str]]:
    return [(d.hand, d.index, d.violations[0].code) for d in report.disagreements if d.kind == ILLEGAL]  # type: ignore[attr-defined]


def test_all_reports_every_planted_break_and_the_default_stops_at_the_first() -> None:
    record, planted = faulty_record(7, breaks=3)
    assert len(planted) == 3
    first = replay(RULES, record)
    assert illegal(first) == planted[:1]
    assert first.first_illegal is not None and (first.first_illegal.hand, first.first_illegal.index) == planted[0][:2]
    assert not first.ok and len(first.disagreements) == 1
    everything = replay(RULES, record, judge_all=True)
    assert illegal(everything) == planted
    assert all(d.violations and d.violations[0].cite for d in everything.disagreements if d.kind == ILLEGAL)
    assert everything.judged == sum(len(h.actions) for h in record.hands) > first.judged
    # Past the first break the state was forced, so later verdicts are marked uncertain until confirmed.
    assert [d.uncertain for d in everything.disagreements if d.kind == ILLEGAL] == [False, True, True]
    assert everything.uncertain > 0


def test_replay_game_rpc_takes_judge_all() -> None:
    message, planted = faulty_game(7, breaks=3)
    api = OracleApi(default_rule_book())
    stopped = api.ReplayGame(oracle_pb2.ReplayGameRequest(record=message, summary_only=True)).report
    judged = api.ReplayGame(oracle_pb2.ReplayGameRequest(record=message, summary_only=True, judge_all=True)).report
    assert [(d.hand, d.index) for d in stopped.disagreements] == [p[:2] for p in planted[:1]]
    assert [(d.hand, d.index, d.violations[0].code) for d in judged.disagreements if d.kind == ILLEGAL] == planted
    assert judged.uncertain_actions > 0 and not judged.ok
    assert judged.actions_judged == sum(len(h.moves) for h in message.hands)


def _play_from(state: GameState, rng: random.Random) -> tuple[list[object], HandEnded]:
    actions = []
    while True:
        action = choose(state, legal_actions(RULES, state), rng)
        verdict = check_action(RULES, state, action, validate=False)
        assert verdict.legal and verdict.next_state is not None
        actions.append(action)
        state = verdict.next_state
        ended = next((e for e in verdict.events if isinstance(e, HandEnded)), None)
        if ended is not None:
            return actions, ended


def _swapped_hand_record() -> tuple[GameRecord, GameState, GameState]:
    """One hand whose engine moved a card between the hands after 6 actions and played on from there."""
    rng = random.Random(3)
    source = DeckSource(seed=99)
    state = deal(RULES, deck_order(RULES, source), dealer=0)
    before = []
    for _ in range(6):
        action = choose(state, legal_actions(RULES, state), rng)
        verdict = check_action(RULES, state, action, validate=False)
        assert verdict.next_state is not None
        before.append(action)
        state = verdict.next_state
    h0, h1 = state.seats[0].hand, state.seats[1].hand
    claimed = replace(state, seats=(SeatState(h0[1:] + h1[:1]), SeatState(h1[1:] + h0[:1])))
    after, ended = _play_from(claimed, rng)
    scores = tuple(s.total for s in ended.scores)
    claim = ClaimedState(6, hands=((0, claimed.seats[0].hand), (1, claimed.seats[1].hand)))
    hand = HandRecord(source, tuple(before + after), scores, scores, checkpoints=(claim,))  # type: ignore[arg-type]
    return GameRecord("classic-2p", 0, (hand,)), state, claimed


def test_a_differing_checkpoint_is_reported_and_the_replay_goes_on_from_it() -> None:
    record, ours, claimed = _swapped_hand_record()
    stopped = replay(RULES, record)
    assert [(d.kind, d.index, d.field) for d in stopped.disagreements] == [
        (CHECKPOINT, 6, "hands[0]"),
        (CHECKPOINT, 6, "hands[1]"),
    ]
    assert stopped.judged == 6 and not stopped.ok
    resynced = replay(RULES, record, judge_all=True)
    assert [(d.kind, d.field) for d in resynced.disagreements] == [(CHECKPOINT, "hands[0]"), (CHECKPOINT, "hands[1]")]
    said = {d.field: (d.claimed, d.computed) for d in resynced.disagreements}
    for seat in (0, 1):
        sorted_cards = (sorted(claimed.seats[seat].hand), sorted(ours.seats[seat].hand))
        assert said[f"hands[{seat}]"] == tuple(format_cards(c) for c in sorted_cards)
    # Every action after the checkpoint is legal from the claimed state, and the hand's claims agree.
    assert resynced.judged == len(record.hands[0].actions)
    assert not any(d.kind == ILLEGAL for d in resynced.disagreements)
    assert len(resynced.hands) == 1 and not resynced.mismatches
    # The claim gave every card's place but not the rest of the state: what follows is uncertain.
    assert resynced.uncertain == len(record.hands[0].actions) - 6


def test_a_complete_checkpoint_after_an_illegal_action_makes_the_state_certain_again() -> None:
    record, planted = faulty_record(7, breaks=1)
    ((h, i, _),) = planted
    first = replay(RULES, record, judge_all=True)
    assert first.uncertain > 0
    # The engine's state right after the break, as a complete checkpoint.
    forced = _state_after(record, h, i + 1)
    claim = ClaimedState(
        i + 1,
        hands=tuple(enumerate(s.hand for s in forced.seats)),
        melds=tuple(enumerate(s.melds for s in forced.sides)),
        red_threes=tuple(enumerate(s.red_threes for s in forced.sides)),
        stock=forced.stock,
        discard_pile=forced.discard_pile,
        seat_to_move=forced.seat_to_move,
        phase=forced.phase,
    )
    hands = list(record.hands)
    kept = tuple(c for c in hands[h].checkpoints if c.after != i + 1)
    hands[h] = replace(hands[h], checkpoints=tuple(sorted((*kept, claim), key=lambda c: c.after)))
    confirmed = replay(RULES, replace(record, hands=tuple(hands)), judge_all=True)
    assert illegal(confirmed) == planted
    assert confirmed.uncertain == 0
    assert not any(d.kind == CHECKPOINT for d in confirmed.disagreements)


def _state_after(record: GameRecord, hand: int, actions: int) -> GameState:
    """The oracle's own state after `actions` actions of a hand, forcing illegal ones as the replay does."""
    from oracle.games.replay import _force

    state = deal(RULES, deck_order(RULES, record.hands[hand].deck), dealer=_dealer(record, hand))
    assert hand == 0
    for action in record.hands[hand].actions[:actions]:
        verdict = check_action(RULES, state, action, validate=False)
        if verdict.legal:
            assert verdict.next_state is not None
            state = verdict.next_state
        else:
            forced = _force(RULES, state, action)
            assert forced is not None
            state = forced[0]
    return state


def _dealer(record: GameRecord, hand: int) -> int:
    return (record.first_dealer + hand) % RULES.seats


def test_simulated_records_are_unchanged_by_judge_all() -> None:
    from oracle.games.simulate import simulate_game

    game = simulate_game(RULES, 5).record
    assert record_to_proto(game).hands
    plain, every = replay(RULES, game), replay(RULES, game, judge_all=True)
    assert plain.ok and every.ok and plain.judged == every.judged and every.uncertain == 0


BAD_RECORDS = {
    "record.hands[0].moves[0]": {"hands": [{"seed": "1", "moves": ["meld"]}]},
    "record.hands[0].moves": {"hands": [{"seed": "1", "moves": ["draw"], "actions": [{"draw": {}}]}]},
    "record.hands[0].dealer": {"hands": [{"seed": "1", "dealer": 7}]},
    "record.hands[0].starting_totals": {"hands": [{"seed": "1", "startingTotals": [1, 2, 3]}]},
    "record.hands[0].checkpoints[0].after": {
        "hands": [{"seed": "1", "moves": ["draw"], "checkpoints": [{"after": 5}]}]
    },
    "record.hands[0].checkpoints[0].hands[0].index": {
        "hands": [{"seed": "1", "checkpoints": [{"hands": [{"index": 9, "cards": ""}]}]}]
    },
    "record.hands[0].checkpoints[0].stock": {"hands": [{"seed": "1", "checkpoints": [{"stock": "KH ZZ"}]}]},
    "record.hands[0].checkpoints[1].after": {
        "hands": [{"seed": "1", "moves": ["draw"], "checkpoints": [{"after": 1}, {"after": 0}]}]
    },
    "record.hands[0].checkpoints[0].phase": {"hands": [{"seed": "1", "checkpoints": [{"phase": 42}]}]},
    "record.hands[0].start": {"hands": [{"start": {"seats": [{"hand": "KH"}], "phase": "PHASE_DRAW"}}]},
}


@pytest.mark.parametrize("path", sorted(BAD_RECORDS))
def test_a_malformed_record_is_invalid_input_naming_the_field(path: str) -> None:
    from google.protobuf import json_format

    message = json_format.ParseDict({"ruleSetId": "classic-2p", **BAD_RECORDS[path]}, record_pb2.GameRecord())
    api = OracleApi(default_rule_book())
    with pytest.raises(InvalidInputError) as caught:
        api.ReplayGame(oracle_pb2.ReplayGameRequest(record=message, judge_all=True))
    assert any(p.field.startswith(path) for p in caught.value.problems), caught.value.problems


def test_a_partial_claim_keeps_every_card_somewhere() -> None:
    from oracle.games.claims import adopt, differences

    state = deal(RULES, deck_order(RULES, DeckSource(seed=4)), dealer=0)
    lost, kept = state.seats[0].hand[0], state.seats[0].hand[1:]
    claim = ClaimedState(0, hands=((0, kept),), stock_count=len(state.stock))
    [difference] = differences(state, claim)
    assert difference.field == "hands[0]" and format_cards([lost]) in difference.computed.split()
    adopted, problems = adopt(RULES, state, claim)
    assert not problems and adopted is not None
    assert adopted.seats[0].hand == kept
    assert adopted.stock == (lost, *state.stock)  # the card no longer held goes under the stock
    assert not claim.complete(RULES)
    # A claim that cannot be a state (a card twice) is refused with the problems named.
    doubled = ClaimedState(0, hands=((0, (*state.seats[0].hand, state.seats[1].hand[0])),), stock=state.stock)
    refused, problems = adopt(RULES, state, doubled)
    assert refused is None and problems
