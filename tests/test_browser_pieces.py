"""The web page's own pieces agree with the oracle: action notation, the rule-set text format, states, frozen piles."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from browser_harness import running_desk
from google.protobuf import json_format, text_format
from google.protobuf.descriptor import Descriptor
from playwright.sync_api import Page

from oracle.api.v1 import cards_pb2, game_pb2, oracle_pb2, ruleset_pb2
from oracle.model.actions import format_action, parse_action
from oracle.model.cards import NotationError, parse_cards
from oracle.model.state import is_run
from oracle.rules.facts import frozen_reasons_for_side
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_to_proto, state_from_proto

API = OracleApi(default_rule_book())
SPECS = sorted(
    p.name
    for p in resources.files("oracle.specs").iterdir()
    if p.name.endswith(".textproto") and "proto-message: oracle.api.v1.RuleSet\n" in p.read_text()
)

ACTIONS = [
    "draw",
    "ask",
    "finish",
    "pick-up-pile",
    "answer yes",
    "answer no",
    "discard 5C",
    "discard JK",
    "take-pile",
    "take-pile with 9H 9D",
    "take-pile with 9H JK meld AH AD AS, 7S 7D 2C",
    "take-pile meld KH KD KS",
    "meld KH KD KS",
    "meld KH KD KS, 7S 7D 2C",
    "meld K: 2C",
    "meld K: 2C JK, 4H 4D 4S",
    "meld 3C 3S 3C",
    "  meld   TH TD   TS  ",
    "meld KH,KD,KS",
    "meld 8H to 3",
    "meld new QH QD QS",
    "meld 5H 6H 7H",
    "meld 8H to 3, new QH QD QS, K: 2C to 12",
    "take-pile to 3",
    "take-pile with new QD QS",
    "take-pile with 7H to 2",
    "take-pile with 7H to 2 meld 5S 6S 7S, 9C to 1",
    "combine 2 5",
    "combine 10 1",
]
BAD_ACTIONS = [
    "",
    "   ",
    "fly",
    "  fly away",
    "draw 5C",
    "discard",
    "discard 5C 6C",
    "discard 10H",
    "discard kh",
    "discard K♥",
    "answer maybe",
    "answer",
    "meld",
    "meld KH KD KS,",
    "meld KH KD, , KS",
    "meld X: 2C",
    "meld KH KD KS meld QH QD QS",
    "take-pile with",
    "take-pile with meld AH AD AS",
    "take-pile 9H 9D",
    "take-pile with 9H 9D meld",
    "meld 1X",
    "meld 8H to",
    "meld 8H to 0",
    "meld 8H to x",
    "meld 8H to 12345",
    "meld new QH QD QS to 2",
    "meld new",
    "meld QH new QD",
    "take-pile with new QD QS to 2",
    "take-pile to",
    "take-pile to 3 with 9H",
    "take-pile with new",
    "combine",
    "combine 2",
    "combine 2 5 7",
    "combine 02 5",
    "combine two five",
    "meld to 3",
]


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with running_desk() as desk:
        page = desk.page()
        yield page
        page.close()


def in_page(page: Page, module: str, body: str, arg: Any) -> Any:
    """Run `body` (an expression of `m`, the module, and `arg`) in the page."""
    return page.evaluate(f"async (arg) => {{ const m = await import('./{module}'); return {body}; }}", arg)


@pytest.mark.parametrize("text", ACTIONS)
def test_an_action_parses_in_the_page_as_the_oracle_parses_it(page: Page, text: str) -> None:
    expected = json_format.MessageToDict(action_to_proto(parse_action(text)))
    assert in_page(page, "cards.js", "m.parseAction(arg)", text) == expected
    assert in_page(page, "cards.js", "m.formatAction(arg)", expected) == format_action(parse_action(text))


@pytest.mark.parametrize("text", BAD_ACTIONS)
def test_a_bad_action_is_refused_in_the_page_with_the_oracles_message(page: Page, text: str) -> None:
    with pytest.raises(NotationError) as raised:
        parse_action(text)
    got = in_page(
        page, "cards.js", "(() => { try { m.parseAction(arg); return null; } catch (e) { return e.message; } })()", text
    )
    assert got == str(raised.value)


@pytest.mark.parametrize("name", SPECS)
def test_each_shipped_rule_set_reads_in_the_page_as_in_the_oracle(page: Page, name: str) -> None:
    text = (resources.files("oracle.specs") / name).read_text()
    parsed = in_page(page, "textproto.js", "m.parseTextproto(arg)", text)
    assert json_format.ParseDict(parsed, ruleset_pb2.RuleSet()) == text_format.Parse(text, ruleset_pb2.RuleSet())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('id: "x" melds {', "at the end: '}' is missing"),
        ('id: "x"\nmelds { max_wilds 2 }', "line 2: expected ':' or '{' after 'max_wilds'"),
        ('id: "x"\nid: "y"', "line 2: field 'id' is given more than once"),
        ("id: @", "line 1: unexpected character '@'"),
    ],
)
def test_a_house_rule_that_is_not_in_the_text_format_says_where(page: Page, text: str, message: str) -> None:
    got = in_page(
        page,
        "textproto.js",
        "(() => { try { m.parseTextproto(arg); return null; } catch (e) { return e.message; } })()",
        text,
    )
    assert got == message


def field_names(message: Descriptor, repeated: bool, seen: set[str] | None = None) -> set[str]:
    """The names of the repeated (or the singular) fields of a message and of every message under it."""
    seen = set() if seen is None else seen
    if message.full_name in seen:
        return set()
    seen.add(message.full_name)
    names = {f.name for f in message.fields if f.is_repeated == repeated}
    for f in message.fields:
        if f.message_type is not None:
            names |= field_names(f.message_type, repeated, seen)
    return names


def test_the_page_knows_every_repeated_field_of_a_rule_set(page: Page) -> None:
    listed = in_page(page, "textproto.js", "m.REPEATED_FIELDS", None)
    repeated = field_names(ruleset_pb2.RuleSet.DESCRIPTOR, repeated=True)
    assert set(listed) == repeated, "update REPEATED_FIELDS in oracle/service/web/textproto.js"
    # the page tells repeated fields by name alone: no name may be repeated in one message and single in another
    assert not repeated & field_names(ruleset_pb2.RuleSet.DESCRIPTOR, repeated=False)


@pytest.mark.parametrize("rule_set_id", ["classic-2p", "classic-4p", "six-3x2", "samba-4p"])
def test_a_position_of_one_hand_becomes_a_whole_deal_the_oracle_accepts(page: Page, rule_set_id: str) -> None:
    ref = oracle_pb2.RuleSetRef(id=rule_set_id)
    rule_set = API.GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=ref)).rule_set
    state = in_page(
        page,
        "position.js",
        """(() => {
            const pos = m.emptyPosition(arg.players.seats, arg.players.seats / arg.players.sideSize);
            pos.hands[0] = "KH KD 5C";
            return m.buildState(pos, arg);
        })()""",
        json_format.MessageToDict(rule_set),
    )
    request = oracle_pb2.ValidateStateRequest(rule_set=ref)
    json_format.ParseDict(state, request.state)
    answer = API.ValidateState(request)
    assert answer.valid, answer.problems
    hidden = request.state.seats[1:]
    assert [len(seat.hand) for seat in hidden] == [rule_set.deal.hand_size] * len(hidden)
    assert list(request.state.seats[0].hand) == [cards_pb2.CARD_KH, cards_pb2.CARD_KD, cards_pb2.CARD_5C]


def test_the_page_names_the_form_field_of_each_problem_path(page: Page) -> None:
    pos = in_page(page, "position.js", "m.emptyPosition(4, 2)", None)
    pos["hands"][0] = "KH"
    paths = [
        "state.seats[0].hand[2]",
        "state.sides[1].melds[0]",
        "state.discard_pile[3]",
        "state.sides[0].red_threes",
        "table.sides[1].hands[1]",
        "table.sides[0].went_out",
    ]
    got = in_page(page, "position.js", "arg.paths.map((p) => m.describePath(p, arg.pos))", {"paths": paths, "pos": pos})
    assert got == [
        {"input": "hand-0", "label": "seat 0's hand, card 3"},
        {"input": "melds-1", "label": "side 1's meld 1"},
        {"input": "pile", "label": "the discard pile, card 4 from the bottom"},
        {"input": "red-0", "label": "side 0's red threes"},
        {"input": "hand-3", "label": "seat 3's hand"},  # side 1's second player
        {"input": "went-out", "label": "who went out (side 0)"},
    ]


TURNS = [
    {"phase": phase, "start": start, "newMelds": new, "turnMelded": melded, "addedToExisting": added,
     "madeCanasta": canasta, "answer": answer, "meldedBefore": before}
    for phase in ("PHASE_PLAY", "PHASE_AWAIT_ANSWER")
    for start in ("TURN_START_DREW", "TURN_START_TOOK_PILE")
    for new in ("", "1", "2")
    for melded in (False, True)
    for added in (False, True)
    for canasta in (False, True)
    for answer in ("PARTNER_ANSWER_UNSPECIFIED", "PARTNER_ANSWER_YES", "PARTNER_ANSWER_NO")
    for before in (False, True)
]  # fmt: skip


def test_every_turn_the_form_offers_is_accepted_or_refused_at_a_field_of_the_form(page: Page) -> None:
    """Each combination of the turn fields becomes a state ValidateState accepts, or each of its problems is shown
    at an input the form has for that position (the oracle, not the page, decides what a turn may be)."""
    rule_set = json_format.MessageToDict(
        API.GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"))).rule_set
    )
    positions = in_page(
        page,
        "position.js",
        """arg.turns.map((turn) => {
            const pos = Object.assign(m.emptyPosition(4, 2), turn);
            pos.hands[0] = "9H 9D 5C 6C";
            pos.sides[0].melds = "AH AD AS, KC KC KD KD KH KH KS";
            return [pos, m.buildState(pos, arg.ruleSet)];
        })""",
        {"turns": TURNS, "ruleSet": rule_set},
    )
    refused = []
    for pos, state in positions:
        request = oracle_pb2.ValidateStateRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"))
        json_format.ParseDict(state, request.state)
        problems = API.ValidateState(request).problems
        if problems:
            refused.append({"pos": pos, "paths": [p.field for p in problems]})
    accepted = len(positions) - len(refused)
    assert accepted > len(positions) // 4, accepted  # most turns a player can describe are possible
    shown = in_page(
        page,
        "position.js",
        """arg.map(({ pos, paths }) => {
            const root = document.createElement("div");
            m.renderPosition(root, pos, () => {});
            return paths.map((path) => {
                const input = m.describePath(path, pos).input;
                return [path, input, Boolean(input && root.querySelector(`#${input}`))];
            });
        })""",
        refused,
    )
    for where, case in zip(shown, refused, strict=True):
        assert all(present for _, _, present in where), (case["pos"], where)


PILES = [("", 0), ("7C 2S 9H", 0), ("7C 2S 9H", 1), ("2S 9H", 1), ("3H 9H", 1), ("6S 3S 9H", 1), ("9H JK 5C", 1)]


@pytest.mark.parametrize("rule_set_id", ["classic-2p", "classic-4p", "bicycle-4p", "2p-cover-upcard", "samba-4p"])
@pytest.mark.parametrize("melds", ["", "KH KD KS"])
def test_the_pages_frozen_pile_reasons_are_the_oracles(page: Page, rule_set_id: str, melds: str) -> None:
    loaded = default_rule_book().get(rule_set_id)
    rule_set = json_format.MessageToDict(
        API.GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(id=rule_set_id))).rule_set
    )
    for pile, upcards in PILES:
        shown, state = in_page(
            page,
            "position.js",
            """(() => {
                const seats = arg.ruleSet.players.seats;
                const pos = m.emptyPosition(seats, seats / arg.ruleSet.players.sideSize);
                Object.assign(pos, { pile: arg.pile, upcards: arg.upcards });
                pos.hands[0] = "QH 5C";
                pos.sides[0].melds = arg.melds;
                return [m.pileFreezers(pos, arg.ruleSet).map(([field]) => field), m.buildState(pos, arg.ruleSet)];
            })()""",
            {"ruleSet": rule_set, "pile": pile, "upcards": upcards, "melds": melds},
        )
        message = json_format.ParseDict(state, game_pb2.GameState())
        expected = [field for field, _ in frozen_reasons_for_side(loaded.rules, state_from_proto(message), 0)]
        assert shown == expected, (pile, upcards)


MELDS = ["9H TH JH", "QC QD QS 2D", "JK 2C 2D", "5S 6S 7S 8S 9S TS JS", "KH KD KS", "2C 9H TH", "4D 5D 6D 2H"]


def test_the_page_tells_a_run_among_the_melds_as_the_oracle_does(page: Page) -> None:
    got = in_page(page, "melds.js", "arg.map((meld) => m.isRun(meld.split(' ')))", MELDS)
    assert got == [is_run(tuple(parse_cards(meld))) for meld in MELDS]
    assert got.count(True) == 4 and got.count(False) == 3  # runs (one with a wild card) and groups of one rank


@pytest.mark.parametrize(
    ("rule_set_id", "feet", "stock"),
    [("hand-and-foot-4p", ["down", "up", "down", "up"], ""), ("hand-and-foot-13-4p", ["down"] * 4, "101")],
)
def test_the_page_deals_each_foot_face_down_in_a_state_the_oracle_accepts(
    page: Page, rule_set_id: str, feet: list[str], stock: str
) -> None:
    ref = oracle_pb2.RuleSetRef(id=rule_set_id)
    rule_set = API.GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=ref)).rule_set
    state = in_page(
        page,
        "position.js",
        """(() => {
            const pos = m.emptyPosition(4, 2);
            Object.assign(pos, { footSize: arg.ruleSet.foot.size, feet: arg.feet, stockSize: arg.stock });
            pos.handNumber = "3";
            pos.hands[0] = "KH KD 5C";
            return m.buildState(pos, arg.ruleSet);
        })()""",
        {"ruleSet": json_format.MessageToDict(rule_set), "feet": feet, "stock": stock},
    )
    request = oracle_pb2.ValidateStateRequest(rule_set=ref)
    json_format.ParseDict(state, request.state)
    answer = API.ValidateState(request)
    assert answer.valid, answer.problems
    size = rule_set.foot.size
    assert [len(seat.foot) for seat in request.state.seats] == [size if f == "down" else 0 for f in feet]
    assert request.state.hand_number == 3
    if stock:
        assert len(request.state.stock) == int(stock)  # the hidden hands take what the feet and the stock leave
    assert not any(card in (cards_pb2.CARD_3H, cards_pb2.CARD_3D) for seat in request.state.seats for card in seat.foot)


def test_the_page_names_the_foot_and_hand_number_fields_and_tells_a_foot_taken_up(page: Page) -> None:
    pos = in_page(page, "position.js", "m.emptyPosition(4, 2)", None)
    got = in_page(
        page,
        "position.js",
        "arg.paths.map((p) => m.describePath(p, arg.pos))",
        {"paths": ["state.seats[2].foot", "state.seats[1].foot[4]", "state.hand_number"], "pos": pos},
    )
    assert got == [
        {"input": "foot-2", "label": "seat 2's foot"},
        {"input": "foot-1", "label": "seat 1's foot"},
        {"input": "hand-number", "label": "the hand's number in the game"},
    ]
    before = {"seats": [{"foot": ["CARD_4C"] * 11}, {"foot": ["CARD_5C"] * 11}, {}, {}]}
    melded_out = {"seatToMove": 0, "phase": "PHASE_PLAY", "seats": [{"foot": []}, {"foot": ["CARD_5C"] * 11}, {}, {}]}
    walked = {**melded_out, "seatToMove": 1, "phase": "PHASE_DRAW"}
    ended = {**walked, "phase": "PHASE_HAND_OVER"}  # the discard of the last stock card ended the hand
    lines = in_page(
        page,
        "answers.js",
        "[arg.a, arg.b, arg.c, arg.d].map((after) => m.feetTakenUp(arg.before, after).map((l) => l.join('')))",
        {"before": before, "a": melded_out, "b": walked, "c": before, "d": ended},
    )
    assert lines == [
        ["Seat 0 took up the foot (11 cards): plays on from it this turn"],
        ["Seat 0 took up the foot (11 cards): plays it from the next turn"],
        [],
        ["Seat 0 took up the foot (11 cards): the hand ended with that discard, so it counts as cards held"],
    ]
