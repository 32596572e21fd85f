"""canasta-oracle, a rules referee for Canasta: the package root is its public Python API, loaded on first use.

    import oracle

    rules = oracle.load_rule_set("classic-2p")
    state = oracle.load_state("examples/frozen-pile-2p.json", rules)
    verdict = oracle.check_action(rules, state, oracle.parse_action("take-pile with 9H 9D"))

Every name in `__all__` is re-exported from the layer that owns it (see ARCHITECTURE.md) and imported only when
first used (PEP 562), so `import oracle` loads no layer, no protobuf, no gRPC and no solver.
"""

from __future__ import annotations

import importlib
import os

from oracle._version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (milliseconds at every CLI start)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from google.protobuf.message import Message

    from oracle.games.movegen import legal_actions
    from oracle.games.replay import GameRecord, HandRecord, ReplayReport, replay
    from oracle.model.actions import (
        Action,
        AnswerPartner,
        AskPartner,
        Discard,
        Draw,
        Finish,
        Meld,
        MeldGroup,
        TakePile,
        format_action,
        parse_action,
    )
    from oracle.model.cards import NotationError, format_card, format_cards, parse_card, parse_cards
    from oracle.model.errors import FieldProblem, InvalidInputError
    from oracle.model.events import CanastaMade, CardsDrawn, Event, HandEnded, PileTaken, RedThreeLaid
    from oracle.model.score import ScoreItem, ScoreLine, SideScore
    from oracle.model.state import GameState, HandEnd, PartnerAnswer, Phase, SeatState, SideState, TurnStart, TurnState
    from oracle.model.table import HandTable, SideTable, WentOut
    from oracle.rules.referee import Verdict, check_action
    from oracle.rules.scoring import score_hand
    from oracle.rules.state_check import InvalidStateError, validate_state
    from oracle.rules.violations import Violation
    from oracle.ruleset.compiled import CompiledRules
    from oracle.ruleset.loader import LoadedRuleSet, RuleBook, SpecError, UnknownRuleSetError

    M = TypeVar("M", bound=Message)

#: Each lazily exported name and the module that defines it.
_HOMES: dict[str, str] = {
    # Rule sets.
    "CompiledRules": "oracle.ruleset.compiled",
    "LoadedRuleSet": "oracle.ruleset.loader",
    "RuleBook": "oracle.ruleset.loader",
    "SpecError": "oracle.ruleset.loader",
    "UnknownRuleSetError": "oracle.ruleset.loader",
    # Judging, checking, scoring.
    "check_action": "oracle.rules.referee",
    "Verdict": "oracle.rules.referee",
    "Violation": "oracle.rules.violations",
    "validate_state": "oracle.rules.state_check",
    "InvalidStateError": "oracle.rules.state_check",
    "score_hand": "oracle.rules.scoring",
    # Whole games.
    "legal_actions": "oracle.games.movegen",
    "replay": "oracle.games.replay",
    "GameRecord": "oracle.games.replay",
    "HandRecord": "oracle.games.replay",
    "ReplayReport": "oracle.games.replay",
    # Cards and actions in notation.
    "parse_card": "oracle.model.cards",
    "parse_cards": "oracle.model.cards",
    "format_card": "oracle.model.cards",
    "format_cards": "oracle.model.cards",
    "NotationError": "oracle.model.cards",
    "parse_action": "oracle.model.actions",
    "format_action": "oracle.model.actions",
    "Action": "oracle.model.actions",
    "Draw": "oracle.model.actions",
    "TakePile": "oracle.model.actions",
    "Meld": "oracle.model.actions",
    "MeldGroup": "oracle.model.actions",
    "Discard": "oracle.model.actions",
    "AskPartner": "oracle.model.actions",
    "AnswerPartner": "oracle.model.actions",
    "Finish": "oracle.model.actions",
    # States, tables, scores and events.
    "GameState": "oracle.model.state",
    "SeatState": "oracle.model.state",
    "SideState": "oracle.model.state",
    "TurnState": "oracle.model.state",
    "Phase": "oracle.model.state",
    "TurnStart": "oracle.model.state",
    "PartnerAnswer": "oracle.model.state",
    "HandEnd": "oracle.model.state",
    "HandTable": "oracle.model.table",
    "SideTable": "oracle.model.table",
    "WentOut": "oracle.model.table",
    "SideScore": "oracle.model.score",
    "ScoreLine": "oracle.model.score",
    "ScoreItem": "oracle.model.score",
    "Event": "oracle.model.events",
    "CardsDrawn": "oracle.model.events",
    "RedThreeLaid": "oracle.model.events",
    "PileTaken": "oracle.model.events",
    "CanastaMade": "oracle.model.events",
    "HandEnded": "oracle.model.events",
    # Malformed input.
    "FieldProblem": "oracle.model.errors",
    "InvalidInputError": "oracle.model.errors",
}

