"""A worked example converter: "canlog", a simple text game log (one line per event), into GameRecord messages.

The format (invented for this example, like the logs many engines write):

    # a comment; blank lines are ignored
    game classic-2p dealer 1            a new game: its rule set and first dealer
    hand seed 1234                      a new hand dealt from a seed (or: hand deck Kh 10s ... for a deck order);
                                        optional before seed/deck: dealer N, totals A B (the starting totals)
    P0 draw                             seat 0 draws
    P1 pickup 9h 9d + Kh Kd Ks | Ah As Ad
                                        takes the pile with 9h 9d, laying two more melds at once
    P1 meld Kh Kd Ks | 7s 7d 2c         lays melds (K= 2c: wild cards onto the kings)
    P1 discard 5c
    P0 ask / P1 yes / P1 no / P0 finish
    check P0 Kh Qs 10c                  the engine's state here: a hand, the pile (check pile ...),
                                        the stock's size (check stock 40)
    score 120 -35                       the hand's score per side; totals 120 -35: the running totals
    winner 0                            the side that won

Cards are rank then suit, ranks 2-10 J Q K A, suits in lower case, Jo for a joker. Each action line also
claims whose turn it is (a checkpoint of seat_to_move), so an engine that lets a seat play out of turn is caught.
"""

from __future__ import annotations

from collections.abc import Iterator

from oracle.api.v1 import record_pb2
from oracle.service.converters import conversion_error

RANKS = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "T"}
RANKS.update({"J": "J", "Q": "Q", "K": "K", "A": "A"})
SUITS = {"c": "C", "d": "D", "h": "H", "s": "S"}
VERBS = ("draw", "pickup", "meld", "discard", "ask", "yes", "no", "finish")


