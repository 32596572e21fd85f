"""The documented, language-neutral shuffle: SplitMix64 numbers, rejection-sampled bounds, Fisher-Yates from the top.

Any implementation can reproduce a seeded deal:

1. Start from the rule set's deck in canonical order: for each pack the card
   numbers 1..52 (2C 2D 2H 2S 3C ... AS), then the jokers (53) - the order of
   ``oracle.model.cards.deck``.
2. Generator: SplitMix64 with a 64-bit state set to the seed (an unsigned
   64-bit integer). Each draw adds 0x9E3779B97F4A7C15 to the state (mod 2^64),
   then mixes a copy z of the new state: z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EB; result = z ^ (z >> 31) (all mod 2^64).
3. A uniform integer in [0, n): limit = 2^64 - (2^64 mod n); draw until the
   result is below limit; return result mod n.
4. Fisher-Yates: for i from len-1 down to 1, j = uniform(i + 1), swap a[i] and a[j].
5. The shuffled list is the deck face down with element 0 on top: dealing
   takes element 0 first (see ``oracle.games.deal.deal``).
"""

from __future__ import annotations

from collections.abc import Iterator

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 stream for a 64-bit seed."""
    state = seed & MASK
    while True:
        state = (state + GOLDEN) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def uniform(stream: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) by rejection sampling."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value = next(stream)
        if value < limit:
            return value % n


def shuffled(cards: list[int], seed: int) -> list[int]:
    """A copy of `cards` shuffled by the documented algorithm."""
    if not 0 <= seed <= MASK:
        raise ValueError(f"seed {seed} is not an unsigned 64-bit integer")
    out = list(cards)
    stream = splitmix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = uniform(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out
