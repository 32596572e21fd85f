"""CLI commands for whole games: replay a record, simulate games, and the perft counts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from oracle.cli.support import (
    EXIT_FAILED,
    CliError,
    clean_errors,
    load_rule_set,
    print_json,
    specs_option,
)

if TYPE_CHECKING:
    from oracle.api.v1 import record_pb2
    from oracle.games.replay import ReplayReport
    from oracle.service.record_files import RecordConverter

# Each verb imports what it needs when it runs (see oracle.cli.main).


def read_record(path: Path) -> record_pb2.GameRecord:
    """One GameRecord from proto3 JSON (optionally gzip-compressed: .json.gz), parsed strictly; CliError with the
    file, line and column for anything malformed."""
    from oracle.service.record_files import RecordFileError, read_games

    try:
        games = read_games(path)
    except RecordFileError as exc:
        raise CliError("\n".join(str(p) for p in exc.problems)) from None
    if len(games) != 1:
        raise CliError(f"{path}: holds {len(games)} games; expected one")
    return games[0].message


def write_record(path: Path, record: record_pb2.GameRecord) -> None:
    """Write a record as proto3 JSON (gzip-compressed when the name ends in .gz)."""
    import gzip

    from google.protobuf import json_format

    text = json_format.MessageToJson(record, indent=None, sort_keys=True) + "\n"
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0) if path.name.endswith(".gz") else data)


def describe_report(report: ReplayReport) -> list[str]:
    """The readable replay report: hands, every disagreement, problems, the game's end."""
    from oracle.cli.hand import describe_event
    from oracle.cli.words import score_summary
    from oracle.model.events import SidesFormed

    lines = []
    formed = {a.hand: (a.index, e) for a in report.actions for e in a.events if isinstance(e, SidesFormed)}
    for hand in report.hands:
        scores = ", ".join(f"side {i} {s.total}" for i, s in enumerate(hand.scores))
        totals = ", ".join(str(t) for t in hand.totals)
        lines.append(f"hand {hand.hand}: {hand.end.name.lower()}; scores {scores}; totals {totals}")
        lines.extend(f"  side {i}: {score_summary(side.lines)}" for i, side in enumerate(hand.scores))
        if hand.hand in formed:  # players.side_formation LONE_HAND: who played alone this hand
            index, event = formed[hand.hand]
            lines.append(f"  action {index}: {describe_event(event)}")
    for d in report.disagreements:
        mark = " [uncertain]" if d.uncertain else ""
        if d.kind == "illegal action":
            lines.append(f"ILLEGAL: hand {d.hand}, action {d.index} (seat {d.seat}): {d.field}{mark}")
            for v in d.violations:
                lines.append(f"  {v.code} ({v.field}): {v.explanation}")
                lines.extend(f"    cite: {source}, {section!r}" for source, section in v.cite)
        elif d.kind == "checkpoint":
            lines.append(
                f"CHECKPOINT: hand {d.hand}, after action {d.index}, {d.field}: claimed {d.claimed or '-'},"
                f" computed {d.computed or '-'}{mark}"
            )
        else:
            lines.append(
                f"MISMATCH: hand {d.hand}, {d.field}, {d.kind}: claimed {d.claimed}, computed {d.computed}{mark}"
            )
    for problem in report.problems:
        lines.append(f"PROBLEM: {problem}")
    standing = report.standing
    if standing is not None and standing.over:
        lines.append(
            f"game over: side {standing.winner} wins with {max(standing.totals)}"
            f" ({', '.join(str(t) for t in standing.totals)})"
        )
    elif standing is not None:
        lines.append(f"game not over: totals {', '.join(str(t) for t in standing.totals)}")
    uncertain = f" ({report.uncertain} from an uncertain state)" if report.uncertain else ""
    lines.append(f"{report.judged} actions judged{uncertain}; {'OK' if report.ok else 'FAILED'}")
    return lines


