"""next_request's idle limit (one lazily moved timer per stream task) behaves as a timer per message would: silence
past the limit times out, steady messages never do, an outside cancellation stays a cancellation."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from oracle.service import streams
from oracle.service.streams import IdleTimeout, next_request


async def _paced(gaps: list[float]) -> AsyncIterator[int]:
    for k, gap in enumerate(gaps):
        await asyncio.sleep(gap)
        yield k


async def _read_all(requests: AsyncIterator[int], idle: float) -> list[int]:
    got = []
    while (request := await next_request(requests, idle)) is not None:
        got.append(request)
    return got


def test_steady_messages_for_longer_than_the_limit_never_time_out() -> None:
    got = asyncio.run(_read_all(_paced([0.05] * 12), 0.2))  # 0.6 s in all, no gap near 0.2 s
    assert got == list(range(12))


def test_silence_past_the_limit_times_out_after_earlier_messages() -> None:
    async def run() -> tuple[list[int], float]:
        requests = _paced([0.01, 0.01, 5.0])
        got = [await next_request(requests, 0.3), await next_request(requests, 0.3)]
        loop = asyncio.get_running_loop()
        began = loop.time()
        with pytest.raises(IdleTimeout, match=r"no message for 0\.3 s"):
            await next_request(requests, 0.3)
        return [g for g in got if g is not None], loop.time() - began

    got, waited = asyncio.run(run())
    assert got == [0, 1]
    assert 0.29 <= waited < 2.0


def test_a_timed_out_task_is_not_left_cancelled_and_can_go_on() -> None:
    async def run() -> int:
        requests = _paced([5.0])
        with pytest.raises(IdleTimeout):
            await next_request(requests, 0.05)
        task = asyncio.current_task()
        assert task is not None and task.cancelling() == 0
        await asyncio.sleep(0.01)  # no cancellation left pending on the task
        return len(streams._WATCHES)

    assert asyncio.run(run()) == 0


def test_a_half_closed_stream_gives_none_and_leaves_no_timer() -> None:
    async def run() -> tuple[list[int], int]:
        return await _read_all(_paced([0.0, 0.0]), 60.0), len(streams._WATCHES)

    assert asyncio.run(run()) == ([0, 1], 0)


def test_a_cancellation_from_outside_stays_a_cancellation() -> None:
    async def run() -> None:
        async def reader() -> int | None:
            return await next_request(_paced([5.0]), 60.0)

        task = asyncio.create_task(reader())
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())


def test_a_shorter_limit_on_a_later_wait_is_kept() -> None:
    async def run() -> None:
        requests = _paced([0.0, 5.0])
        assert await next_request(requests, 60.0) == 0
        loop = asyncio.get_running_loop()
        began = loop.time()
        with pytest.raises(IdleTimeout, match=r"0\.1 s"):
            await next_request(requests, 0.1)  # the same task: its timer, set for 60 s, comes forward
        assert loop.time() - began < 2.0

    asyncio.run(run())


def test_outside_a_task_or_with_no_time_left_a_timer_of_its_own_is_used() -> None:
    async def run() -> None:
        with pytest.raises(IdleTimeout):
            await next_request(_paced([1.0]), 0)

    asyncio.run(run())
