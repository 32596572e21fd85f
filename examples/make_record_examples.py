"""Writes the record examples (examples/records/, examples/canlog/*.canlog) from simulated games; run from the
repository root: python examples/make_record_examples.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from google.protobuf import json_format

from oracle.api.v1 import record_pb2
from oracle.games.deal import deal
from oracle.games.match import dealer_of_hand, deck_order
from oracle.games.simulate import simulate_game
from oracle.model.actions import format_action
from oracle.model.cards import format_cards
from oracle.rules.referee import check_action
from oracle.ruleset.loader import shipped_rule_set
from oracle.service.convert_record import record_to_proto
from oracle.service.record_files import write_jsonl

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "canlog"))
from faulty_engine import play  # noqa: E402


def mid_game() -> dict[str, object]:
    """A record that starts in the middle of a game's second hand: starting totals, dealer, an explicit deal (the
    state at that point, in card notation), the rest of the hand in action notation, a checkpoint and claims."""
    rules = shipped_rule_set("classic-2p").rules
    game = simulate_game(rules, 11).record
    hand = game.hands[1]
    totals = list(game.hands[0].claimed_totals)
    dealer = dealer_of_hand(rules, game.first_dealer, 1)
    state = deal(rules, deck_order(rules, hand.deck), dealer=dealer, running_totals=totals)
    skip = 0
    while skip < 20 or state.phase.name != "DRAW":  # start at the beginning of a turn, some way into the hand
        verdict = check_action(rules, state, hand.actions[skip])
        assert verdict.next_state is not None
        state = verdict.next_state
        skip += 1
    moves = [format_action(a) for a in hand.actions[skip:]]
    later = state
    for action in hand.actions[skip : skip + 10]:
        verdict = check_action(rules, later, action)
        assert verdict.next_state is not None
        later = verdict.next_state
    start = {
        "seats": [{"hand": format_cards(s.hand), "meldedBefore": s.melded_before} for s in state.seats],
        "sides": [
            {
                "melds": [format_cards(m) for m in side.melds],
                "redThrees": format_cards(side.red_threes),
                "runningTotal": side.running_total,
            }
            for side in state.sides
        ],
        "stock": format_cards(state.stock),
        "discardPile": format_cards(state.discard_pile),
        "pileUpcards": state.pile_upcards,
        "seatToMove": state.seat_to_move,
        "phase": "PHASE_DRAW",
        "turn": {"meldsBeforeTurn": state.turn.melds_before_turn},
    }
    return {
        "ruleSetId": "classic-2p",
        "firstDealer": dealer,
        "hands": [
            {
                "dealer": dealer,
                "startingTotals": totals,
                "start": start,
                "moves": moves,
                "checkpoints": [
                    {
                        "after": 10,
                        "hands": [
                            {"index": i, "cards": format_cards(sorted(s.hand))} for i, s in enumerate(later.seats)
                        ],
                        "stockCount": len(later.stock),
                        "seatToMove": later.seat_to_move,
                    }
                ],
                "claimedScores": list(hand.claimed_scores),
                "claimedTotals": list(hand.claimed_totals),
            }
        ],
    }


def main() -> int:
    """Write every example."""
    out = HERE / "records"
    out.mkdir(exist_ok=True)
    data = mid_game()
    json_format.ParseDict(data, record_pb2.GameRecord())  # the example is a valid record
    (out / "mid-game.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    rules4 = shipped_rule_set("classic-4p").rules
    write_jsonl(out / "three-games.jsonl", [record_to_proto(simulate_game(rules4, s).record) for s in (1, 2, 3)])
    rules2 = shipped_rule_set("classic-2p").rules
    for seed, breaks in ((7, 3), (21, 0)):
        game = play(rules2, seed, breaks=breaks)
        (HERE / "canlog" / f"game-{seed}.canlog").write_text("\n".join(game.lines) + "\n", encoding="utf-8")
        print(f"game-{seed}.canlog: {game.actions} actions, planted {game.planted}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
