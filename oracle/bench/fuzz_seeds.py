"""The fuzz's seed corpus: valid requests of every RPC, built from the shipped records, conformance cases and specs.

Everything here is deterministic: the same book and sizes give the same
corpus, so a fuzz run is repeated exactly by its seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from importlib import resources

from google.protobuf import json_format, text_format
from google.protobuf.message import Message

from oracle.api.v1 import conformance_pb2, oracle_pb2, record_pb2, ruleset_pb2
from oracle.bench.fuzz_feet import add_feet_positions
from oracle.bench.fuzz_hand import walk_simulated_hand
from oracle.bench.fuzz_runs import add_runs_positions
from oracle.bench.states import shipped_records
from oracle.games.deal import deal
from oracle.games.match import after_hand, dealer_of_hand, deck_order, start_standing
from oracle.model.actions import AskPartner, parse_action
from oracle.model.cards import NotationError, parse_cards
from oracle.model.errors import InvalidInputError
from oracle.model.events import HandEnded, SidesFormed
from oracle.model.state import GameState, Phase
from oracle.rules.facts import playing_side
from oracle.rules.referee import check_action
from oracle.rules.view import view_of
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook, SpecError
from oracle.ruleset.sections import SideFormation
from oracle.service.convert_game import action_to_proto, state_from_notation, state_to_proto
from oracle.service.convert_record import record_from_proto
from oracle.service.convert_table import table_from_notation, table_to_proto
from oracle.service.convert_view import view_to_proto

UNARY_RPCS = (
    "ListRuleSets",
    "GetRuleSet",
    "ScoreHand",
    "GetMinimumInitialMeld",
    "ValidateState",
    "CheckAction",
    "DealHand",
    "ListLegalActions",
    "Adjudicate",
    "ReplayGame",
)
STREAM_RPC = "RefereeGame"
RPCS = (*UNARY_RPCS, STREAM_RPC)  #: every method of oracle.api.v1.OracleService
SERVICE = oracle_pb2.DESCRIPTOR.services_by_name["OracleService"]
DATA_PACKAGE = "oracle.conformance.data"
SPECS_PACKAGE = "oracle.specs"


def request_class(rpc: str) -> type[Message]:
    """The request message class of an RPC."""
    return getattr(oracle_pb2, SERVICE.methods_by_name[rpc].input_type.name)  # type: ignore[no-any-return]


@dataclass
class Corpus:
    """Valid requests per unary RPC, valid RefereeGame streams, and sub-messages by type to splice in."""

    unary: dict[str, list[Message]] = field(default_factory=dict)
    streams: list[list[oracle_pb2.RefereeGameRequest]] = field(default_factory=list)
    words: list[str] = field(default_factory=list)  #: rule-set ids, note fields and sources the server knows

    def add(self, rpc: str, request: Message) -> None:
        """Add a request of `rpc`."""
        self.unary.setdefault(rpc, []).append(request)

    def donors(self, per_type: int = 40) -> dict[str, list[Message]]:
        """Up to `per_type` sub-messages of each message type found in the corpus, spread over it."""
        found: dict[str, list[Message]] = {}
        roots: list[Message] = [m for requests in self.unary.values() for m in requests]
        roots.extend(m for stream in self.streams for m in stream)
        for root in roots:
            for sub in _messages_in(root):
                found.setdefault(sub.DESCRIPTOR.full_name, []).append(sub)
        out = {}
        for name, subs in found.items():
            step = max(1, len(subs) // per_type)
            out[name] = subs[::step][:per_type]
        return out

    def size(self) -> int:
        """Requests in the corpus (a stream counts once)."""
        return sum(len(v) for v in self.unary.values()) + len(self.streams)


def _messages_in(message: Message, depth: int = 0) -> Iterator[Message]:
    yield message
    if depth >= 6:
        return
    for desc, value in message.ListFields():
        if desc.message_type is None:
            continue
        values = list(value)[:8] if desc.is_repeated else [value]
        for sub in values:
            yield from _messages_in(sub, depth + 1)


def _ref(rule_set_id: str) -> oracle_pb2.RuleSetRef:
    return oracle_pb2.RuleSetRef(id=rule_set_id)


def shipped_specs() -> list[ruleset_pb2.RuleSet]:
    """The shipped spec files as RuleSet messages (the catalogue of sources left out), in name order."""
    root = resources.files(SPECS_PACKAGE)
    out = []
    for name in sorted(e.name for e in root.iterdir() if e.name.endswith(".textproto")):
        if name != "sources.textproto":
            out.append(text_format.Parse((root / name).read_text(encoding="utf-8"), ruleset_pb2.RuleSet()))
    return out


def conformance_cases() -> list[conformance_pb2.ConformanceCase]:
    """Every shipped conformance case (oracle.conformance.data/cases/*.json), in file order."""
    root = resources.files(DATA_PACKAGE) / "cases"
    cases: list[conformance_pb2.ConformanceCase] = []
    for name in sorted(e.name for e in root.iterdir() if e.name.endswith(".json")):
        suite = conformance_pb2.ConformanceSuite()
        json_format.ParseDict(json.loads((root / name).read_text(encoding="utf-8")), suite)
        cases.extend(suite.cases)
    return cases


def _case_request(case: conformance_pb2.ConformanceCase, book: RuleBook) -> tuple[str, Message] | None:
    """The RPC and request of a conformance case (as the conformance runner makes it), or None if it has none."""
    if case.HasField("inline_rule_set"):
        ref = oracle_pb2.RuleSetRef(inline=case.inline_rule_set)
        rules = book.resolve_inline(case.inline_rule_set, "inline_rule_set").rules
    else:
        ref = _ref(case.rule_set_id)
        rules = book.get(case.rule_set_id).rules
    kind = case.WhichOneof("input")
    if kind == "check":
        state = state_to_proto(state_from_notation(case.check.state, rules))
        action = action_to_proto(parse_action(case.check.action))
        return "CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, state=state, action=action)
    if kind == "validate":
        state = state_to_proto(state_from_notation(case.validate.state, rules))
        return "ValidateState", oracle_pb2.ValidateStateRequest(rule_set=ref, state=state)
    if kind == "score":
        table = table_to_proto(table_from_notation(case.score.table))
        return "ScoreHand", oracle_pb2.ScoreHandRequest(rule_set=ref, table=table)
    if kind == "minimum":
        return "GetMinimumInitialMeld", oracle_pb2.GetMinimumInitialMeldRequest(
            rule_set=ref, running_total=case.minimum.running_total
        )
    if kind == "deal":
        request = oracle_pb2.DealHandRequest(rule_set=ref, dealer=case.deal.dealer)
        if case.deal.deck_order:
            request.deck_order.cards.extend(parse_cards(case.deal.deck_order))  # type: ignore[arg-type]
        else:
            request.seed = case.deal.seed
        return "DealHand", request
    if kind == "replay":
        record = record_pb2.GameRecord()
        record.CopyFrom(case.replay.record)
        record.rule_set_id = case.rule_set_id
        replay = oracle_pb2.ReplayGameRequest(record=record, summary_only=True)
        if case.HasField("inline_rule_set"):
            replay.rule_set.CopyFrom(ref)
        return "ReplayGame", replay
    return None


def _add_cases(corpus: Corpus, book: RuleBook, every: int) -> None:
    for case in conformance_cases()[::every]:
        try:
            made = _case_request(case, book)
        except (InvalidInputError, NotationError, SpecError, KeyError, ValueError):
            continue  # a malformed case (its request is made wrongly on purpose): the mutations make such ones
        if made is not None:
            corpus.add(*made)


def _shortened(record: record_pb2.GameRecord, hands: int, actions: int) -> record_pb2.GameRecord:
    """The record's first `hands` hands, each cut to its first `actions` actions (still a valid record)."""
    out = record_pb2.GameRecord()
    out.CopyFrom(record)
    del out.hands[hands:]
    for hand in out.hands:
        del hand.actions[actions:]
        if len(hand.actions) == actions:
            del hand.claimed_scores[:]
            del hand.claimed_totals[:]
    out.ClearField("claimed_winner")
    return out


def _stream(record: record_pb2.GameRecord) -> list[oracle_pb2.RefereeGameRequest]:
    start = oracle_pb2.RefereeStart(rule_set=_ref(record.rule_set_id), first_dealer=record.first_dealer)
    out = [oracle_pb2.RefereeGameRequest(start=start)]
    for hand in record.hands:
        dealt = oracle_pb2.RefereeDeal()
        if hand.WhichOneof("deck") == "deck_order":
            dealt.deck_order.CopyFrom(hand.deck_order)
        else:
            dealt.seed = hand.seed
        out.append(oracle_pb2.RefereeGameRequest(deal=dealt))
        out.extend(oracle_pb2.RefereeGameRequest(action=a) for a in hand.actions)
    return out


def _add_record(corpus: Corpus, book: RuleBook, msg: record_pb2.GameRecord, every: int, short: int) -> None:
    """Positions of one record (every `every`-th decision) as CheckAction, ValidateState, ListLegalActions and
    Adjudicate requests; its deals as DealHand; its hand-end tables as ScoreHand; a short copy as ReplayGame and
    as a RefereeGame stream."""
    record = record_from_proto(msg)
    rule_set_id = record.rule_set_id
    rules = book.get(rule_set_id).rules
    ref = _ref(rule_set_id)
    house = oracle_pb2.RuleSetRef(inline=ruleset_pb2.RuleSet(id="house", extends=rule_set_id, title="House rules"))
    others = [i for i in book.ids() if i != rule_set_id]
    standing = start_standing(rules)
    decision = 0
    for h, hand in enumerate(record.hands):
        dealer = dealer_of_hand(rules, record.first_dealer, h)
        order = deck_order(rules, hand.deck)
        state = deal(rules, order, dealer=dealer, running_totals=standing.totals)
        deal_request = oracle_pb2.DealHandRequest(rule_set=ref, dealer=dealer, running_totals=standing.totals)
        if h % 2:
            deal_request.deck_order.cards.extend(order)  # type: ignore[arg-type]
        elif hand.deck.seed is not None:
            deal_request.seed = hand.deck.seed
        corpus.add("DealHand", deal_request)
        scores: tuple[int, ...] = ()
        for action in hand.actions:
            if decision % every == 0:
                state_msg, action_msg = state_to_proto(state), action_to_proto(action)
                used = house if decision % (4 * every) == 0 else ref  # some under an inline rule set
                corpus.add(
                    "CheckAction", oracle_pb2.CheckActionRequest(rule_set=used, state=state_msg, action=action_msg)
                )
                corpus.add("ValidateState", oracle_pb2.ValidateStateRequest(rule_set=used, state=state_msg))
                corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=used, state=state_msg))
                compared = [used, _ref(others[decision % len(others)])] if decision % 3 else []
                corpus.add(
                    "Adjudicate", oracle_pb2.AdjudicateRequest(state=state_msg, action=action_msg, rule_sets=compared)
                )
                _add_asked(corpus, rules, ref, state)
            decision += 1
            verdict = check_action(rules, state, action, validate=False)
            if verdict.next_state is None:
                raise RuntimeError(f"a shipped record has an illegal action: {action}")
            state = verdict.next_state
            for event in verdict.events:
                if isinstance(event, HandEnded):
                    scores = tuple(s.total for s in event.scores)
                    table = table_to_proto(event.table)
                    corpus.add("ScoreHand", oracle_pb2.ScoreHandRequest(rule_set=ref, table=table))
        standing = after_hand(rules, standing, scores)
    replayed = _shortened(msg, hands=1, actions=short)
    corpus.add("ReplayGame", oracle_pb2.ReplayGameRequest(record=replayed, summary_only=bool(short % 2)))
    corpus.streams.append(_stream(replayed))


def _add_asked(corpus: Corpus, rules: CompiledRules, ref: oracle_pb2.RuleSetRef, state: GameState) -> None:
    """Under a rule set that limits the partner questions of a hand (going_out.ask_partner_max_per_hand), a position
    in the play phase once more with the mover's side at the limit (SideState.asks), asking: from the state and
    from the mover's view."""
    limit = rules.going_out.ask_partner_max_per_hand
    if not limit or state.phase != Phase.PLAY:
        return
    side = playing_side(rules, state, state.seat_to_move)
    sides = list(state.sides)
    sides[side] = sides[side].evolve(asks=limit)
    asked = replace(state, sides=tuple(sides))
    ask = action_to_proto(AskPartner())
    corpus.add("CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, state=state_to_proto(asked), action=ask))
    view = view_to_proto(view_of(asked, asked.seat_to_move))
    corpus.add("CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, view=view, action=ask))
    corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=state_to_proto(asked)))


def _add_house_positions(
    corpus: Corpus, book: RuleBook, msg: record_pb2.GameRecord, house: ruleset_pb2.RuleSet, count: int = 8
) -> None:
    """The first `count` positions of a record's first hand as CheckAction and ListLegalActions under `house`."""
    record = record_from_proto(msg)
    rules = book.get(record.rule_set_id).rules
    ref = oracle_pb2.RuleSetRef(inline=house)
    hand = record.hands[0]
    state = deal(rules, deck_order(rules, hand.deck), dealer=dealer_of_hand(rules, record.first_dealer, 0))
    for action in hand.actions[:count]:
        state_msg = state_to_proto(state)
        corpus.add(
            "CheckAction",
            oracle_pb2.CheckActionRequest(rule_set=ref, state=state_msg, action=action_to_proto(action)),
        )
        corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=state_msg))
        verdict = check_action(rules, state, action, validate=False)
        if verdict.next_state is None:
            raise RuntimeError(f"a shipped record has an illegal action: {action}")
        state = verdict.next_state


def rank_rules_house(spec: ruleset_pb2.RuleSet) -> ruleset_pb2.RuleSet | None:
    """An inline rule set extending `spec` (a rule set with melds.rank_rules) whose rank table lets each rank take
    one wild card more, with its rule note; None for a rule set without rank rules."""
    if not spec.melds.rank_rules:
        return None
    house = ruleset_pb2.RuleSet(id=f"house-{spec.id}", extends=spec.id, title="House rank rules")
    house.melds.rank_rules.extend(spec.melds.rank_rules)
    for row in house.melds.rank_rules:
        row.max_wilds += 1
    note = house.rules.add(field="melds.rank_rules", text="A house rule: one wild card more in each rank's melds.")
    note.cite.add(source="4P-CLASSIC", section="Other versions, and where the rule books differ")
    return house


FORMING_SEED = 1  #: the simulated game whose first hand gives the positions of rule sets that form sides in play


def _add_forming_sides(corpus: Corpus, book: RuleBook, every: int) -> None:
    """For each rule set whose sides form during the hand (players.side_formation LONE_HAND): the first hand of a
    simulated game (FORMING_SEED), as the take that forms the sides (its answer holds SidesFormed), every
    `every`-th position after it (side_of_seat set) as CheckAction, ValidateState and ListLegalActions from the
    state and from the mover's view, and the hand's end table (side_of_seat set) as ScoreHand."""
    for rule_set_id in book.ids():
        rules = book.get(rule_set_id).rules
        if rules.side_formation != SideFormation.LONE_HAND:
            continue
        ref = _ref(rule_set_id)
        formed = 0
        for _, state, action, verdict in walk_simulated_hand(corpus, rules, rule_set_id, FORMING_SEED):
            forming = any(isinstance(event, SidesFormed) for event in verdict.events)
            if forming or (state.side_of_seat and formed % every == 0):
                state_msg, action_msg = state_to_proto(state), action_to_proto(action)
                view_msg = view_to_proto(view_of(state, state.seat_to_move))
                corpus.add(
                    "CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, state=state_msg, action=action_msg)
                )
                corpus.add("CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, view=view_msg, action=action_msg))
                corpus.add("ValidateState", oracle_pb2.ValidateStateRequest(rule_set=ref, state=state_msg))
                corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=state_msg))
                corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, view=view_msg))
                corpus.add("Adjudicate", oracle_pb2.AdjudicateRequest(view=view_msg, action=action_msg))
            formed += bool(state.side_of_seat)


def build_corpus(book: RuleBook, records: int = 20, every: int = 1, short_actions: int = 40) -> Corpus:
    """The seed corpus: `records` of the shipped records (spread over their rule sets), every `every`-th decision
    and conformance case, replays and streams cut to their first hand's first `short_actions` actions, and the
    positions of a simulated hand of each rule set whose sides form during the hand (_add_forming_sides), that
    has runs (add_runs_positions) or a foot (add_feet_positions)."""
    corpus = Corpus()
    corpus.add("ListRuleSets", oracle_pb2.ListRuleSetsRequest())
    for rule_set_id in book.ids():
        corpus.add("GetRuleSet", oracle_pb2.GetRuleSetRequest(rule_set=_ref(rule_set_id)))
        corpus.add("GetMinimumInitialMeld", oracle_pb2.GetMinimumInitialMeldRequest(rule_set=_ref(rule_set_id)))
    words = set(book.ids())
    for spec in shipped_specs():
        words.update(note.field for note in spec.rules)
        words.update(cite.source for note in spec.rules for cite in note.cite)
        spec.id = f"inline-{spec.id}"
        corpus.add("GetRuleSet", oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(inline=spec)))
    for total in (-500, 0, 1499, 1500, 3000, 10_000):
        corpus.add(
            "GetMinimumInitialMeld",
            oracle_pb2.GetMinimumInitialMeldRequest(rule_set=_ref("classic-4p"), running_total=total),
        )
    shipped = shipped_records()
    chosen = [shipped[i * len(shipped) // records] for i in range(min(records, len(shipped)))]
    for n, msg in enumerate(chosen):
        _add_record(corpus, book, msg, every, short_actions + 7 * n)
        house = rank_rules_house(book.get(msg.rule_set_id).spec)
        if house is not None:
            _add_house_positions(corpus, book, msg, house)
    _add_forming_sides(corpus, book, max(1, every // 4))
    add_runs_positions(corpus, book, max(1, every // 4))
    add_feet_positions(corpus, book, max(1, every // 4))
    _add_cases(corpus, book, max(1, every // 4))
    corpus.words = sorted(words)
    return corpus


__all__ = ["RPCS", "SERVICE", "STREAM_RPC", "UNARY_RPCS", "Corpus", "build_corpus", "request_class", "shipped_specs"]
