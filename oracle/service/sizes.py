"""Checks a request's lists, strings and numbers against the Limits before any work is done on it."""

from __future__ import annotations

from collections.abc import Sequence, Sized

from oracle.api.v1 import cards_pb2, game_pb2, oracle_pb2, record_pb2, ruleset_pb2, scoring_pb2
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.ruleset.validate import MAX_RULE_ROWS, numbers_over_maximum
from oracle.service.limits import Limits


class SizeCheck:
    """Collects every limit a request passes (with field path, value and limit); `done()` raises them."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.problems: list[FieldProblem] = []

    def count(self, path: str, items: Sized, limit: int, what: str, why: str = "") -> bool:
        """Whether `items` has at most `limit` entries (else a problem naming both)."""
        if len(items) <= limit:
            return True
        self.problems.append(FieldProblem(path, f"has {len(items)} {what}; the limit is {limit}{why}"))
        return False

    def text(self, path: str, value: str, limit: int) -> None:
        """A string of at most `limit` characters."""
        if len(value) > limit:
            self.problems.append(FieldProblem(path, f"has {len(value)} characters; the limit is {limit}"))

    def ident(self, path: str, value: str) -> None:
        """An id or name: at most limits.max_id_chars characters."""
        self.text(path, value, self.limits.max_id_chars)

    def done(self) -> None:
        """Raise InvalidInputError for every limit passed."""
        if self.problems:
            raise InvalidInputError(list(self.problems))


def _deck_words(deck: int, rule_set: str) -> str:
    return f" (the {deck} cards of the deck of {rule_set})" if rule_set else f" (the largest deck, {deck} cards)"


def check_rule_set_ref(check: SizeCheck, ref: oracle_pb2.RuleSetRef, path: str) -> None:
    """An id of at most max_id_chars; an inline rule set within the string, note, choice, table-row and number
    limits (all counted on the message: nothing of the rule set is merged or checked before they pass)."""
    limits = check.limits
    if ref.WhichOneof("ref") != "inline":
        check.ident(f"{path}.id", ref.id)
        return
    spec, where = ref.inline, f"{path}.inline"
    check.ident(f"{where}.id", spec.id)
    check.ident(f"{where}.extends", spec.extends)
    check.text(f"{where}.title", spec.title, limits.max_text_chars)
    check.text(f"{where}.description", spec.description, limits.max_text_chars)
    if check.count(f"{where}.rules", spec.rules, limits.max_rule_notes, "rule notes"):
        for i, note in enumerate(spec.rules):
            _check_note(check, note, f"{where}.rules[{i}]")
    if check.count(f"{where}.choices", spec.choices, limits.max_choices, "choices"):
        for i, choice in enumerate(spec.choices):
            _check_choice(check, choice, f"{where}.choices[{i}]")
    # the rule book's own bound on these tables (oracle.ruleset.validate), counted before anything is built from them
    check.count(f"{where}.melds.rank_rules", spec.melds.rank_rules, MAX_RULE_ROWS, "rows")
    check.count(f"{where}.threes.count_values", spec.threes.count_values, MAX_RULE_ROWS, "rows")
    for field, message in numbers_over_maximum(spec, limits.rule_set_maximums()):
        check.problems.append(FieldProblem(f"{where}.{field}", message))


def _check_note(check: SizeCheck, note: ruleset_pb2.RuleNote, path: str) -> None:
    limits = check.limits
    check.ident(f"{path}.field", note.field)
    check.text(f"{path}.text", note.text, limits.max_text_chars)
    check.text(f"{path}.choice", note.choice, limits.max_text_chars)
    if check.count(f"{path}.cite", note.cite, limits.max_citations, "citations"):
        for j, cite in enumerate(note.cite):
            check.ident(f"{path}.cite[{j}].source", cite.source)
            check.text(f"{path}.cite[{j}].section", cite.section, limits.max_text_chars)


def _check_choice(check: SizeCheck, choice: ruleset_pb2.Choice, path: str) -> None:
    limits = check.limits
    check.ident(f"{path}.id", choice.id)
    check.text(f"{path}.point", choice.point, limits.max_text_chars)
    check.text(f"{path}.why", choice.why, limits.max_text_chars)
    if check.count(f"{path}.fields", choice.fields, limits.max_choice_entries, "fields"):
        for j, field in enumerate(choice.fields):
            check.ident(f"{path}.fields[{j}]", field)
    readings = [(f"{path}.taken", choice.taken)]
    if check.count(f"{path}.others", choice.others, limits.max_choice_entries, "readings"):
        readings += [(f"{path}.others[{j}]", reading) for j, reading in enumerate(choice.others)]
    for where, reading in readings:
        check.text(f"{where}.text", reading.text, limits.max_text_chars)
        check.ident(f"{where}.rule_set", reading.rule_set)
        if check.count(f"{where}.cite", reading.cite, limits.max_citations, "citations"):
            for k, cite in enumerate(reading.cite):
                check.ident(f"{where}.cite[{k}].source", cite.source)
                check.text(f"{where}.cite[{k}].section", cite.section, limits.max_text_chars)


class _Cards:
    """Card lists of one message checked against a deck: each list, and all of them together (twice the deck)."""

    def __init__(self, check: SizeCheck, deck: int, rule_set: str, whole: str) -> None:
        self.check, self.deck, self.why, self.whole = check, deck, _deck_words(deck, rule_set), whole
        self.total = 0
        self.list_too_long = False

    def cards(self, path: str, cards: Sized) -> None:
        self.total += len(cards)
        if not self.check.count(path, cards, self.deck, "cards", self.why):
            self.list_too_long = True

    def lists(self, path: str, lists: Sized, what: str) -> bool:
        return self.check.count(path, lists, self.deck, what, self.why)

    def finish(self, path: str) -> None:
        if self.total > 2 * self.deck and not self.list_too_long:  # a list too long is already the problem
            self.check.problems.append(
                FieldProblem(
                    path,
                    f"holds {self.total} cards in all; the limit is {2 * self.deck}, twice the {self.deck} cards of"
                    f" the deck ({self.whole} holds each card of the deck once)",
                )
            )


def _state_within(state: game_pb2.GameState, deck: int, max_seats: int) -> bool:
    """Whether a state passes every check of check_state, counted without naming anything (the common case)."""
    if len(state.seats) > max_seats or len(state.sides) > max_seats or len(state.side_of_seat) > max_seats:
        return False
    lists = [len(state.stock), len(state.discard_pile)]
    lists += [len(seat.hand) for seat in state.seats]
    lists += [len(seat.foot) for seat in state.seats]
    for side in state.sides:
        if len(side.melds) > deck:
            return False
        lists.append(len(side.red_threes))
        lists += [len(meld.cards) for meld in side.melds]
    return max(lists) <= deck and sum(lists) <= 2 * deck


def check_state(check: SizeCheck, state: game_pb2.GameState, path: str, deck: int, rule_set: str = "") -> None:
    """Seats, sides and side_of_seat entries at most max_seats; no card list longer than the deck; at most twice
    the deck in all."""
    if _state_within(state, deck, check.limits.max_seats):
        return
    seats_ok = check.count(f"{path}.seats", state.seats, check.limits.max_seats, "seats")
    sides_ok = check.count(f"{path}.sides", state.sides, check.limits.max_seats, "sides")
    formed_ok = check_side_of_seat(check, state.side_of_seat, f"{path}.side_of_seat")
    if not (seats_ok and sides_ok and formed_ok):
        return
    cards = _Cards(check, deck, rule_set, "a state")
    for i, seat in enumerate(state.seats):
        cards.cards(f"{path}.seats[{i}].hand", seat.hand)
        cards.cards(f"{path}.seats[{i}].foot", seat.foot)
    for i, side in enumerate(state.sides):
        if cards.lists(f"{path}.sides[{i}].melds", side.melds, "melds"):
            for j, meld in enumerate(side.melds):
                cards.cards(f"{path}.sides[{i}].melds[{j}]", meld.cards)
        cards.cards(f"{path}.sides[{i}].red_threes", side.red_threes)
    cards.cards(f"{path}.stock", state.stock)
    cards.cards(f"{path}.discard_pile", state.discard_pile)
    cards.finish(path)


def check_side_of_seat(check: SizeCheck, side_of_seat: Sized, path: str) -> bool:
    """A side_of_seat (of a state, view, table or explicit deal) of at most max_seats entries: one per seat."""
    return check.count(path, side_of_seat, check.limits.max_seats, "entries", " (one per seat at most)")


def check_action(check: SizeCheck, action: game_pb2.Action, path: str, deck: int, rule_set: str = "") -> None:
    """No more groups, and no more cards in all, than the deck has cards."""
    groups: Sequence[game_pb2.MeldGroup] = ()
    named = 0
    if action.HasField("take_pile"):
        groups, named = action.take_pile.melds, len(getattr(action.take_pile, "with"))
        where = f"{path}.take_pile.melds"
    elif action.HasField("meld"):
        groups, where = action.meld.groups, f"{path}.meld.groups"
    else:
        return
    why = _deck_words(deck, rule_set)
    if not check.count(where, groups, deck, "groups", why):
        return
    named += sum(len(group.cards) for group in groups)
    if named > deck:
        check.problems.append(FieldProblem(path, f"names {named} cards in all; the limit is {deck}{why}"))


def check_table(check: SizeCheck, table: scoring_pb2.HandTable, path: str, deck: int, rule_set: str = "") -> None:
    """Sides, side_of_seat entries and hands per side at most max_seats; no card list longer than the deck; twice the
    deck in all."""
    sides_ok = check.count(f"{path}.sides", table.sides, check.limits.max_seats, "sides")
    if not (check_side_of_seat(check, table.side_of_seat, f"{path}.side_of_seat") and sides_ok):
        return
    cards = _Cards(check, deck, rule_set, "a table")
    for i, side in enumerate(table.sides):
        where = f"{path}.sides[{i}]"
        if cards.lists(f"{where}.melds", side.melds, "melds"):
            for j, meld in enumerate(side.melds):
                cards.cards(f"{where}.melds[{j}]", meld.cards)
        cards.cards(f"{where}.red_threes", side.red_threes)
        if check.count(f"{where}.hands", side.hands, check.limits.max_seats, "hands"):
            for k, hand in enumerate(side.hands):
                cards.cards(f"{where}.hands[{k}]", hand.cards)
    cards.finish(path)


def check_deck_order(check: SizeCheck, order: cards_pb2.CardList, path: str, deck: int, rule_set: str = "") -> None:
    """A deck order no longer than the deck (its exact content is checked when the hand is dealt)."""
    check.count(path, order.cards, deck, "cards", _deck_words(deck, rule_set))


def check_record(check: SizeCheck, record: record_pb2.GameRecord, path: str = "record") -> None:
    """Hands, actions per hand and actions in all within the record limits; each action and deck order within the
    largest deck the limits allow (the record's own deck is checked when its rule set is known)."""
    limits = check.limits
    check.ident(f"{path}.rule_set_id", record.rule_set_id)
    if not check.count(f"{path}.hands", record.hands, limits.max_record_hands, "hands"):
        return
    total = sum(len(hand.actions) + len(hand.moves) for hand in record.hands)
    if total > limits.max_record_actions:
        check.problems.append(
            FieldProblem(f"{path}.hands", f"hold {total} actions in all; the limit is {limits.max_record_actions}")
        )
        return
    for h, hand in enumerate(record.hands):
        where = f"{path}.hands[{h}]"
        check.count(f"{where}.claimed_scores", hand.claimed_scores, limits.max_seats, "scores")
        check.count(f"{where}.claimed_totals", hand.claimed_totals, limits.max_seats, "totals")
        if hand.HasField("deck_order"):
            check_deck_order(check, hand.deck_order, f"{where}.deck_order", limits.largest_deck)
        if check.count(f"{where}.actions", hand.actions, limits.max_hand_actions, "actions"):
            for i, action in enumerate(hand.actions):
                check_action(check, action, f"{where}.actions[{i}]", limits.largest_deck)
        _check_record_texts(check, hand, where)


def _check_record_texts(check: SizeCheck, hand: record_pb2.HandRecord, where: str) -> None:
    """The text forms of a hand (moves, an explicit deal, checkpoints): no text longer than the largest deck
    written out (three characters a card), no more entries than seats or actions."""
    limits = check.limits
    longest = 3 * limits.largest_deck + 64
    check.count(f"{where}.starting_totals", hand.starting_totals, limits.max_seats, "totals")
    if check.count(f"{where}.moves", hand.moves, limits.max_hand_actions, "moves"):
        for i, move in enumerate(hand.moves):
            check.text(f"{where}.moves[{i}]", move, longest)
    if hand.HasField("start"):
        start = hand.start
        check.ident(f"{where}.start.rule_set_id", start.rule_set_id)
        check.text(f"{where}.start.stock", start.stock, longest)
        check.text(f"{where}.start.discard_pile", start.discard_pile, longest)
        check_side_of_seat(check, start.side_of_seat, f"{where}.start.side_of_seat")
        if check.count(f"{where}.start.seats", start.seats, limits.max_seats, "seats"):
            for i, seat in enumerate(start.seats):
                check.text(f"{where}.start.seats[{i}].hand", seat.hand, longest)
        if check.count(f"{where}.start.sides", start.sides, limits.max_seats, "sides"):
            for i, side in enumerate(start.sides):
                check.text(f"{where}.start.sides[{i}].red_threes", side.red_threes, longest)
                if check.count(f"{where}.start.sides[{i}].melds", side.melds, limits.largest_deck, "melds"):
                    for j, meld in enumerate(side.melds):
                        check.text(f"{where}.start.sides[{i}].melds[{j}]", meld, longest)
    if not check.count(f"{where}.checkpoints", hand.checkpoints, limits.max_hand_actions + 1, "checkpoints"):
        return
    for k, point in enumerate(hand.checkpoints):
        at = f"{where}.checkpoints[{k}]"
        for name, entries in (("hands", point.hands), ("melds", point.melds), ("red_threes", point.red_threes)):
            if check.count(f"{at}.{name}", entries, limits.max_seats, name):
                for e, entry in enumerate(entries):
                    check.text(f"{at}.{name}[{e}].cards", entry.cards, longest)
        check.text(f"{at}.stock", point.stock, longest)
        check.text(f"{at}.discard_pile", point.discard_pile, longest)


__all__ = [
    "SizeCheck",
    "check_action",
    "check_deck_order",
    "check_record",
    "check_rule_set_ref",
    "check_side_of_seat",
    "check_state",
    "check_table",
]
