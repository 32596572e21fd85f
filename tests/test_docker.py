"""The container image as far as it can be checked without a Docker daemon: the Dockerfile, its build context, the
variables it documents, and its HEALTHCHECK command run against a live `serve` configured as the image does."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dockerfile_parse import DockerfileParser

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 60.0
CHECK_TIMEOUT = 20.0


@pytest.fixture(scope="module")
def dockerfile() -> DockerfileParser:
    return DockerfileParser(path=str(ROOT / "Dockerfile"))


def _final_stage(parsed: DockerfileParser) -> list[dict[str, str]]:
    """The instructions from the last FROM on (what the image is made of)."""
    instructions = [i for i in parsed.structure if i["instruction"] != "COMMENT"]
    last_from = max(n for n, i in enumerate(instructions) if i["instruction"] == "FROM")
    return instructions[last_from:]


def _one(stage: list[dict[str, str]], instruction: str) -> str:
    (value,) = [i["value"] for i in stage if i["instruction"] == instruction]
    return value


def test_the_image_is_small_and_runs_as_a_non_root_user(dockerfile: DockerfileParser) -> None:
    stage = _final_stage(dockerfile)
    assert _one(stage, "FROM") == "python:3.11-slim"
    user = _one(stage, "USER").split(":")[0]
    assert user not in ("root", "0"), "the server must not run as root"
    assert re.search(rf"useradd .*--uid {user}\b", _one(stage, "RUN")), "the user is created in the image"


def test_the_server_listens_on_both_ports_on_all_addresses(dockerfile: DockerfileParser) -> None:
    envs = dockerfile.envs
    assert envs["CANASTA_ORACLE_HOST"] == "0.0.0.0"
    exposed = set(_one(_final_stage(dockerfile), "EXPOSE").split())
    assert exposed == {envs["CANASTA_ORACLE_PORT"], envs["CANASTA_ORACLE_HTTP_PORT"]}
    assert json.loads(_one(_final_stage(dockerfile), "ENTRYPOINT")) == ["canasta-oracle", "serve"]


def _healthcheck(dockerfile: DockerfileParser) -> list[str]:
    value = _one(_final_stage(dockerfile), "HEALTHCHECK")
    _, cmd, command = value.partition("CMD ")
    assert cmd, "HEALTHCHECK needs a command"
    return list(json.loads(command))  # the exec form: no shell in between


def test_the_healthcheck_asks_the_grpc_health_service(dockerfile: DockerfileParser) -> None:
    command = _healthcheck(dockerfile)
    assert command[:2] == ["canasta-oracle", "health"]
    assert "--start-period=" in _one(_final_stage(dockerfile), "HEALTHCHECK")


def test_each_variable_the_image_sets_is_a_serve_option_and_documented(dockerfile: DockerfileParser) -> None:
    serve_help = subprocess.run(
        [sys.executable, "-m", "oracle.cli.main", "serve", "--help"], capture_output=True, text=True, check=True
    ).stdout
    options = set(re.findall(r"CANASTA_ORACLE_[A-Z_]+", serve_help))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    container = readme.partition("\n## Container\n")[2].partition("\n## ")[0]
    set_by_image = {name for name in dockerfile.envs if name.startswith("CANASTA_ORACLE_")}
    assert set_by_image - options == {"CANASTA_ORACLE_CACHE"}  # the one that is not a serve option: the cache
    for name in set_by_image | options:
        assert f"`{name}`" in container, f"{name} is not in the README's Container section"


def test_the_image_carries_the_compiled_core_built_in_a_stage_of_its_own(dockerfile: DockerfileParser) -> None:
    instructions = [i for i in dockerfile.structure if i["instruction"] != "COMMENT"]
    last_from = max(n for n, i in enumerate(instructions) if i["instruction"] == "FROM")
    build, final = instructions[:last_from], instructions[last_from:]
    # the wheel is built with setup.py's switch on (scripts/check-compiled builds the same wheel the same way and
    # compares its answers with the pure core's); a build argument turns it off
    args = [i["value"] for i in build if i["instruction"] == "ARG"]
    assert "CANASTA_ORACLE_COMPILE=1" in args
    copied = " ".join(i["value"] for i in build if i["instruction"] == "COPY")
    assert "setup.py" in copied.split(), "without setup.py the build cannot compile the core"
    runs = [i["value"] for i in build if i["instruction"] == "RUN"]
    assert any("install" in run and "gcc" in run for run in runs), "mypyc's C needs a compiler in the build stage"
    assert any("pip wheel" in run for run in runs)
    # the compiler stays behind: the image installs the wheel only
    assert not any("gcc" in i["value"] for i in final if i["instruction"] == "RUN")


def test_the_build_context_holds_what_the_dockerfile_copies(dockerfile: DockerfileParser) -> None:
    allowed = {
        line.removeprefix("!").rstrip("/")
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.startswith("!")
    }
    ignored_everything = "*" in (ROOT / ".dockerignore").read_text().splitlines()
    copied = [
        source
        for i in dockerfile.structure
        if i["instruction"] == "COPY" and "--from" not in i["value"]
        for source in i["value"].split()[:-1]
    ]
    assert ignored_everything and copied
    for source in copied:
        assert source in allowed, f"COPY {source}: .dockerignore leaves it out of the build context"
        assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def image_environment(dockerfile: DockerfileParser, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The image's CANASTA_ORACLE_* variables, with free ports and a fresh cache (as a container would have)."""
    env = {**os.environ, **{k: v for k, v in dockerfile.envs.items() if k.startswith("CANASTA_ORACLE_")}}
    env.update(
        CANASTA_ORACLE_PORT=str(_free_port()),
        CANASTA_ORACLE_HTTP_PORT=str(_free_port()),
        CANASTA_ORACLE_CACHE=str(tmp_path / "cache"),
        CANASTA_ORACLE_WORKERS="1",
        CANASTA_ORACLE_DRAIN_SECONDS="5",
    )
    yield env


def _health(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "oracle.cli.main", *command[1:]]  # canasta-oracle, from this checkout
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=CHECK_TIMEOUT)


def test_the_healthcheck_command_against_a_live_server(
    dockerfile: DockerfileParser, image_environment: dict[str, str], tmp_path: Path
) -> None:
    command = _healthcheck(dockerfile)
    env = image_environment
    assert _health(command, env).returncode == 1, "nothing is listening yet: unhealthy"
    log = tmp_path / "serve.txt"
    with log.open("w") as out:
        serve = subprocess.Popen(
            [sys.executable, "-m", "oracle.cli.main", "serve"], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while "canasta-oracle: serving" not in log.read_text():
            assert serve.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        assert f"0.0.0.0:{env['CANASTA_ORACLE_PORT']}" in log.read_text()
        assert f"http://0.0.0.0:{env['CANASTA_ORACLE_HTTP_PORT']}/" in log.read_text()
        healthy = _health(command, env)
        assert (healthy.returncode, healthy.stdout.strip()) == (0, f"127.0.0.1:{env['CANASTA_ORACLE_PORT']}: SERVING")
        serve.send_signal(signal.SIGTERM)  # draining: still answering, but NOT_SERVING
        time.sleep(0.5)
        draining = _health(command, env)
        assert (draining.returncode, draining.stdout.strip().rpartition(" ")[2]) == (1, "NOT_SERVING")
        assert serve.wait(timeout=30) == 0
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait(timeout=10)
