"""What every CLI command shares: one-line errors with exit status 2, loading rule books and message files."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:  # the protobuf runtime and the rule book load when a verb runs, not when the CLI starts
    from google.protobuf.message import Message

    from oracle.rules.state_check import InvalidStateError
    from oracle.ruleset.loader import LoadedRuleSet, RuleBook

EXIT_ERROR = 2
F = TypeVar("F", bound=Callable[..., Any])


class CliError(click.ClickException):
    """An error shown as one line (or one line per problem) with exit status 2."""

    exit_code = EXIT_ERROR

    def show(self, file: Any = None) -> None:
        """Print without click's 'Error:' decoration."""
        click.echo(f"canasta-oracle: {self.format_message()}", err=True)


def clean_errors(command: F) -> F:
    """Turn the core's errors into CliError so no traceback reaches the user."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except click.ClickException:
            raise
        except Exception as exc:
            raise cli_error(exc) from None

    return wrapper  # type: ignore[return-value]


def cli_error(exc: Exception) -> CliError:
    """The one-line (or one line per problem) CliError for an exception a command raised."""
    # Imported here, when a command has failed: the CLI starts without the rule book. The rules engine is not
    # imported at all: its error can only have been raised once it is loaded.
    from oracle.model.errors import InvalidInputError
    from oracle.ruleset.loader import SpecError, UnknownRuleSetError

    state_check = sys.modules.get("oracle.rules.state_check")
    invalid_state: type[InvalidStateError] | None = getattr(state_check, "InvalidStateError", None)
    if isinstance(exc, SpecError):
        return CliError("cannot load rule sets:\n" + "\n".join(f"  {p}" for p in exc.problems))
    if isinstance(exc, InvalidInputError):
        return CliError("invalid input:\n" + "\n".join(f"  {p}" for p in exc.problems))
    if isinstance(exc, UnknownRuleSetError):
        return CliError(str(exc))
    if invalid_state is not None and isinstance(exc, invalid_state):
        return CliError("the state is inconsistent:\n" + "\n".join(f"  {p}" for p in exc.problems))
    if isinstance(exc, OSError):
        return CliError(f"{exc.strerror}: {exc.filename}" if exc.filename else str(exc))
    # still one line, and bounded: an exception may carry a whole input file
    return CliError(f"internal error (a bug in the oracle, please report it): {shorten(repr(exc))}")


def load_book(specs: Path | None, *, lint: bool = False) -> RuleBook:
    """The shipped rule book, or the one in --specs DIR.

    A user's --specs directory always passes the solver lint (a contradictory
    rule set is refused, naming file, line and field); the shipped rule sets
    are proved by the test suite and `canasta-oracle verify`, so a CLI verb
    does not pay for linting them again unless `lint` asks (the server does).
    Lint results are cached by content hash (oracle.verify.gate), and so is
    the compiled book (oracle.ruleset.cache): an unchanged directory loads
    without parsing a spec or starting the solver.
    """
    from oracle.ruleset.loader import default_rule_book

    if specs is None and not lint:
        return default_rule_book()
    from importlib import resources

    from oracle.ruleset.cache import cached_rule_book
    from oracle.verify.gate import contradictions

    directory = specs if specs is not None else resources.files("oracle.specs")
    return cached_rule_book(directory, checker=contradictions)


def load_rule_set(specs: Path | None, rule_set_id: str) -> LoadedRuleSet:
    """One rule set for a verb that needs only it.

    A shipped one is read with only the files of its `extends` chain (a fast
    start); one from --specs DIR is looked up in the whole, linted book, as
    load_book loads it.
    """
    if specs is None:
        from oracle.ruleset.loader import shipped_rule_set

        return shipped_rule_set(rule_set_id)
    return load_book(specs).get(rule_set_id)


EXCERPT_CHARS = 300  #: the longest part of an input (or of an error quoting it) an error message shows


def shorten(text: str, limit: int = EXCERPT_CHARS) -> str:
    """`text`, cut to `limit` characters with the number left out said."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit} more characters)"


def read_text(path: Path) -> str:
    """The text of an input file (gunzipped when its name ends in .gz); CliError naming the file, what is wrong and
    where, with a short excerpt at most, for a file that is binary, truncated or not UTF-8."""
    import gzip
    import zlib

    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        try:
            raw = gzip.decompress(raw)
        except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
            raise CliError(f"{path}: not a complete gzip file ({shorten(str(exc))})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        near = raw[max(0, exc.start - 12) : exc.start + 12]
        raise CliError(
            f"{path}: not UTF-8 text: byte 0x{raw[exc.start]:02x} at offset {exc.start} (a binary file?); near {near!r}"
        ) from None
    if "\x00" in text:
        raise CliError(f"{path}: not a text file: a NUL byte at offset {text.index(chr(0))}")
    return text


def parse_message(path: Path, text: str, message: Message) -> Message:
    """Parse `text` (of `path`) strictly into `message`: proto3 JSON for .json and .json.gz, text format otherwise."""
    from google.protobuf import json_format, text_format

    try:
        if path.name.endswith((".json", ".json.gz")):
            json_format.Parse(text, message)
        else:
            text_format.Parse(text, message)
    except (json_format.ParseError, text_format.ParseError) as exc:
        raise CliError(f"{path}: {shorten(str(exc))}") from None
    return message


def read_message(path: Path, message: Message) -> Message:
    """Parse a .json (proto3 JSON) or .textproto/.txtpb file strictly into `message`."""
    return parse_message(path, read_text(path), message)


def print_json(message: Message) -> None:
    """Print a message as proto3 JSON."""
    from google.protobuf import json_format

    click.echo(json_format.MessageToJson(message, indent=2, always_print_fields_with_no_presence=True))


specs_option = click.option(
    "--specs",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Load rule sets from this directory instead of the shipped ones.",
)


EXIT_FAILED = 1  #: illegal, inconsistent, differing or failing (distinct from an error, 2)
