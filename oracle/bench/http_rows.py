"""The HTTP rows: CheckAction calls/s over HTTP/JSON (Connect) next to gRPC, against one `serve --http-port` process
on the same machine in the same run, the client taking turns between the two (`python -m oracle.bench.http_rows`)."""

from __future__ import annotations

import argparse
import pickle
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from oracle.bench.procs import Server, oracle_command, stop_all, wait_serving
from oracle.bench.rows import Row, over_rounds, table
from oracle.bench.serving import CHECK_METHOD, ClientProcess, ServerSizes

GRPC_LINE = re.compile(r"serving \d+ rule sets on 127\.0\.0\.1:(\d+)")
HTTP_LINE = re.compile(r"HTTP .* on http://127\.0\.0\.1:(\d+)/")
START_SECONDS = 60.0
PAYLOADS = 200  #: CheckAction requests cycled through, drawn as `canasta-oracle bench` draws its own
Progress = Callable[[str], None]


def _ports(server: Server) -> tuple[int, int]:
    """The gRPC and HTTP ports the server printed (it prints the HTTP one first, the gRPC one once serving)."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        text = server.output()
        grpc_port, http_port = GRPC_LINE.search(text), HTTP_LINE.search(text)
        if grpc_port and http_port:
            return int(grpc_port.group(1)), int(http_port.group(1))
        time.sleep(0.01)
    raise RuntimeError(f"serve --http-port did not say both ports: {server.output()[-1500:]}")


def _rate(answer: dict[str, Any]) -> float:
    return float(answer["count"]) / float(answer["wall"]) if answer["wall"] > 0 else 0.0


def _per_call_us(answer: dict[str, Any], key: str) -> float:
    return float(answer[key]) / max(1, int(answer["count"])) * 1e6


def http_rows(sizes: ServerSizes, unary: list[bytes], progress: Progress) -> list[Row]:
    """CheckAction with `inflight` calls in flight: over gRPC and over HTTP/JSON to one server process, in turns
    (gRPC then HTTP, then HTTP then gRPC, ...); rates and the server's CPU per call, median over the rounds."""
    with tempfile.TemporaryDirectory(prefix="canasta-bench-") as tmp:
        payloads = Path(tmp) / "payloads.pickle"
        payloads.write_bytes(pickle.dumps({"unary": unary, "streams": []}))
        progress("starting serve --http-port (one process) and the client")
        command = oracle_command("serve", "--host", "127.0.0.1", "--port", "0", "--http-port", "0", "--workers", "1")
        with Server(command) as oracle:
            grpc_port, http_port = _ports(oracle)
            wait_serving(grpc_port)
            client = ClientProcess(payloads)
            common = {"inflight": sizes.inflight, "seconds": sizes.seconds, "pids": [oracle.pid]}
            targets = {
                "gRPC": {"op": "unary", "port": grpc_port, "method": CHECK_METHOD, **common},
                "HTTP": {"op": "http_unary", "url": f"http://127.0.0.1:{http_port}{CHECK_METHOD}", **common},
            }
            results: dict[str, list[dict[str, Any]]] = {name: [] for name in targets}
            try:
                for r in range(sizes.rounds):
                    for name in list(targets)[:: 1 if r % 2 == 0 else -1]:
                        progress(f"CheckAction over {name} (round {r + 1}/{sizes.rounds})")
                        results[name].append(client.ask(targets[name], timeout=sizes.seconds * 4 + 120))
            finally:
                client.close()
    grpc, http = results["gRPC"], results["HTTP"]
    errors = sum(int(a["errors"]) for a in grpc + http)
    ratios = [_rate(h) / _rate(g) for g, h in zip(grpc, http, strict=True) if _rate(g) > 0]
    title = f"CheckAction over HTTP/JSON (Connect) vs gRPC, one server process, {sizes.inflight} in flight"
    server_http = [_per_call_us(a, "server_cpu") for a in http]
    server_grpc = [_per_call_us(a, "server_cpu") for a in grpc]
    client_http = [_per_call_us(a, "client_cpu") for a in http]
    return [
        over_rounds("http.check.ratio", title, ratios, "x gRPC", f"{errors} failed calls" if errors else ""),
        over_rounds("http.check.http_rate", "  HTTP/JSON", [_rate(a) for a in http], "calls/s"),
        over_rounds("http.check.grpc_rate", "  gRPC, same server, same run", [_rate(a) for a in grpc], "calls/s"),
        over_rounds("http.check.http_cpu", "  server CPU per HTTP call", server_http, "µs"),
        over_rounds("http.check.grpc_cpu", "  server CPU per gRPC call", server_grpc, "µs"),
        over_rounds("http.check.client_cpu", "  client CPU per HTTP call", client_http, "µs"),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the HTTP rows (the same CheckAction payloads as `canasta-oracle bench`)."""
    from oracle.bench.states import bench_records, positions, request_bytes, sample
    from oracle.ruleset.loader import default_rule_book

    parser = argparse.ArgumentParser(prog="python -m oracle.bench.http_rows", description=main.__doc__)
    parser.add_argument("--rounds", type=int, default=ServerSizes.rounds, help="turns per transport")
    parser.add_argument("--seconds", type=float, default=ServerSizes.seconds, help="timed seconds per turn")
    parser.add_argument("--inflight", type=int, default=ServerSizes.inflight, help="calls in flight")
    args = parser.parse_args(argv)
    sizes = ServerSizes(rounds=args.rounds, seconds=args.seconds, inflight=args.inflight)
    measured, _ = sample(positions(default_rule_book(), bench_records()), PAYLOADS)
    try:
        rows = http_rows(
            sizes, [request_bytes(p) for p in measured], lambda text: print(f"... {text}", file=sys.stderr)
        )
    finally:
        stop_all()
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["http_rows", "main"]
