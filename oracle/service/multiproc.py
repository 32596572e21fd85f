"""`serve --workers N`: N forked server processes sharing one port (SO_REUSEPORT), started and stopped as one.

The parent process loads the rule book and imports the service (so the
workers inherit both, copy-on-write, and start in milliseconds; each loads
the rules engine once it is SERVING, as a single server does), checks and
reserves the port, then forks the workers before any gRPC object exists (what
gRPC supports). Each worker runs its own event loop and a complete server
(health, admission control, worker threads, request log); the kernel spreads
new connections over them. Only this mode turns port reuse on, and it checks
first, without port reuse, that nobody listens on the port: a busy port is the
same one-line error as for a single server.

Signals: SIGTERM and SIGINT reach the parent (the workers have a process group
of their own, so a terminal's Ctrl-C does not reach them twice); it forwards
SIGTERM to every worker, whose health turns NOT_SERVING at once, then drains
and finishes its calls as a single server does; the parent exits 0 once all
have exited 0. A second signal kills the workers and exits at once (128 + n). A
worker that dies unexpectedly makes the parent stop the others and exit 1; a
worker whose parent dies stops gracefully. Metrics (--metrics-port P): worker i
serves its own on P+i (0: each on a free port), each listed when serving.
"""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import os
import signal
import socket
import sys
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess

from oracle.ruleset.loader import RuleBook
from oracle.service.config import ConfigError, ServeConfig
from oracle.service.server import describe, start_server
from oracle.service.signals import SIGNALS, SignalWatcher

EXIT_FAILED = 1  #: a worker died unexpectedly or did not stop cleanly
MESSAGE_BYTES = 1000  #: a worker's status line is cut to this (one atomic pipe write)


def available_processors() -> int:
    """The processors this process may run on (its affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def worker_count(config: ServeConfig) -> int:
    """How many server processes `config` asks for: its `workers`, or one per available processor."""
    return config.workers if config.workers is not None else available_processors()


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _listen_error(host: str, port: int, exc: OSError) -> OSError:
    """The one-line error of a port that cannot be used, worded as oracle.service.server words it."""
    reason = (exc.strerror or str(exc)).lower()
    if isinstance(exc, socket.gaierror):
        reason = f"cannot resolve the host ({reason})"
    elif "in use" in reason:
        reason += " (another process is listening there)"
    return OSError(f"cannot listen on {_address(host, port)}: {reason}")


def _socket(family: int, *, reuse_port: bool) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC: a port in TIME_WAIT is free
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    if family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # as gRPC: [::] also takes IPv4
    return sock


def reserve_port(host: str, port: int, *, shared: bool = False) -> tuple[list[socket.socket], int]:
    """Check that host:port is free and hold it for the workers: (the reserving sockets, the port).

    Unless `shared` (--reuse-port: joining other servers is asked for), a socket without port reuse is bound
    first, so a port anyone listens on is refused. Then a socket with SO_REUSEPORT is bound and kept (never
    listening: it takes no connections) until the workers have bound theirs; port 0 becomes a free port.
    Raises OSError with one line naming the address and why.
    """
    if not hasattr(socket, "SO_REUSEPORT"):
        raise ConfigError("--workers above 1 needs SO_REUSEPORT, which this system does not have: use --workers 1")
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise _listen_error(host, port, exc) from None
    addresses = list(dict.fromkeys((family, sockaddr[0]) for family, _, _, _, sockaddr in found))
    held: list[socket.socket] = []
    try:
        for family, address in addresses:
            if not shared:
                with _socket(family, reuse_port=False) as probe:
                    probe.bind((address, port))
                    port = probe.getsockname()[1]
            reserving = _socket(family, reuse_port=True)
            held.append(reserving)
            reserving.bind((address, port))
            port = reserving.getsockname()[1]
    except OSError as exc:
        for sock in held:
            sock.close()
        raise _listen_error(host, port, exc) from None
    return held, port


def worker_configs(config: ServeConfig, port: int, workers: int) -> list[ServeConfig]:
    """Each worker's config: the reserved port shared (SO_REUSEPORT), metrics on metrics_port + i (0: free)."""
    metrics = config.metrics_port
    if metrics:
        last = metrics + workers - 1
        if last > 65535:
            raise ConfigError(f"--metrics-port {metrics} with {workers} workers needs ports up to {last} (> 65535)")
        if metrics <= port <= last:
            raise ConfigError(f"--metrics-port {metrics} to {last} (one per worker) includes the serving port {port}")
    return [
        dataclasses.replace(config, port=port, reuse_port=True, workers=1, metrics_port=_metrics_port(metrics, i))
        for i in range(workers)
    ]


