"""The caches' one LRU: bounded, least recently used out first, reading counts as use."""

from __future__ import annotations

import threading

import pytest

from oracle.model.lru import LRU


def test_the_least_recently_used_entry_goes_first_and_reading_is_use() -> None:
    lru: LRU[str, int] = LRU(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # "a" is now the most recent
    lru.put("c", 3)  # "b" goes
    assert (lru.get("b"), lru.get("a"), lru.get("c"), len(lru)) == (None, 1, 3, 2)
    lru.put("a", 4)
    assert lru.get("a") == 4 and len(lru) == 2
    lru.clear()
    assert len(lru) == 0 and lru.get("a") is None
    with pytest.raises(ValueError, match="at least 1"):
        LRU(0)


def test_threads_writing_at_once_keep_it_within_its_capacity() -> None:
    lru: LRU[int, int] = LRU(50)

    def write(offset: int) -> None:
        for k in range(2000):
            lru.put(offset + k, k)
            lru.get(offset + k // 2)

    threads = [threading.Thread(target=write, args=(n * 10_000,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(lru) == 50
