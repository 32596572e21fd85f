"""Stopping long work early: the checkpoint a long loop calls, and the exceptions it raises (no gRPC here).

Replay, legal-move generation and simulation take an optional `checkpoint`:
a callable without arguments that they call as they go (once per judged
action or candidate). It returns when the work may go on and raises a
`WorkStopped` when it must end. `StopSignal` is the usual checkpoint: a
deadline on the monotonic clock plus a flag another thread can set; the
server makes one per call from the call's deadline and sets the flag when
the caller goes away, so a worker thread gives up within one step.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

#: Called by long work as it goes; raises WorkStopped to end the work, returns otherwise.
Checkpoint = Callable[[], None]


class WorkStopped(Exception):
    """Long work ended early (its result is gone); see the subclasses for why."""


class DeadlineExceeded(WorkStopped):
    """The work's deadline passed before it finished."""


class WorkCancelled(WorkStopped):
    """Whoever wanted the work no longer does (the call was cancelled)."""


class StopSignal:
    """A checkpoint: raises DeadlineExceeded past `deadline` (time.monotonic), WorkCancelled once `cancel()` ran.

    Calling it is cheap (one clock read and one flag test) and thread-safe: one
    thread may call `cancel()` while another runs the work.
    """

    def __init__(self, deadline: float | None = None) -> None:
        self.deadline = deadline
        self._cancelled = threading.Event()

    @classmethod
    def after(cls, seconds: float | None) -> StopSignal:
        """A signal whose deadline is `seconds` from now (None: no deadline)."""
        return cls(None if seconds is None else time.monotonic() + seconds)

    def cancel(self) -> None:
        """Make the next check raise WorkCancelled."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        """Whether `cancel()` ran."""
        return self._cancelled.is_set()

    def __call__(self) -> None:
        if self._cancelled.is_set():
            raise WorkCancelled("the work was cancelled")
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise DeadlineExceeded("the deadline passed before the work finished")


__all__ = ["Checkpoint", "DeadlineExceeded", "StopSignal", "WorkCancelled", "WorkStopped"]
