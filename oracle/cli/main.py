"""The canasta-oracle command group: every verb by name, with the module that defines it (loaded when it runs)."""

from __future__ import annotations

import importlib
import sys

import click

# A fast start: `canasta-oracle --help` imports only click and the CLI modules, and a verb imports only its own
# module, whose top imports nothing heavy either. What a verb needs (the protobuf runtime, the rule book, the
# rules engine, grpc, asyncio, z3) it imports inside its function, when it runs.
VERBS = {
    "serve": "oracle.cli.serve:serve",
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


if __name__ == "__main__":
    sys.exit(main())
