"""Reads game records from files (proto3 JSON, JSON Lines, gzip, converters' formats): every error names the file,
the line and the column, and never repeats the file's contents."""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from google.protobuf import json_format

from oracle.api.v1 import record_pb2
from oracle.games.record import GameRecord
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.ruleset.compiled import CompiledRules
from oracle.service.convert_record import record_from_proto
from oracle.service.json_locate import locate, locate_fields
from oracle.service.record_json import record_from_json

JSON_SUFFIXES = (".json", ".json.gz")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson")
MAX_MESSAGE = 240  #: characters of a parser's message kept in an error (a value it quotes may be huge)


class RecordFileError(InvalidInputError):
    """A record file that cannot be read: each problem's field is its place, `file:line:column`."""


def file_error(file: str, line: int | None, column: int | None, message: str) -> RecordFileError:
    """One problem at a place in a file (line and column 1-based; None when not known)."""
    where = file + (f":{line}" if line else "") + (f":{column}" if line and column else "")
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "..."
    return RecordFileError([FieldProblem(where, message)])


@runtime_checkable
class RecordConverter(Protocol):
    """Reads one log format (the extension point; see oracle.service.converters).

    `suffixes` are the file-name endings it reads (".canlog"); `convert` gets
    the file's text (UTF-8, decompressed) and its name, and yields, for each
    game, the line the game starts on and its GameRecord. For input it cannot
    read it raises `conversion_error(file, line, column, message)` (1-based), never
    anything that repeats the file's contents.
    """

    name: str
    suffixes: tuple[str, ...]

    def convert(self, text: str, file: str) -> Iterable[tuple[int, record_pb2.GameRecord]]:
        """Each game of the text: (its first line, its record)."""
        ...


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """One game read from a file: where it is, its message, and its JSON text when it came from JSON."""

    file: str
    line: int  #: the line the game starts on (1 for a JSON file)
    message: record_pb2.GameRecord
    text: str = ""  #: the game's JSON text (to place conversion errors), empty for a converter's game

    @property
    def label(self) -> str:
        """file:line, naming the game in reports."""
        return f"{self.file}:{self.line}"


def _text(path: Path) -> str:
    name = str(path)
    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            reason = "it ends early (truncated)" if isinstance(exc, EOFError) else "it is not gzip data"
            raise file_error(name, None, None, f"cannot decompress: {reason}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise file_error(name, line, column, "is not UTF-8 text (a binary file?)") from None


_AT = re.compile(r' at "[A-Za-z]+((?:[.\[][^"]*)?)"')
_FIELD = re.compile(r'has no field named "([^"]+)"')
_FAILED = re.compile(r"Failed to parse (\w+) field")


def _parse(file: str, text: str, first_line: int) -> record_pb2.GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        what = exc.msg + (" this point" if exc.msg.endswith(" at") else "")
        raise file_error(file, first_line + exc.lineno - 1, exc.colno, f"not valid JSON: {what}") from None
    except RecursionError:
        raise file_error(file, first_line, 1, "not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise file_error(file, first_line, 1, f"a game record is a JSON object, not {type(data).__name__}")
    try:
        return record_from_json(data)  # json_format.ParseDict's message, read directly when the shape is usual
    except json_format.ParseError as exc:
        message = str(exc)
        at = _AT.search(message)
        path = "record" + (at.group(1) if at else "")
        named = _FIELD.search(message)
        if named:
            path += f".{named.group(1)}"
        place = locate(text, path)
        chain = _FAILED.findall(message)
        found = locate_fields(text, chain) if chain and not at else None
        if found is not None:
            place, path = found
        line, column = (first_line + place[0] - 1, place[1]) if place else (first_line, None)
        raise file_error(file, line, column, f"{path}: {message}") from None


def read_games(path: Path, converters: Sequence[RecordConverter] = ()) -> list[LoadedGame]:
    """Every game of a record file: .json (one), .jsonl (one a line), either gzip-compressed, or a converter's."""
    file = str(path)
    for converter in converters:
        if path.name.endswith(tuple(converter.suffixes)):
            text = _text(path)
            try:
                return [LoadedGame(file, line, message) for line, message in converter.convert(text, file)]
            except RecordFileError:
                raise
            except Exception as exc:  # a converter's bug: this file is unreadable, the run goes on
                what = f"the {converter.name} converter failed: {type(exc).__name__}: {exc}"
                raise file_error(file, None, None, what) from None
    text = _text(path)
    if path.name.endswith(JSONL_SUFFIXES):
        games = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                games.append(LoadedGame(file, number, _parse(file, line, number), line))
        return games
    return [LoadedGame(file, 1, _parse(file, text, 1), text)]


def to_domain(game: LoadedGame, rules: CompiledRules | None = None) -> GameRecord:
    """The domain record of a game read from a file; a malformed part is a RecordFileError at its line."""
    try:
        return record_from_proto(game.message, rules=rules)
    except InvalidInputError as exc:
        problems = []
        for problem in exc.problems:
            place = locate(game.text, problem.field) if game.text else None
            line, column = (game.line + place[0] - 1, place[1]) if place else (game.line, None)
            problems.extend(file_error(game.file, line, column, str(problem)).problems)
        raise RecordFileError(problems) from None


def write_jsonl(path: Path, records: Sequence[record_pb2.GameRecord]) -> None:
    """Write records as JSON Lines, one game a line (gzip-compressed when the name ends in .gz)."""
    text = "".join(json_format.MessageToJson(r, indent=None, sort_keys=True) + "\n" for r in records)
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0) if path.name.endswith(".gz") else data)
