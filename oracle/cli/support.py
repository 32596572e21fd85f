"""What every CLI command shares: one-line errors with exit status 2, loading rule books and message files."""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import click
from google.protobuf import json_format, text_format
from google.protobuf.message import Message

from oracle.model.errors import InvalidInputError
from oracle.rules.state_check import InvalidStateError
from oracle.ruleset.loader import RuleBook, SpecError, UnknownRuleSetError, default_rule_book

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
        except SpecError as exc:
            raise CliError("cannot load rule sets:\n" + "\n".join(f"  {p}" for p in exc.problems)) from None
        except InvalidInputError as exc:
            raise CliError("invalid input:\n" + "\n".join(f"  {p}" for p in exc.problems)) from None
        except UnknownRuleSetError as exc:
            raise CliError(str(exc)) from None
        except InvalidStateError as exc:
            raise CliError("the state is inconsistent:\n" + "\n".join(f"  {p}" for p in exc.problems)) from None
        except OSError as exc:
            raise CliError(f"{exc.strerror}: {exc.filename}" if exc.filename else str(exc)) from None
        except (click.ClickException, SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:  # a bug: still one line, never a traceback
            raise CliError(f"internal error (a bug in the oracle, please report it): {exc!r}") from None

    return wrapper  # type: ignore[return-value]


def load_book(specs: Path | None, *, lint: bool = False) -> RuleBook:
    """The shipped rule book, or the one in --specs DIR.

    A user's --specs directory always passes the solver lint (a contradictory
    rule set is refused, naming file, line and field); the shipped rule sets
    are proved by the test suite and `canasta-oracle verify`, so a CLI verb
    does not pay for linting them again unless `lint` asks (the server does).
    Lint results are cached by content hash (oracle.verify.gate).
    """
    if specs is None and not lint:
        return default_rule_book()
    from oracle.verify.gate import contradictions

    directory = specs if specs is not None else resources.files("oracle.specs")
    return RuleBook.from_directory(directory, checker=contradictions)


def read_message(path: Path, message: Message) -> Message:
    """Parse a .json (proto3 JSON) or .textproto/.txtpb file strictly into `message`."""
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".json":
            json_format.Parse(text, message)
        else:
            text_format.Parse(text, message)
    except (json_format.ParseError, text_format.ParseError) as exc:
        raise CliError(f"{path}: {exc}") from None
    return message


def print_json(message: Message) -> None:
    """Print a message as proto3 JSON."""
    click.echo(json_format.MessageToJson(message, indent=2, always_print_fields_with_no_presence=True))


specs_option = click.option(
    "--specs",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Load rule sets from this directory instead of the shipped ones.",
)


EXIT_FAILED = 1  #: illegal, inconsistent, differing or failing (distinct from an error, 2)