@click.command("replay")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--all",
    "judge_all",
    is_flag=True,
    help="Judge every action: after an illegal one, go on (from the record's next checkpoint, or from the action"
    " applied as far as its cards allow, marked uncertain) instead of stopping.",
)
@click.option("--json", "as_json", is_flag=True, help="One record: print the ReplayReport as proto3 JSON.")
@click.option("--actions/--no-actions", default=False, help="With --json, include every action's verdict.")
@click.option("--json-report", type=click.Path(dir_okay=False, path_type=Path), help="Write the JSON report here.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), help="Write a JUnit XML report here.")
@click.option("--cluster", metavar="ADDRESS", help="Run on the Dask cluster whose scheduler is at ADDRESS.")
@click.option(
    "--workers",
    type=click.IntRange(1),
    help="Processes of the local Dask cluster (default: one per processor).",
)
@click.option(
    "--in-process",
    is_flag=True,
    help=f"Replay in this process, without a cluster (the default below {32} files).",
)
@click.option(
    "--converter",
    "converters",
    multiple=True,
    metavar="MODULE:NAME",
    help="A record converter for another log format (MODULE:NAME or FILE.py:NAME); repeatable.",
)
@specs_option
@clean_errors
def replay_command(
    paths: tuple[str, ...],
    judge_all: bool,
    as_json: bool,
    actions: bool,
    json_report: Path | None,
    junit: Path | None,
    cluster: str | None,
    workers: int | None,
    in_process: bool,
    converters: tuple[str, ...],
    specs: Path | None,
) -> None:
    """Replay game records: one file, or files, directories and globs as a corpus. Exit 1 if anything is illegal
    or differs.

    Records are GameRecord proto3 JSON (.json), JSON Lines (.jsonl, one game a line), either gzip-compressed, or
    any format a converter reads. One file with one game prints its full report; otherwise the corpus runs in
    parallel and prints a summary table.
    """
    from oracle.service.corpus import expand

    single = len(paths) == 1 and Path(paths[0]).is_file() and not (json_report or junit or cluster or workers)
    if single and _replay_single(Path(paths[0]), judge_all, as_json, actions, converters, specs):
        return
    if as_json:
        raise CliError("--json prints the report of one record; for a corpus use --json-report FILE")
    from oracle.cli.corpus import run_corpus

    try:
        files = expand(paths, _suffixes(converters))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    ok = run_corpus(
        files,
        judge_all=judge_all,
        converters=converters,
        specs=specs,
        cluster=cluster,
        workers=workers,
        in_process=in_process,
        json_report=json_report,
        junit=junit,
    )
    if not ok:
        raise SystemExit(EXIT_FAILED)


def _converters(targets: tuple[str, ...]) -> tuple[RecordConverter, ...]:
    from oracle.service.corpus import converters_of

    try:
        return converters_of(targets)
    except (ValueError, ImportError, SyntaxError) as exc:
        raise CliError(f"cannot load a converter: {exc}") from None


def _suffixes(converters: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(suffix for c in _converters(converters) for suffix in c.suffixes)


def _replay_single(
    path: Path, judge_all: bool, as_json: bool, actions: bool, converters: tuple[str, ...], specs: Path | None
) -> bool:
    """Replay a file of one game with the full report; False (nothing done) if it holds several games."""
    from oracle.games.replay import replay
    from oracle.service.convert_record import report_to_proto
    from oracle.service.record_files import RecordFileError, read_games, to_domain

    try:
        games = read_games(path, _converters(converters))
        if len(games) != 1:
            return False
        loaded = load_rule_set(specs, games[0].message.rule_set_id)
        record = to_domain(games[0], loaded.rules)
    except RecordFileError as exc:
        raise CliError("\n".join(str(p) for p in exc.problems)) from None
    total = sum(len(h.actions) for h in record.hands)
    with click.progressbar(length=total, label=f"replaying {path.name}", file=sys.stderr, show_pos=True) as bar:
        report = replay(
            loaded.rules, record, judge_all=judge_all, keep_actions=actions or not as_json, progress=bar.update
        )
    if as_json:
        print_json(report_to_proto(report))
    else:
        click.echo(f"{path.name}: rule set {record.rule_set_id}, {len(record.hands)} hand(s), {total} actions")
        click.echo("\n".join(describe_report(report)))
    if not report.ok:
        raise SystemExit(EXIT_FAILED)
    return True


@click.command("simulate")
@click.option("--rules", "rule_set_id", required=True, help="Rule-set id, e.g. classic-2p.")
@click.option("--games", default=1, show_default=True, type=click.IntRange(1), help="Games to play.")
@click.option(
    "--seed",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help="Seed of the first game (game k uses seed + k).",
)
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory for the records (game-<seed>.json).",
)
@click.option(
    "--max-hands",
    default=40,
    show_default=True,
    type=click.IntRange(1),
    help="Stop a game that has not ended after this many hands.",
)
@click.option("--gzip", "compress", is_flag=True, help="Write .json.gz files.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"ruleSetId", "out", "games", "finished", "hands", "actions", "records": [{"file", "seed",'
    ' "finished", "hands", "actions"}]} instead of the summary line.',
)
@specs_option
@clean_errors
def simulate_command(
    rule_set_id: str,
    games: int,
    seed: int,
    out_dir: Path,
    max_hands: int,
    compress: bool,
    as_json: bool,
    specs: Path | None,
) -> None:
    """Play random legal games (a simple bot) and write their records."""
    from oracle.games.simulate import simulate_game
    from oracle.service.convert_record import record_to_proto

    loaded = load_rule_set(specs, rule_set_id)
    out_dir.mkdir(parents=True, exist_ok=True)
    hands = actions = finished = 0
    records: list[dict[str, object]] = []
    with click.progressbar(
        range(seed, seed + games), label=f"simulating {rule_set_id}", file=sys.stderr, show_pos=True
    ) as bar:
        for game_seed in bar:
            game = simulate_game(loaded.rules, game_seed, max_hands=max_hands)
            name = f"game-{game_seed}.json" + (".gz" if compress else "")
            write_record(out_dir / name, record_to_proto(game.record))
            hands += len(game.record.hands)
            actions += game.actions
            finished += game.standing.over
            records.append(
                {
                    "file": str(out_dir / name),
                    "seed": game_seed,
                    "finished": bool(game.standing.over),
                    "hands": len(game.record.hands),
                    "actions": game.actions,
                }
            )
    if as_json:
        import json

        summary = {"ruleSetId": rule_set_id, "out": str(out_dir), "games": games, "finished": finished}
        click.echo(json.dumps({**summary, "hands": hands, "actions": actions, "records": records}, indent=2))
        return
    click.echo(f"{games} game(s), {finished} finished, {hands} hands, {actions} actions written to {out_dir}")


@click.command("perft")
@click.option(
    "--regenerate",
    "regenerate_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write the perft files with freshly computed counts into this directory"
    " (conformance/perft in a source checkout).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"passed", "failed", "cases": [{"id", "ruleSetId", "ok", "expected", "computed"}]} (counts by'
    ' ActionCounts JSON name); with --regenerate, {"wrote": [paths]}.',
)
@clean_errors
def perft_command(regenerate_dir: Path | None, as_json: bool) -> None:
    """Check the shipped perft counts (legal actions of each kind on fixed states), or regenerate them."""
    import json

    from oracle.conformance import perft

    if regenerate_dir is not None:
        written = perft.regenerate(regenerate_dir)
        if as_json:
            click.echo(json.dumps({"wrote": [str(path) for path in written]}, indent=2))
            return
        for path in written:
            click.echo(f"wrote {path}")
        return
    cases = perft.load_perft_cases()
    bad = perft.mismatches(cases)
    if as_json:
        computed = {case_id: got for case_id, _, got in bad}
        entries = [
            {
                "id": case.id,
                "ruleSetId": case.rule_set_id,
                "ok": case.id not in computed,
                "expected": case.counts,
                "computed": computed.get(case.id, case.counts),
            }
            for case in cases
        ]
        click.echo(json.dumps({"passed": len(cases) - len(bad), "failed": len(bad), "cases": entries}, indent=2))
        if bad:
            raise SystemExit(EXIT_FAILED)
        return
    for case in cases:
        counts = " ".join(f"{k}={v}" for k, v in case.counts.items() if v)
        click.echo(f"{'FAIL' if any(b[0] == case.id for b in bad) else 'ok  '}  {case.id:<40} {counts}")
    for case_id, expected, got in bad:
        click.echo(f"{case_id}: expected {expected}, computed {got}")
    click.echo(f"{len(cases) - len(bad)} passed, {len(bad)} failed")
    if bad:
        raise SystemExit(EXIT_FAILED)