__all__ = [
    "Action",
    "AnswerPartner",
    "AskPartner",
    "CanastaMade",
    "CardsDrawn",
    "CompiledRules",
    "Discard",
    "Draw",
    "Event",
    "FieldProblem",
    "Finish",
    "GameRecord",
    "GameState",
    "HandEnd",
    "HandEnded",
    "HandRecord",
    "HandTable",
    "InvalidInputError",
    "InvalidStateError",
    "LoadedRuleSet",
    "Meld",
    "MeldGroup",
    "NotationError",
    "PartnerAnswer",
    "Phase",
    "PileTaken",
    "RedThreeLaid",
    "ReplayReport",
    "RuleBook",
    "ScoreItem",
    "ScoreLine",
    "SeatState",
    "SideScore",
    "SideState",
    "SideTable",
    "SpecError",
    "TakePile",
    "TurnStart",
    "TurnState",
    "UnknownRuleSetError",
    "Verdict",
    "Violation",
    "WentOut",
    "__version__",
    "check_action",
    "format_action",
    "format_card",
    "format_cards",
    "legal_actions",
    "load_record",
    "load_rule_set",
    "load_state",
    "load_table",
    "parse_action",
    "parse_card",
    "parse_cards",
    "replay",
    "rule_book",
    "score_hand",
    "validate_state",
]


def __getattr__(name: str) -> Any:
    """Import a public name from its layer on first use, and keep it (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'oracle' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def rule_book() -> RuleBook:
    """Every shipped rule set (specs/), loaded once; `.get(id)` gives one, `.ids()` lists them."""
    from oracle.ruleset.loader import default_rule_book

    return default_rule_book()


def load_rule_set(rule_set_id: str) -> CompiledRules:
    """The shipped rule set with this id, compiled; UnknownRuleSetError (naming the known ids) if there is none."""
    return rule_book().get(rule_set_id).rules


def load_state(path: str | os.PathLike[str], rules: CompiledRules) -> GameState:
    """The game state in a GameStateNotation file (.json: proto3 JSON; otherwise text format), under `rules`.

    `rules` decides (the file's rule_set_id is not consulted, so one position can be judged under several rule
    sets); with fillStock they supply the deck. A file that does not parse, or names a card wrongly, raises
    InvalidInputError naming the file or the field. Consistency is not checked here: validate_state does that,
    and check_action does it before judging.
    """
    from oracle.api.v1 import notation_pb2
    from oracle.service.convert_game import state_from_notation

    message = _read(path, notation_pb2.GameStateNotation())
    return state_from_notation(message, rules)


def load_table(path: str | os.PathLike[str]) -> HandTable:
    """The finished hand in a HandTableNotation file (.json or text format), ready for score_hand."""
    from oracle.api.v1 import notation_pb2
    from oracle.service.convert_table import table_from_notation

    return table_from_notation(_read(path, notation_pb2.HandTableNotation()))


def load_record(path: str | os.PathLike[str], rules: CompiledRules | None = None) -> GameRecord:
    """The game record in a GameRecord file (proto3 JSON: .json or gzip-compressed .json.gz), ready for replay.

    An explicit deal (a hand's `start`) is read under `rules`, by default the shipped rule set the record names.
    InvalidInputError names the file, line and column of a file that does not parse, and the field path of a
    malformed record.
    """
    from pathlib import Path

    from oracle.model.errors import FieldProblem, InvalidInputError
    from oracle.service.convert_record import record_from_proto
    from oracle.service.record_files import read_games

    games = read_games(Path(path))
    if len(games) != 1:
        raise InvalidInputError([FieldProblem(os.fspath(path), f"holds {len(games)} games; expected one")])
    if rules is None and any(hand.WhichOneof("deck") == "start" for hand in games[0].message.hands):
        rules = load_rule_set(games[0].message.rule_set_id)
    return record_from_proto(games[0].message, rules=rules)


def _read(path: str | os.PathLike[str], message: M) -> M:
    """Parse a file strictly into `message`: proto3 JSON for .json and .json.gz, text format otherwise.

    InvalidInputError, naming the file, for a file that is not UTF-8, not gzip when it says so, or does not parse.
    """
    import gzip

    from google.protobuf import json_format, text_format

    from oracle.model.errors import FieldProblem, InvalidInputError

    name = os.fspath(path)
    with open(name, "rb") as handle:
        raw = handle.read()
    try:
        text = (gzip.decompress(raw) if name.endswith(".gz") else raw).decode("utf-8")
        if name.endswith((".json", ".json.gz")):
            json_format.Parse(text, message)
        else:
            text_format.Parse(text, message)
    except (gzip.BadGzipFile, UnicodeDecodeError, json_format.ParseError, text_format.ParseError) as exc:
        raise InvalidInputError([FieldProblem(name, str(exc))]) from None
    return message
