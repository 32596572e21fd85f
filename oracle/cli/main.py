"""The canasta-oracle command group: every verb by name, with the module that defines it (loaded when it runs)."""

from __future__ import annotations

import importlib
import sys
from typing import NamedTuple

import click


class Verb(NamedTuple):
    """Where a verb's click command is, and the first sentence of its help (what `--help` lists it with)."""

    target: str  #: "module:attribute"
    summary: str  #: equal to the command's own first sentence (tests/test_cli.py checks)


# A fast start: `canasta-oracle --help` imports click and this module only, and a verb imports only its own
# module, whose top imports nothing heavy either. What a verb needs (the protobuf runtime, the rule book, the
# rules engine, grpc, asyncio, z3) it imports inside its function, when it runs.
VERBS = {
    "serve": Verb("oracle.cli.serve:serve", "Start the gRPC server (health SERVING once the rule sets load)."),
    "health": Verb(
        "oracle.cli.health:health",
        "Ask a server's gRPC health service whether it is serving: exit 0 if SERVING, else 1 (a container"
        " HEALTHCHECK).",
    ),
    "rules": Verb("oracle.cli.rulebook:rules", "List and show rule sets."),
    "score": Verb(
        "oracle.cli.hand:score",
        "Score a finished hand (TABLE_FILE: a HandTableNotation, or a GameStateNotation as it stands, in .json or"
        " .textproto).",
    ),
    "minimum": Verb(
        "oracle.cli.hand:minimum",
        "Print the minimum initial meld for a side's RUNNING_TOTAL (negative totals: use -- -5).",
    ),
    "check": Verb("oracle.cli.hand:check", "Judge one action of the player to move."),
    "validate": Verb("oracle.cli.hand:validate", "Report every inconsistency of a game state."),
    "replay": Verb(
        "oracle.cli.games:replay_command",
        "Replay game records: one file, or files, directories and globs as a corpus.",
    ),
    "simulate": Verb(
        "oracle.cli.games:simulate_command", "Play random legal games (a simple bot) and write their records."
    ),
    "perft": Verb(
        "oracle.cli.games:perft_command",
        "Check the shipped perft counts (legal actions of each kind on fixed states), or regenerate them.",
    ),
    "adjudicate": Verb(
        "oracle.cli.disputes:adjudicate_command",
        "Judge one action under several rule sets, side by side, with the fields that decide it.",
    ),
    "explain": Verb(
        "oracle.cli.disputes:explain_command",
        "Explain a violation code or a rule-set field (the rule, its citations, and the variants that change it), or a"
        " rule set (every point where the texts disagree or are silent, which way it goes, and both sides' citations).",
    ),
    "bench": Verb(
        "oracle.cli.benchmark:bench",
        "Measure the oracle: in process in thread CPU time (median, p10/p90 over states sampled from the shipped"
        " records, each timed once in a fresh process), and as servers (the oracle, an echo baseline giving"
        " same-sized answers and the client in three processes, taking turns; median of per-round ratios, server"
        " CPU from /proc).",
    ),
    "verify": Verb(
        "oracle.cli.tools:verify",
        "Prove the rule-set properties with Z3, lint every rule set, and check the engine against the model.",
    ),
    "conformance": Verb("oracle.cli.tools:conformance_command", "Run the conformance suite."),
    "proto": Verb(
        "oracle.cli.protofiles:proto_command",
        "Write the API's .proto files (for generating a client in any language) into a directory, or list them.",
    ),
}


class LazyGroup(click.Group):
    """A click group whose verbs in VERBS are imported when one is looked up, and listed without importing any."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every verb, sorted (as a plain group lists them)."""
        return sorted({*super().list_commands(ctx), *VERBS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The verb's command, importing its module on first use; None for an unknown verb."""
        if cmd_name not in VERBS:
            return super().get_command(ctx, cmd_name)
        target = VERBS[cmd_name].target
        module_name, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is {type(command).__name__}, not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The `Commands:` section, as click writes it, from stand-ins carrying each verb's summary."""
        stand_ins = {name: click.Command(name, help=verb.summary) for name, verb in VERBS.items()}
        click.Group(commands={**stand_ins, **self.commands}).format_commands(ctx, formatter)


def _print_version(ctx: click.Context, _: click.Parameter, value: bool) -> None:
    """--version: the version and which build of the core is installed (oracle.build), then exit."""
    if not value or ctx.resilient_parsing:
        return
    from oracle._version import __version__
    from oracle.build import core_build

    click.echo(f"canasta-oracle, version {__version__} (core: {core_build()})")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and the core's build (compiled or pure Python), and exit.",
)
def main() -> None:
    """canasta-oracle: a rules referee for Canasta."""


if __name__ == "__main__":
    sys.exit(main())
