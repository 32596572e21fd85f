"""The 100 foreign games run: a faulty engine plays 100 games and writes them as canlog logs with rule breaks
planted, then the oracle replays them through the example converter, stopping at the first disagreement of each game
and judging every action (--all); prints what each pass found against what was planted.

    python examples/foreign_games.py [--games 100] [--seed 1000] [--dir DIR]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from oracle.ruleset.loader import shipped_rule_set
from oracle.service.corpus import Options, run_in_process

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "canlog"))
from faulty_engine import play  # noqa: E402

CONVERTER = f"{HERE / 'canlog' / 'converter.py'}:CanlogConverter"


def main() -> int:
    """Write the logs, replay them twice, print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    directory = args.dir or Path(tempfile.mkdtemp(prefix="canlog-"))
    directory.mkdir(parents=True, exist_ok=True)
    rules = shipped_rule_set("classic-2p").rules
    rng = random.Random(args.seed)
    planted: dict[tuple[str, int, int], str] = {}
    miscounts: set[tuple[str, int, int]] = set()
    actions = 0
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        game = play(rules, seed, breaks=rng.choice((0, 1, 2, 3, 4)), varied=True)
        path = directory / f"game-{seed}.canlog"
        path.write_text("\n".join(game.lines) + "\n", encoding="utf-8")
        planted.update({(f"{path}:2", h, i): str(code) for h, i, code in game.planted})
        miscounts.update((f"{path}:2", h, after) for h, after in game.miscounts)
        actions += game.actions
    print(
        f"{args.games} games, {actions} actions, {len(planted)} rule breaks and {len(miscounts)} miscounted stocks"
        f" planted, logs in {directory}"
    )
    print(f"  planted by kind: {dict(Counter(planted.values()))}  ({time.perf_counter() - start:.0f} s)")
    files = sorted(str(p) for p in directory.glob("*.canlog"))
    for judge_all in (False, True):
        start = time.perf_counter()
        results = run_in_process(files, Options(judge_all=judge_all, converters=(CONVERTER,)))
        found = {
            (g.label, d["hand"], d["index"]): d
            for r in results
            for g in r.games
            for d in g.disagreements
            if d["kind"] == "illegal action"
        }
        others = Counter(d["kind"] for r in results for g in r.games for d in g.disagreements)
        games_with = sum(1 for r in results for g in r.games if g.disagreements)
        hits = sum(1 for key in planted if key in found)
        counted = {
            (g.label, d["hand"], d["index"])
            for r in results
            for g in r.games
            for d in g.disagreements
            if d["kind"] == "checkpoint" and d["field"] == "stock_count"
        }
        uncertain = sum(1 for d in found.values() if d["uncertain"])
        label = "--all" if judge_all else "default (stop at the first)"
        print(
            f"{label}: {sum(others.values())} disagreements in {games_with} games"
            f" ({dict(others)}); illegal actions found {len(found)}, of them planted {hits}/{len(planted)},"
            f" not planted {len(found) - hits}; miscounted stocks found {len(counted & miscounts)}/{len(miscounts)};"
            f" marked uncertain {uncertain} ({time.perf_counter() - start:.0f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
