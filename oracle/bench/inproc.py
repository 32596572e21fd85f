"""The in-process rows: each measurement in a fresh process over the sampled states, summarised as table rows
(median and p10/p90 over states in thread CPU time; rates over records, games and hands)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from oracle.bench.measure import Job, Samples
from oracle.bench.procs import run_job
from oracle.bench.rows import Row, fmt, missing, over_samples, quantile
from oracle.bench.states import Position, request_bytes, sample

Progress = Callable[[str], None]
WARMUP = 20  #: states each process judges before it is timed (other states than the timed ones)


@dataclass(frozen=True)
class InProcessSizes:
    """How much the in-process rows measure."""

    states: int = 1000  #: states per row (each timed once)
    games: int = 6  #: simulated games per classic rule set
    timeout: float = 600.0  #: seconds one measuring process may take


def _measure(job: Job, sizes: InProcessSizes, progress: Progress) -> Samples | str:
    """The samples of one job, or the reason it could not be measured."""
    progress(f"in process: {job.kind}")
    try:
        samples: Samples = run_job(job, sizes.timeout)
    except RuntimeError as exc:
        return f"n/a: {exc}"
    return samples


def _rate_row(key: str, title: str, count: float, total_us: float, per_unit: list[float], unit: str) -> Row:
    """A throughput row: count / CPU seconds, spread p10/p90 of the per-unit rates."""
    if total_us <= 0 or not per_unit:
        return missing(key, title, unit, "nothing measured")
    p10, p90 = quantile(per_unit, 0.1), quantile(per_unit, 0.9)
    spread = f"p10 {fmt(p10)} p90 {fmt(p90)} (n={len(per_unit)})"
    rate = count / (total_us / 1e6)
    return Row(key, title, rate, unit, spread, detail={"rate": rate, "p10": p10, "p90": p90, "n": len(per_unit)})


def check_rows(found: list[Position], sizes: InProcessSizes, progress: Progress) -> list[Row]:
    """Checking one action: from domain state (validated, validation alone, without) and from request bytes."""
    measured, warm = sample(found, sizes.states, WARMUP)
    requests, warmup = [request_bytes(p) for p in measured], [request_bytes(p) for p in warm]
    specs = [
        ("reference.python", "reference: a fixed pure-Python workload (how fast this machine is now)"),
        ("check.validated", "check one action in process, domain state, state validated"),
        ("check.repeat", "  the same, a state judged before (validation memo)"),
        ("check.validation", "  validation alone"),
        ("check.bare", "  without validation"),
        ("bytes.full", "  request bytes -> response bytes (OracleApi.CheckAction)"),
        ("bytes.repeat", "  the same, a position asked about just before (its state bytes remembered)"),
        ("bytes.verdict", "  the same, the verdict alone (verdict_only: the next state neither written nor sent)"),
        ("bytes.floor", "  parse, read every card and serialize alone"),
    ]
    rows = []
    for key, title in specs:
        got = _measure(Job(key, requests, warmup), sizes, progress)
        rows.append(
            missing(key, title, "µs", got) if isinstance(got, str) else over_samples(key, title, got["us"], "µs")
        )
        if key == "check.repeat":
            rows.append(_made_row("check.made", found, sizes, progress))
    return rows


MADE = "  the same, a state the oracle made (the last action's next state: vouched for)"  #: the check's and legal's


def _made_job(kind: str, found: list[Position], sizes: InProcessSizes, rule_set_id: str | None = None) -> Job:
    """A job over sampled decisions that have one before them in their hand (that decision's request in `before`)."""
    measured, _ = sample([p for p in found if p.before is not None], sizes.states, rule_set_id=rule_set_id)
    before = [request_bytes(p.before) for p in measured if p.before is not None]
    return Job(kind, [request_bytes(p) for p in measured], before=before)


def _made_row(
    key: str,
    found: list[Position],
    sizes: InProcessSizes,
    progress: Progress,
    rule_set_id: str | None = None,
    samples: str = "us",
) -> Row:
    """The row of states the oracle made: `key`'s job over `rule_set_id`'s states (any when None), its `samples`."""
    got = _measure(_made_job(key, found, sizes, rule_set_id), sizes, progress)
    return missing(key, MADE, "µs", got) if isinstance(got, str) else over_samples(key, MADE, got[samples], "µs")


def legal_rows(found: list[Position], sizes: InProcessSizes, progress: Progress) -> list[Row]:
    """Legal moves on classic-4p states (all, draw phase, play phase): the direct generator with the state validated
    (what legal_actions does), the generator alone, and the referee judging every candidate (the reference path,
    and its time per judged candidate); the worst time per action listed over the states (the linearity claim)."""
    measured, warm = sample(found, sizes.states, WARMUP, rule_set_id="classic-4p")
    requests, warmup = [request_bytes(p) for p in measured], [request_bytes(p) for p in warm]
    paths = [
        ("legal.moves", "legal", "legal moves, classic-4p states from the records (direct, state validated)"),
        ("legal.bare", "legal.bare", "legal moves, direct generation alone (state not validated)"),
        ("legal.referee", "legal.referee", "legal moves by the referee judging every candidate (reference path)"),
    ]
    rows = []
    for kind, prefix, title in paths:
        got = _measure(Job(kind, requests, warmup), sizes, progress)
        for k, t in (("all", title), ("draw", "  draw phase"), ("play", "  play phase")):
            key = f"{prefix}.{k}"
            rows.append(missing(key, t, "µs", got) if isinstance(got, str) else over_samples(key, t, got[k], "µs"))
        if kind == "legal.moves":
            rows.append(_made_row("legal.made", found, sizes, progress, "classic-4p", "all"))
        if kind == "legal.bare":
            rows.append(_worst_row(got))
    title = "  per judged candidate (the referee judging each)"
    got = _measure(Job("candidate.judge", requests, warmup), sizes, progress)
    rows.append(
        missing("legal.candidate", title, "µs", got)
        if isinstance(got, str)
        else over_samples("legal.candidate", title, got["us"], "µs")
    )
    return rows


def _worst_row(got: Samples | str) -> Row:
    """The largest time per action listed over the states (direct generation alone): if the work grew faster than
    the list anywhere, this row would show it."""
    key, title, unit = "legal.per_action", "  worst time per action listed, over the states", "µs/action"
    if isinstance(got, str) or not got["per_action"]:
        return missing(key, title, unit, got if isinstance(got, str) else "no samples")
    ratios = got["per_action"]
    worst, median, p90 = max(ratios), quantile(ratios, 0.5), quantile(ratios, 0.9)
    spread = f"median {fmt(median)} p90 {fmt(p90)} (n={len(ratios)})"
    return Row(key, title, worst, unit, spread, detail={"max": worst, "median": median, "p90": p90, "n": len(ratios)})


def throughput_rows(sizes: InProcessSizes, progress: Progress) -> list[Row]:
    """Replay of the shipped records and random simulation, in CPU seconds of the measuring thread."""
    rows = []
    title = "replay in process, the classic shipped records"
    got = _measure(Job("replay.records"), sizes, progress)
    if not isinstance(got, str):
        title = f"{title} ({len(got['actions'])})"
    if isinstance(got, str):
        rows.append(missing("replay.rate", title, "actions/s", got))
    else:
        per_record = [a / (us / 1e6) for a, us in zip(got["actions"], got["us"], strict=True) if us > 0]
        rows.append(_rate_row("replay.rate", title, sum(got["actions"]), sum(got["us"]), per_record, "actions/s"))
    for rule_set_id in ("classic-2p", "classic-4p"):
        key, title = f"simulate.{rule_set_id}", f"random simulation, {rule_set_id}"
        got = _measure(Job(key, games=sizes.games, rule_set_id=rule_set_id), sizes, progress)
        if isinstance(got, str):
            rows.append(missing(key, title, "hands/s", got))
            continue
        total = got["total_us"][0]
        per_hand = [1e6 / us for us in got["hand_us"] if us > 0]
        row = _rate_row(key, title, len(got["hand_us"]), total, per_hand, "hands/s")
        if got["legal_us"]:
            note = f"legal moves {got['legal_us'][0] / total * 100 if total else 0.0:.0f} % of it"
        else:
            note = "legal moves' share not measured (the compiled core calls the generator directly)"
        rows.append(Row(row.key, row.title, row.value, row.unit, row.spread, note, row.detail))
    return rows
