"""What a replay reports: each judged action, each disagreement with the record, each hand, the claims that differ."""

from __future__ import annotations

from dataclasses import dataclass, field

from oracle.games.match import Standing
from oracle.model.events import Event
from oracle.model.score import SideScore
from oracle.model.state import HandEnd
from oracle.rules.violations import Violation

ILLEGAL = "illegal action"
CHECKPOINT = "checkpoint"
HAND_SCORE = "hand score"
RUNNING_TOTAL = "running total"
WINNER = "winner"


@dataclass(frozen=True, slots=True)
class ActionReport:
    """One judged action."""

    hand: int
    index: int
    seat: int
    notation: str
    legal: bool
    violations: tuple[Violation, ...]
    events: tuple[Event, ...]
    uncertain: bool = False  #: judged from a state forced past an illegal action, not confirmed since


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One point where the record and the oracle differ."""

    hand: int
    index: int  #: the action's index; a checkpoint's `after`; -1 for a claim about a hand or the game
    seat: int  #: the acting seat; the seat to move at a checkpoint; the side of a claim
    kind: str  #: ILLEGAL, CHECKPOINT, HAND_SCORE, RUNNING_TOTAL or WINNER
    field: str  #: the action's notation, or the state field that differs
    claimed: str
    computed: str
    violations: tuple[Violation, ...] = ()
    uncertain: bool = False


@dataclass(frozen=True, slots=True)
class HandReport:
    """One hand as replayed."""

    hand: int
    end: HandEnd
    scores: tuple[SideScore, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A claim that differs from our computation."""

    hand: int
    side: int
    what: str
    claimed: int
    computed: int


@dataclass
class ReplayReport:
    """Everything a replay found."""

    actions: list[ActionReport] = field(default_factory=list)
    first_illegal: ActionReport | None = None
    hands: list[HandReport] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    standing: Standing | None = None
    judged: int = 0  #: actions judged (kept in `actions` only when asked)
    disagreements: list[Disagreement] = field(default_factory=list)
    uncertain: int = 0  #: actions judged from an uncertain state

    @property
    def ok(self) -> bool:
        """No disagreement (illegal action, differing checkpoint or claim) and no problem with the record."""
        return not self.disagreements and not self.problems
