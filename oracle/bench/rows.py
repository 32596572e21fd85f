"""The benchmark's result rows: figures with their spread, quantiles, the plain table and the JSON form."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Row:
    """One line of the benchmark table (one figure of issue 13's table)."""

    key: str  #: a stable machine name, e.g. "check.domain.validated"
    title: str  #: what was measured, in words
    value: float | None  #: the figure; None when not measured (see `note`)
    unit: str  #: the figure's unit, e.g. "µs", "x echo", "actions/s"
    spread: str = ""  #: how much it moves: p10/p90 over states, or min-max over rounds
    note: str = ""  #: why there is no figure, or what else is worth knowing
    detail: dict[str, float] = field(default_factory=dict)  #: the numbers behind the spread (for --json)


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of `values`, linearly interpolated between order statistics."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def fmt(value: float) -> str:
    """A figure with three significant digits or so (no exponent)."""
    size = abs(value)
    if size >= 1000:
        return f"{value:,.0f}"
    if size >= 100:
        return f"{value:.0f}"
    if size >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def over_samples(key: str, title: str, samples: Sequence[float], unit: str, note: str = "") -> Row:
    """A row whose figure is the median of `samples` (one per state) with p10/p90 as its spread."""
    if not samples:
        return Row(key, title, None, unit, note=note or "no samples")
    p10, median, p90 = quantile(samples, 0.1), statistics.median(samples), quantile(samples, 0.9)
    detail = {"median": median, "p10": p10, "p90": p90, "n": float(len(samples))}
    return Row(key, title, median, unit, f"p10 {fmt(p10)} p90 {fmt(p90)} (n={len(samples)})", note, detail)


def over_rounds(key: str, title: str, per_round: Sequence[float], unit: str, note: str = "") -> Row:
    """A row whose figure is the median of per-round figures with their min-max as the spread."""
    if not per_round:
        return Row(key, title, None, unit, note=note or "no rounds")
    low, median, high = min(per_round), statistics.median(per_round), max(per_round)
    detail = {"median": median, "min": low, "max": high, "rounds": float(len(per_round))}
    return Row(key, title, median, unit, f"rounds {fmt(low)}-{fmt(high)} (n={len(per_round)})", note, detail)


def missing(key: str, title: str, unit: str, note: str) -> Row:
    """A row that could not be measured today, saying why."""
    return Row(key, title, None, unit, note=note)


def table(rows: Sequence[Row]) -> list[str]:
    """The plain table: row, figure, unit, spread (and a note where there is one)."""
    width = max([len(r.title) for r in rows] + [3])
    lines = [f"{'row':<{width}}  {'figure':>9}  {'unit':<12}  spread"]
    for r in rows:
        figure = fmt(r.value) if r.value is not None else "n/a"
        tail = r.spread
        if r.note:
            tail = f"{tail}; {r.note}" if tail else r.note
        lines.append(f"{r.title:<{width}}  {figure:>9}  {r.unit:<12}  {tail}".rstrip())
    return lines


def as_json(rows: Sequence[Row], context: dict[str, object]) -> str:
    """The rows and the run's context (options, machine) as JSON for machines."""
    return json.dumps({"context": context, "rows": [asdict(r) for r in rows]}, indent=2, ensure_ascii=False)
