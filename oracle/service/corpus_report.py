"""A corpus replay's reports: the summary (games, hands, actions, disagreements by code), its table, the JSON
report and JUnit XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from oracle.service.corpus import FileResult, GameResult


@dataclass
class Summary:
    """What a corpus run found, in numbers."""

    files: int = 0
    unreadable_files: int = 0
    games: int = 0
    failed_games: int = 0  #: games with a disagreement, a problem or an error
    hands: int = 0
    actions: int = 0
    uncertain_actions: int = 0
    disagreements: int = 0
    by_code: dict[str, int] = field(default_factory=dict)  #: violation codes, and the other kinds of disagreement

    @property
    def ok(self) -> bool:
        """Every file read and every game replayed without a disagreement."""
        return not self.unreadable_files and not self.failed_games


def codes_of(disagreement: dict[str, Any]) -> list[str]:
    """The keys a disagreement counts under: its violation codes, or its kind ("checkpoint", "hand score", ...)."""
    codes = [v["code"] for v in disagreement["violations"]]
    return codes or [str(disagreement["kind"])]


def summarise(results: Sequence[FileResult]) -> Summary:
    """The numbers of a run (independent of the order the files finished in)."""
    summary = Summary(files=len(results))
    counts: Counter[str] = Counter()
    for result in results:
        if result.error:
            summary.unreadable_files += 1
            counts["unreadable file"] += 1
        for game in result.games:
            summary.games += 1
            summary.failed_games += not game.ok
            summary.hands += game.hands
            summary.actions += game.actions
            summary.uncertain_actions += game.uncertain
            summary.disagreements += len(game.disagreements)
            for d in game.disagreements:
                counts.update(codes_of(d))
            if game.error:
                counts["malformed game"] += 1
            counts.update("record problem" for _ in game.problems)
    summary.by_code = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return summary


def _describe(d: dict[str, Any]) -> str:
    where = f"hand {d['hand']}" + (f", action {d['index']}" if d["index"] >= 0 else "")
    mark = " [uncertain]" if d["uncertain"] else ""
    codes = ", ".join(v["code"] for v in d["violations"])
    if d["kind"] == "illegal action":
        return f"{where} (seat {d['seat']}): {d['field']}: {codes}{mark}"
    return f"{where}: {d['kind']} {d['field']}: claimed {d['claimed']}, computed {d['computed']}{mark}"


def table(summary: Summary, results: Sequence[FileResult], *, detail: int = 20) -> list[str]:
    """The summary as text: the totals, disagreements by code, then the first `detail` failing games."""
    lines = [
        f"files {summary.files} (unreadable {summary.unreadable_files})   games {summary.games}"
        f" (with disagreements or errors {summary.failed_games})   hands {summary.hands}"
        f"   actions {summary.actions} (uncertain {summary.uncertain_actions})"
        f"   disagreements {summary.disagreements}"
    ]
    if summary.by_code:
        width = max(len(code) for code in summary.by_code)
        lines.append(f"{'code':<{width}}  count")
        lines.extend(f"{code:<{width}}  {n:>5}" for code, n in summary.by_code.items())
    shown = 0
    for result in results:
        if result.error and shown < detail:
            lines.append(f"UNREADABLE {result.error}")
            shown += 1
        for game in result.games:
            if game.ok or shown >= detail:
                continue
            shown += 1
            lines.append(
                f"{game.label}: {len(game.disagreements)} disagreement(s)" + (f"; {game.error}" if game.error else "")
            )
            lines.extend(f"  {_describe(d)}" for d in game.disagreements[:10])
            if len(game.disagreements) > 10:
                lines.append(f"  ... and {len(game.disagreements) - 10} more")
            lines.extend(f"  PROBLEM: {p}" for p in game.problems)
    return lines


def json_report(summary: Summary, results: Sequence[FileResult]) -> str:
    """The JSON report: the summary and every file with its games and their disagreements."""
    data = {"summary": asdict(summary), "files": [asdict(r) for r in results]}
    return json.dumps(data, indent=2) + "\n"


def _game_case(suite: ET.Element, game: GameResult) -> None:
    case = ET.SubElement(suite, "testcase", name=game.label, classname=game.rule_set_id or "record")
    if game.error:
        ET.SubElement(case, "error", message=game.error[:200]).text = game.error
    elif not game.ok:
        text = "\n".join([_describe(d) for d in game.disagreements] + [f"PROBLEM: {p}" for p in game.problems])
        message = f"{len(game.disagreements)} disagreement(s), {len(game.problems)} problem(s)"
        ET.SubElement(case, "failure", message=message).text = text


def junit_report(summary: Summary, results: Sequence[FileResult]) -> str:
    """JUnit XML: a test suite per file, a test case per game (failure: its disagreements; error: unreadable)."""
    root = ET.Element(
        "testsuites",
        name="canasta-oracle replay",
        tests=str(summary.games + summary.unreadable_files),
        failures=str(sum(1 for r in results for g in r.games if not g.ok and not g.error)),
        errors=str(summary.unreadable_files + sum(1 for r in results for g in r.games if g.error)),
    )
    for result in results:
        suite = ET.SubElement(root, "testsuite", name=result.file, tests=str(len(result.games) or 1))
        if result.error:
            case = ET.SubElement(suite, "testcase", name=result.file, classname="file")
            ET.SubElement(case, "error", message="unreadable file").text = result.error
        for game in result.games:
            _game_case(suite, game)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
