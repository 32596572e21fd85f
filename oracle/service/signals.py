"""SIGINT and SIGTERM while serving: the first starts a graceful shutdown, the second exits the process at once.

The signals are seen by a thread reading the interpreter's signal wakeup fd, so a second signal exits even while
the event loop (or the main thread, inside a long C call) is busy.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading
from collections.abc import Callable
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _ignore(signum: int, frame: FrameType | None) -> None:
    """The Python-level handler: nothing (the wakeup fd carries the signal to the watching thread)."""


def exit_now(signum: int) -> None:
    """Say why on stderr and end the process at once with status 128 + the signal number."""
    name = signal.Signals(signum).name
    os.write(2, f"canasta-oracle: second {name}: exiting now, calls in flight are dropped\n".encode())
    os._exit(128 + signum)


class SignalWatcher:
    """Installed from the main thread while serving; `close` restores the previous handlers and wakeup fd.

    The first SIGINT/SIGTERM calls `on_first(signum)` on `loop`; the next one calls `on_second(signum)` in the
    watching thread (by default: exit_now).
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        on_first: Callable[[int], None],
        on_second: Callable[[int], None] = exit_now,
    ) -> None:
        self._loop = loop
        self._on_first = on_first
        self._on_second = on_second
        self._reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._previous = {sig: signal.signal(sig, _ignore) for sig in SIGNALS}
        self._thread = threading.Thread(target=self._watch, name="oracle-signals", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        seen = 0
        while True:
            try:
                data = self._reader.recv(64)
            except OSError:
                return
            if not data:
                return
            for signum in data:
                if signum not in SIGNALS:
                    continue
                seen += 1
                if seen == 1:
                    self._loop.call_soon_threadsafe(self._on_first, signum)
                else:
                    self._on_second(signum)

    def close(self) -> None:
        """Restore the previous handlers and wakeup fd; end the watching thread."""
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)
        signal.set_wakeup_fd(self._previous_fd)
        self._writer.close()  # the reader sees end of file
        self._thread.join(timeout=5)
        self._reader.close()


__all__ = ["SIGNALS", "SignalWatcher", "exit_now"]