def _metrics_port(first: int | None, index: int) -> int | None:
    """Worker `index`'s metrics port: none, a free one (0), or first + index."""
    return first if not first else first + index


def _tell(fd: int, index: int, what: str) -> None:
    """One status line from worker `index` to the parent (cut to MESSAGE_BYTES: one atomic write)."""
    line = f"{index} {what}".replace("\n", " ").encode("utf-8", "replace")[:MESSAGE_BYTES]
    os.write(fd, line + b"\n")


async def _serve_one(index: int, book: RuleBook, config: ServeConfig, status: int, life: int) -> None:
    """A worker's server: start, say ready (with the metrics URL), serve until a signal or the parent's end."""
    loop = asyncio.get_running_loop()
    running = await start_server(book, config)
    stop = asyncio.Event()
    signals = SignalWatcher(loop, lambda signum: stop.set())
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)  # a signal that came while starting is handled now
        loop.add_reader(life, stop.set)  # readable at end of file: the parent is gone
        _tell(status, index, f"ready {running.metrics_url or '-'}")
        await stop.wait()
        loop.remove_reader(life)
        await running.shutdown()
    finally:
        signals.close()


def _worker_main(index: int, book: RuleBook, config: ServeConfig, status: int, life: int, keep: list[int]) -> None:
    """The forked worker process (signals arrive blocked; they are unblocked once the server handles them)."""
    os.setpgid(0, 0)  # a process group of its own: a terminal's Ctrl-C reaches only the parent, which forwards it
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    for fd in keep:  # the parent's ends of the pipes: holding them would hide the parent's death
        os.close(fd)
    try:
        asyncio.run(_serve_one(index, book, config, status, life))
    except (OSError, ConfigError) as exc:
        _tell(status, index, f"error {exc}")
        sys.exit(2)


class Workers:
    """The parent's view of its workers: start them, forward signals, notice deaths, wait for all to end."""

    def __init__(self, book: RuleBook, configs: list[ServeConfig]) -> None:
        self._book = book
        self._configs = configs
        self._status_r, self._status_w = os.pipe()
        self._life_r, self._life_w = os.pipe()
        self._buffer = b""
        self.processes: list[BaseProcess] = []
        self.ready: dict[int, str] = {}  #: worker index -> metrics URL ('-' for none)
        self.errors: list[str] = []
        self._ended: set[int] = set()

    def start(self) -> None:
        """Fork every worker (with SIGINT and SIGTERM blocked, so that none is lost or handled twice)."""
        context = multiprocessing.get_context("fork")
        keep = [self._status_r, self._life_w]
        for index, config in enumerate(self._configs):
            args = (index, self._book, config, self._status_w, self._life_r, keep)
            process = context.Process(target=_worker_main, args=args, name=f"canasta-oracle worker {index + 1}")
            process.start()
            self.processes.append(process)
        os.close(self._status_w)
        os.close(self._life_r)
        os.set_blocking(self._status_r, False)

    def pids(self) -> list[int]:
        """The workers' process ids."""
        return [p.pid for p in self.processes if p.pid is not None]

    def alive(self) -> list[BaseProcess]:
        """The workers still running."""
        return [p for p in self.processes if p.is_alive()]

    def ended(self) -> list[tuple[int, BaseProcess]]:
        """The workers that have ended since the last call, with their index."""
        ended = [(i, p) for i, p in enumerate(self.processes) if i not in self._ended and not p.is_alive()]
        self._ended.update(i for i, _ in ended)
        return ended

    def signal(self, signum: int) -> None:
        """Send `signum` to every worker still running."""
        for process in self.alive():
            if process.pid is not None:
                try:
                    os.kill(process.pid, signum)
                except ProcessLookupError:
                    pass

    def sources(self) -> list[int]:
        """What to wait on: the sentinel of each worker whose end was not yet seen by `ended`, and the status pipe.

        (Not of those alive: a worker is reaped by `is_alive` a moment after its sentinel turns readable, and one
        reaped between `ended` and the next wait would never be seen to end; its sibling would run on.)
        """
        return [*(p.sentinel for i, p in enumerate(self.processes) if i not in self._ended), self._status_r]

    def read_status(self) -> None:
        """Read the workers' status lines: 'i ready URL' or 'i error MESSAGE'."""
        try:
            data = os.read(self._status_r, 65536)
        except BlockingIOError:
            return
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for raw in lines:
            index, _, rest = raw.decode("utf-8", "replace").partition(" ")
            kind, _, detail = rest.partition(" ")
            if kind == "ready":
                self.ready[int(index)] = detail
            elif kind == "error":
                self.errors.append(detail)

    def close(self) -> None:
        """Release the pipes (a worker still running sees its parent gone and stops)."""
        for fd in (self._status_r, self._life_w):
            try:
                os.close(fd)
            except OSError:
                pass