class CanlogConverter:
    """Reads .canlog files (see the module's docstring)."""

    name = "canlog"
    suffixes = (".canlog",)

    def convert(self, text: str, file: str) -> Iterator[tuple[int, record_pb2.GameRecord]]:
        """Each game of the text with the line it starts on."""
        reader = _Reader(file)
        for number, line in enumerate(text.splitlines(), start=1):
            reader.line(number, line)
        yield from reader.finish()


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.games: list[tuple[int, record_pb2.GameRecord]] = []
        self.game: record_pb2.GameRecord | None = None
        self.hand: record_pb2.HandRecord | None = None
        self.number = 0
        self.starts: list[int] = []

    def fail(self, column: int, message: str) -> Exception:
        return conversion_error(self.file, self.number, column, message)

    def words(self, line: str) -> list[tuple[int, str]]:
        """The words of a line with their 1-based columns."""
        found, column = [], 0
        for word in line.split():
            column = line.index(word, column)
            found.append((column + 1, word))
            column += len(word)
        return found

    def card(self, column: int, token: str) -> str:
        if token == "Jo":
            return "JK"
        rank, suit = token[:-1], token[-1:]
        if rank not in RANKS or suit not in SUITS:
            raise self.fail(column, f"'{token[:12]}' is not a card (rank 2-10 J Q K A, suit c d h s, or Jo)")
        return RANKS[rank] + SUITS[suit]

    def cards(self, words: list[tuple[int, str]]) -> str:
        return " ".join(self.card(c, w) for c, w in words)

    def groups(self, words: list[tuple[int, str]]) -> str:
        groups: list[list[tuple[int, str]]] = [[]]
        for column, word in words:
            if word == "|":
                groups.append([])
            else:
                groups[-1].append((column, word))
        texts = []
        for group in groups:
            if not group:
                raise self.fail(words[0][0] if words else 1, "an empty meld group (two '|' in a row, or none)")
            onto = ""
            if group[0][1].endswith("="):
                rank = group[0][1][:-1]
                if rank not in RANKS:
                    raise self.fail(group[0][0], f"'{group[0][1][:12]}' is not a rank followed by '='")
                onto, group = RANKS[rank] + ": ", group[1:]
            texts.append(onto + self.cards(group))
        return ", ".join(texts)

    def need_hand(self, column: int) -> record_pb2.HandRecord:
        if self.hand is None:
            raise self.fail(column, "an action or claim before any 'hand' line")
        return self.hand

    def checkpoint(self, hand: record_pb2.HandRecord) -> record_pb2.Checkpoint:
        after = len(hand.moves)
        if hand.checkpoints and hand.checkpoints[-1].after == after:
            return hand.checkpoints[-1]
        return hand.checkpoints.add(after=after)

    def line(self, number: int, line: str) -> None:
        self.number = number
        words = self.words(line.split("#", 1)[0])
        if not words:
            return
        column, head = words[0]
        rest = words[1:]
        if head == "game":
            self.start_game(column, rest)
        elif head == "hand":
            self.start_hand(column, rest)
        elif head.startswith("P") and head[1:].isdigit():
            self.action(int(head[1:]), column, rest)
        elif head == "check":
            self.check(column, rest)
        elif head in ("score", "totals"):
            hand = self.need_hand(column)
            target = hand.claimed_scores if head == "score" else hand.claimed_totals
            target.extend(self.number_at(c, w) for c, w in rest)
        elif head == "winner" and len(rest) == 1 and self.game is not None:
            self.game.claimed_winner = self.number_at(*rest[0])
        else:
            raise self.fail(
                column, f"unknown line '{head[:20]}': expected game, hand, P<seat>, check, score, totals, winner"
            )

    def number_at(self, column: int, word: str) -> int:
        try:
            return int(word)
        except ValueError:
            raise self.fail(column, f"'{word[:20]}' is not a whole number") from None

    def start_game(self, column: int, rest: list[tuple[int, str]]) -> None:
        if len(rest) != 3 or rest[1][1] != "dealer":
            raise self.fail(column, "write 'game RULE-SET dealer SEAT'")
        self.game = record_pb2.GameRecord(rule_set_id=rest[0][1], first_dealer=self.number_at(*rest[2]))
        self.games.append((self.number, self.game))
        self.hand = None

    def start_hand(self, column: int, rest: list[tuple[int, str]]) -> None:
        if self.game is None:
            raise self.fail(column, "a 'hand' line before any 'game' line")
        hand = self.game.hands.add()
        k = 0
        while k < len(rest):
            c, key = rest[k]
            if key == "dealer" and k + 1 < len(rest):
                hand.dealer = self.number_at(*rest[k + 1])
                k += 2
            elif key == "totals":
                k += 1
                while k < len(rest) and rest[k][1] not in ("seed", "deck", "dealer"):
                    hand.starting_totals.append(self.number_at(*rest[k]))
                    k += 1
            elif key == "seed" and k + 1 < len(rest):
                hand.seed = self.number_at(*rest[k + 1])
                k += 2
            elif key == "deck":
                hand.deck_order.SetInParent()
                hand.deck_order.cards.extend(_CARD_NUMBERS[self.card(c2, w)] for c2, w in rest[k + 1 :])
                k = len(rest)
            else:
                raise self.fail(c, f"'{key[:20]}': expected dealer N, totals A B, seed N or deck CARDS")
        if hand.WhichOneof("deck") is None:
            raise self.fail(column, "a hand needs 'seed N' or 'deck CARDS'")
        self.hand = hand

    def action(self, seat: int, column: int, rest: list[tuple[int, str]]) -> None:
        hand = self.need_hand(column)
        if not rest or rest[0][1] not in VERBS:
            raise self.fail(rest[0][0] if rest else column, f"expected an action after P{seat}: {', '.join(VERBS)}")
        verb_column, verb = rest[0]
        args = rest[1:]
        if verb not in ("yes", "no"):
            self.checkpoint(hand).seat_to_move = seat
        if verb in ("draw", "ask", "finish", "yes", "no"):
            if args:
                raise self.fail(args[0][0], f"'{verb}' takes nothing after it")
            move = {"yes": "answer yes", "no": "answer no"}.get(verb, verb)
        elif verb == "discard":
            if len(args) != 1:
                raise self.fail(verb_column, "'discard' takes one card")
            move = f"discard {self.card(*args[0])}"
        elif verb == "meld":
            if not args:
                raise self.fail(verb_column, "'meld' needs cards")
            move = f"meld {self.groups(args)}"
        else:
            plus = next((k for k, (_, w) in enumerate(args) if w == "+"), len(args))
            move = "take-pile" + (f" with {self.cards(args[:plus])}" if plus else "")
            if plus < len(args):
                move += f" meld {self.groups(args[plus + 1 :])}"
        hand.moves.append(move)

    def check(self, column: int, rest: list[tuple[int, str]]) -> None:
        hand = self.need_hand(column)
        if not rest:
            raise self.fail(column, "'check' needs what it claims: P<seat> CARDS, pile CARDS or stock N")
        point = self.checkpoint(hand)
        what_column, what = rest[0]
        if what.startswith("P") and what[1:].isdigit():
            point.hands.add(index=int(what[1:]), cards=self.cards(rest[1:]))
        elif what == "pile":
            point.discard_pile = self.cards(rest[1:])
        elif what == "stock" and len(rest) == 2:
            point.stock_count = self.number_at(*rest[1])
        else:
            raise self.fail(what_column, f"'{what[:20]}': expected P<seat> CARDS, pile CARDS or stock N")

    def finish(self) -> list[tuple[int, record_pb2.GameRecord]]:
        if not self.games:
            raise conversion_error(self.file, None, None, "no 'game' line: not a canlog file?")
        return self.games


def _numbers() -> dict[str, int]:
    from oracle.model.cards import ALL_CARDS, format_card

    return {format_card(c): c for c in ALL_CARDS}


_CARD_NUMBERS = _numbers()
