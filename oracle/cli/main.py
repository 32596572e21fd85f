"""The canasta-oracle command group: every verb by name, with the module that defines it (loaded when it runs)."""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path

import click

from oracle.cli.support import clean_errors, load_book, specs_option

# A fast start: `canasta-oracle --help` imports only click and the CLI modules, and a verb imports only its own
# module, whose top imports nothing heavy either. What a verb needs (the protobuf runtime, the rule book, the
# rules engine, grpc, asyncio, z3) it imports inside its function, when it runs.
VERBS = {
    "rules": "oracle.cli.rulebook:rules",
    "score": "oracle.cli.hand:score",
    "minimum": "oracle.cli.hand:minimum",
    "check": "oracle.cli.hand:check",
    "validate": "oracle.cli.hand:validate",
    "replay": "oracle.cli.games:replay_command",
    "simulate": "oracle.cli.games:simulate_command",
    "perft": "oracle.cli.games:perft_command",
    "adjudicate": "oracle.cli.disputes:adjudicate_command",
    "explain": "oracle.cli.disputes:explain_command",
    "bench": "oracle.cli.benchmark:bench",
    "verify": "oracle.cli.tools:verify",
    "conformance": "oracle.cli.tools:conformance_command",
}  #: verb -> "module:attribute" of its click command


class LazyGroup(click.Group):
    """A click group whose verbs in VERBS are imported when they are looked up, not when the group is built."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every verb, sorted (as a plain group lists them)."""
        return sorted({*super().list_commands(ctx), *VERBS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The verb's command, importing its module on first use; None for an unknown verb."""
        if cmd_name not in VERBS:
            return super().get_command(ctx, cmd_name)
        module_name, _, attribute = VERBS[cmd_name].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{VERBS[cmd_name]} is {type(command).__name__}, not a click command")
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="canasta-oracle")
def main() -> None:
    """canasta-oracle: a rules referee for Canasta."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=50051,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0 picks a free one).",
)
@specs_option
@clean_errors
def serve(host: str, port: int, specs: Path | None) -> None:
    """Start the gRPC server (health SERVING once the rule sets load; stops on SIGINT/SIGTERM)."""
    from oracle.service.server import serve as run  # grpc server parts load only for this command

    book = load_book(specs, lint=True)
    asyncio.run(run(book, host, port))


if __name__ == "__main__":
    sys.exit(main())