def _ended(process: BaseProcess) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        return f"was killed by {signal.Signals(-code).name}"
    return f"exited with status {code}"


def _say(text: str, *, err: bool = False) -> None:
    print(f"canasta-oracle: {text}", file=sys.stderr if err else sys.stdout, flush=True)


class _SignalPipe:
    """SIGINT and SIGTERM written (as their numbers) to a socket the parent waits on, with the workers."""

    def __init__(self) -> None:
        self.reader, self._writer = socket.socketpair()
        self.reader.setblocking(False)
        self._writer.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._previous = {signum: signal.signal(signum, lambda s, f: None) for signum in SIGNALS}

    def received(self) -> list[int]:
        """The signals that came since the last call."""
        try:
            return [s for s in self.reader.recv(64) if s in SIGNALS]
        except BlockingIOError:
            return []

    def close(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        signal.set_wakeup_fd(self._previous_fd)
        self.reader.close()
        self._writer.close()


def serve_workers(book: RuleBook, config: ServeConfig, workers: int) -> int:
    """Serve `book` on `workers` processes until SIGINT or SIGTERM; the exit status (0: every worker drained).

    Raises OSError (one line) when the port cannot be used or a worker cannot start, ConfigError for options
    that do not fit (metrics ports), as a single server does.
    """
    held, port = reserve_port(config.host, config.port, shared=config.reuse_port)
    try:
        if config.http_port is not None:  # the HTTP port is shared the same way (0: one free port for all)
            http_held, http_port = reserve_port(config.host, config.http_port, shared=config.reuse_port)
            held += http_held
            config = dataclasses.replace(config, http_port=http_port)
        configs = worker_configs(config, port, workers)
        return _supervise(book, config, configs, port)
    finally:
        for sock in held:
            sock.close()


def _supervise(book: RuleBook, config: ServeConfig, configs: list[ServeConfig], port: int) -> int:
    team = Workers(book, configs)
    signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        team.start()
        pipe = _SignalPipe()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
    try:
        return _watch(team, pipe, book, config, port)
    finally:
        pipe.close()
        team.close()


def _watch(team: Workers, pipe: _SignalPipe, book: RuleBook, config: ServeConfig, port: int) -> int:
    """The parent's loop: announce once all serve, forward signals, stop all when one fails; the exit status."""
    stopping = False
    announced = False
    failure: str | None = None
    while team.alive():
        ready = wait([*team.sources(), pipe.reader])
        if pipe.reader in ready:
            for signum in pipe.received():
                if stopping:
                    team.signal(signal.SIGKILL)
                    _say(f"second {signal.Signals(signum).name}: exiting now, calls in flight are dropped", err=True)
                    os._exit(128 + signum)
                stopping = True
                team.signal(signal.SIGTERM)
                _say(
                    f"stopping: health NOT_SERVING, answering for {config.drain_seconds:g} s more, then up to"
                    f" {config.grace_seconds:g} s for calls in flight (a second signal exits at once)"
                )
        team.read_status()
        if team.errors and not stopping:
            stopping = True  # a worker could not start: stop the others, then raise its error
            team.signal(signal.SIGTERM)
        for index, process in team.ended():
            if failure is None and not team.errors and (not stopping or process.exitcode != 0):
                failure = f"worker {index + 1} (pid {process.pid}) {_ended(process)}"
            if not stopping:
                _say(f"{failure}; stopping the other workers", err=True)
                stopping = True
                team.signal(signal.SIGTERM)
        if not announced and not stopping and len(team.ready) == len(team.processes):
            announced = True
            _announce(team, book, config, port)
    team.read_status()
    if team.errors:
        raise OSError(team.errors[0])  # the one-line error a single server would give
    if failure is not None:
        _say(f"stopped, but {failure}", err=True)
        return EXIT_FAILED
    _say("stopped")
    return 0


def _announce(team: Workers, book: RuleBook, config: ServeConfig, port: int) -> None:
    pids = ", ".join(map(str, team.pids()))
    _say(describe(config))
    _say(f"{len(team.processes)} worker processes (pids {pids}) share the port (SO_REUSEPORT), each with its health")
    for index, url in sorted(team.ready.items()):
        if url != "-":
            _say(f"metrics of worker {index + 1} on {url}")
    if config.http_port is not None:
        scheme = "https" if config.tls else "http"
        _say(f"HTTP (Connect, JSON) and the web page on {scheme}://{_address(config.host, config.http_port)}/")
    _say(f"serving {len(book.ids())} rule sets on {_address(config.host, port)}")


__all__ = ["available_processors", "reserve_port", "serve_workers", "worker_configs", "worker_count"]
