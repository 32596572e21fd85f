"""The one table of limits the service enforces on requests and answers, each with its default and its reason."""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import MappingProxyType

from oracle.ruleset.validate import SIZE_MAXIMUMS


@dataclass(frozen=True)
class Limits:
    """Every limit on what a caller may send and on what an answer may hold.

    A request beyond a limit gets INVALID_ARGUMENT before any work is done, with a BadRequest field violation
    that names the field path, the value and the limit. Card lists have no number of their own: none may be
    longer than the deck of the rule set in use, and a whole state or table may hold at most twice the deck
    (room to report every duplicate card of an inconsistent state). Pass your own `Limits` to OracleApi (or
    to the servicer) where a user could need more.
    """

    max_seats: int = SIZE_MAXIMUMS["players.seats"]
    """players.seats and players.side_size of a rule set, and the seats or sides a state, table or deal lists (and
    the entries of its side_of_seat, one per seat): real Canasta has 2 to 6 players, and every state check walks
    every seat."""

    max_packs: int = SIZE_MAXIMUMS["deck.packs"]
    """deck.packs: the deck is built as a list of 52 cards per pack (and kept per cached rule set), so a pack count
    costs memory in proportion; real games use 2 to 4 packs."""

    max_jokers: int = SIZE_MAXIMUMS["deck.jokers"]
    """deck.jokers: the jokers are part of the deck list; four per pack is already more than any variant uses."""

    max_threshold_rows: int = SIZE_MAXIMUMS["initial_meld.thresholds"]
    """Rows of initial_meld.thresholds: the table is read on every initial meld and checked by the solver lint;
    real tables have 3 to 5 rows."""

    max_rule_notes: int = 256
    """Rule notes (`rules`) in an inline rule set: one per rule-set field or section is enough (about 80)."""

    max_citations: int = 16
    """Citations (`cite`) on one rule note of an inline rule set."""

    max_choices: int = 64
    """Choices (`choices`) of an inline rule set: a shipped rule set has at most about 20, and merging a variant's
    choices over its base's compares each with every one before it (a cost that grows with their number squared:
    8,000 of them took 11 seconds)."""

    max_choice_entries: int = 16
    """Readings (`others`) and field paths (`fields`) of one choice of an inline rule set; a reading's citations are
    bounded by max_citations."""

    max_id_chars: int = 128
    """Characters in an id or a field name: rule-set ids (rule_set.id, extends, record.rule_set_id), a note's
    field, a citation's source, a choice's id and fields, a reading's rule_set. Ids are short names; a longer one
    is a mistake or an attack on the error text."""

    max_text_chars: int = 4096
    """Characters in a free text of an inline rule set: title, description, a note's text and choice, a citation's
    section, a choice's point and why, a reading's text."""

    max_rule_sets: int = 64
    """Rule sets one Adjudicate request may name: each is judged in turn (the shipped book holds 35)."""

    max_record_hands: int = 200
    """Hands in a ReplayGame record: a game to 5,000 points takes about 5 to 30 hands, and a replay's time grows
    with its length."""

    max_hand_actions: int = 5000
    """Actions in one hand of a record: a hand of a 108-card deck takes a few hundred."""

    max_record_actions: int = 20_000
    """Actions in a whole record (every hand together): bounds the time one replay may take."""

    max_stream_messages: int = 10_000
    """Messages one RefereeGame stream may send: a whole game is a few thousand; past it the stream ends with
    INVALID_ARGUMENT (start a new stream)."""

    stream_idle_seconds: int = 300
    """Seconds a RefereeGame stream may go without a client message: an open stream holds a game in memory; past
    it the stream ends with DEADLINE_EXCEEDED."""

    default_legal_actions: int = 10_000
    """Actions ListLegalActions lists when the request's max_actions is 0: more than any dealt hand has; a longer
    list is cut (truncated) rather than computed in full."""

    max_legal_actions: int = 100_000
    """The largest max_actions a ListLegalActions request may ask for: the list grows exponentially with the hand
    (a 52-card hand has about 300,000 actions and takes minutes); the answer is also cut to fit
    max_message_bytes."""

    max_message_bytes: int = 4 * 1024 * 1024
    """Bytes of one request message (gRPC's max_receive_message_length; the server sets it from here): a request
    larger than any valid one would still have to be read and decoded before it could be refused."""

    max_problems: int = 50
    """Problems listed in an error's details (identical problems grouped first); the message says how many more
    there were. Keeps every error readable."""

    max_status_bytes: int = 6 * 1024
    """Bytes of an error's trailers (message and details as gRPC sends them): a default client reads at most 8 KiB
    of trailers (16 KiB of metadata in all), and beyond it sees RESOURCE_EXHAUSTED instead of the error."""

    max_value_chars: int = 64
    """Characters of a caller's value (an id, a name) quoted in an error message; longer values are cut with
    '...'."""

    max_violations: int = 50
    """Violations one verdict lists (identical ones grouped first); a verdict is never longer than this."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"Limits.{field.name} is {value!r}; it must be a whole number of at least 1")

    @property
    def largest_deck(self) -> int:
        """The most cards any rule set within these limits can have."""
        return 52 * self.max_packs + self.max_jokers

    def rule_set_maximums(self) -> MappingProxyType[str, int]:
        """The size maxima for oracle.ruleset.validate, keyed by rule-set field path."""
        return MappingProxyType(
            {
                "players.seats": self.max_seats,
                "players.side_size": self.max_seats,
                "deck.packs": self.max_packs,
                "deck.jokers": self.max_jokers,
                "initial_meld.thresholds": self.max_threshold_rows,
            }
        )


DEFAULT_LIMITS = Limits()

__all__ = ["DEFAULT_LIMITS", "Limits"]
