"""The load test (issue 12), outside CI: latency while the heaviest calls run, overload, SIGTERM under load, a soak.

From a clean clone, with the venv (`pip install -e '.[test]'`):

    .venv/bin/python -m oracle.bench.load                                  # every part, a 600 s soak
    .venv/bin/python -m oracle.bench.load --parts latency,sigterm          # some parts
    .venv/bin/python -m oracle.bench.load --parts soak --soak-seconds 120  # a short soak

Each part starts `canasta-oracle serve` of its own on a free 127.0.0.1 port (its defaults, no request log) and
stops it at the end, then prints its figures:

- latency: p50/p99 of a health check and a CheckAction sent every 50 ms, alone and while the heaviest ReplayGame
  (a legal record at the record limits) and ListLegalActions (a 70-card hand, max_actions at the ceiling) the
  limits allow run again and again;
- overload: CheckAction offered open loop at doubling rates until p99 climbs or calls are refused (the capacity),
  then at twice the capacity: calls/s answered and the codes;
- sigterm: 64 clients calling in a loop, then SIGTERM: how the calls in flight ended (goal: none lost), what was
  answered during the drain, how the server exited;
- soak: every RPC, inline rule sets that churn the cache, error paths and RefereeGame streams for --soak-seconds;
  the server's RSS before and after.

docs/robustness.md describes the report. Every loop is bounded by its part's time and every call by a deadline.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from oracle.bench import procs
from oracle.bench.load_parts import PARTS, LoadOptions
from oracle.ruleset.loader import default_rule_book


def _options(argv: Sequence[str] | None) -> tuple[list[str], LoadOptions]:
    defaults = LoadOptions()
    parser = argparse.ArgumentParser(prog="python -m oracle.bench.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {', '.join(PARTS)} (all)")
    parser.add_argument("--latency-seconds", type=float, default=defaults.latency_seconds, help="probes under load")
    parser.add_argument("--baseline-seconds", type=float, default=defaults.baseline_seconds, help="probes alone")
    parser.add_argument("--step-seconds", type=float, default=defaults.step_seconds, help="each capacity step")
    parser.add_argument("--max-rate", type=float, default=defaults.max_rate, help="highest calls/s the search offers")
    parser.add_argument("--overload-seconds", type=float, default=defaults.overload_seconds, help="at 2x capacity")
    parser.add_argument("--load-clients", type=int, default=defaults.load_clients, help="processes offering load")
    parser.add_argument("--clients", type=int, default=defaults.sigterm_clients, help="clients during SIGTERM")
    parser.add_argument("--soak-seconds", type=float, default=defaults.soak_seconds, help="the soak (default 600)")
    options = parser.parse_args(argv)
    parts = [p.strip() for p in options.parts.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown or not parts:
        parser.error(f"unknown part(s) {', '.join(unknown)}; choose among {', '.join(PARTS)}")
    seconds = (options.latency_seconds, options.baseline_seconds, options.step_seconds, options.overload_seconds)
    if min(seconds) <= 0 or options.soak_seconds <= 0 or options.load_clients < 1 or options.clients < 1:
        parser.error("times must be positive and client counts at least 1")
    return parts, LoadOptions(
        latency_seconds=options.latency_seconds,
        baseline_seconds=options.baseline_seconds,
        step_seconds=options.step_seconds,
        max_rate=options.max_rate,
        overload_seconds=options.overload_seconds,
        load_clients=options.load_clients,
        sigterm_clients=options.clients,
        soak_seconds=options.soak_seconds,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen parts one after another and print each part's figures as it ends."""
    parts, options = _options(argv)
    book = default_rule_book()
    print(f"load test: parts {', '.join(parts)}", flush=True)
    failed = 0
    with procs.stop_on_sigterm():
        for part in parts:
            started = time.monotonic()
            try:
                lines = PARTS[part](book, options)
            except Exception as exc:  # one part failing still lets the others run; the exit status says so
                lines, failed = [f"{part}: FAILED: {type(exc).__name__}: {exc}"], failed + 1
            print("\n".join(lines) + f"\n  ({part}: {time.monotonic() - started:,.0f} s)\n", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
