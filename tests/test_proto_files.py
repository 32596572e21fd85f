"""The API's .proto files for other languages: their options, buf lint and breaking, the wheel and `proto --out`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from google.protobuf import descriptor_pb2

from oracle.cli.main import main
from oracle.codegen import PROTO_FILES

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
BUF = shutil.which("buf", path=str(Path(sys.executable).parent)) or shutil.which("buf")

#: The options every file sets, the same in each (buf's PACKAGE_SAME_* rules), except java_outer_classname.
SAME_OPTIONS = {
    "csharp_namespace": "Oracle.Api.V1",
    "go_package": "github.com/canasta-oracle/canasta-oracle/gen/go/oracle/api/v1;oraclev1",
    "java_multiple_files": True,
    "java_package": "org.canastaoracle.api.v1",
    "objc_class_prefix": "OAX",
    "php_namespace": "Oracle\\Api\\V1",
    "ruby_package": "Oracle::Api::V1",
}


def _repo_files() -> dict[str, bytes]:
    files = {p.relative_to(PROTO).as_posix(): p.read_bytes() for p in (PROTO / "oracle" / "api" / "v1").glob("*.proto")}
    files["buf.yaml"] = (PROTO / "buf.yaml").read_bytes()
    return files


def _written(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def _descriptors(tmp_path: Path, proto_root: Path = PROTO) -> list[descriptor_pb2.FileDescriptorProto]:
    out = tmp_path / "set.pb"
    include = str(resources.files("grpc_tools") / "_proto")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            f"-I{proto_root}",
            f"-I{include}",
            f"--descriptor_set_out={out}",
            *PROTO_FILES,
        ],
        check=True,
        timeout=60,
    )
    return list(descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file)


def test_every_file_sets_the_language_options(tmp_path: Path) -> None:
    files = _descriptors(tmp_path)
    assert {f.name for f in files} == set(PROTO_FILES)
    top_level = {t.name for f in files for t in (*f.message_type, *f.enum_type, *f.service)}
    outer_names = []
    for file in files:
        options = file.options
        for name, value in SAME_OPTIONS.items():
            assert options.HasField(name), f"{file.name} lacks option {name}"
            assert getattr(options, name) == value, f"{file.name}: {name} = {getattr(options, name)!r}"
        stem = Path(file.name).stem
        assert options.java_outer_classname == stem.capitalize() + "Proto"
        outer_names.append(options.java_outer_classname)
    # With java_multiple_files every message is a class of its own in java_package: an outer class of the same
    # name as any message, enum or service does not compile, and one differing only in case (the default outer
    # class "Ruleset" beside the message RuleSet) clashes as a file name on a case-insensitive file system.
    assert not {n.casefold() for n in outer_names} & {n.casefold() for n in top_level}
    assert len({n.casefold() for n in outer_names}) == len(outer_names)


def test_other_languages_generators_place_the_code_as_the_options_say(tmp_path: Path) -> None:
    # protoc's own generators (Debian's protobuf-compiler, installed by .ci/run): Java, C#, PHP, Ruby, Objective-C.
    protoc = shutil.which("protoc")
    assert protoc is not None, "protoc is not installed (.ci/run installs Debian's protobuf-compiler)"
    outs = {lang: tmp_path / lang for lang in ("java", "csharp", "php", "ruby", "objc")}
    for out in outs.values():
        out.mkdir()
    result = subprocess.run(
        [protoc, f"-I{PROTO}", *(f"--{lang}_out={out}" for lang, out in outs.items()), *PROTO_FILES],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    files = _descriptors(tmp_path)
    messages = [m.name for f in files for m in f.message_type]
    enums = [e.name for f in files for e in f.enum_type]
    # Java: one class per top-level message and enum (java_multiple_files) in java_package, beside each file's
    # <File>Proto outer class; no two differ only in case.
    java = outs["java"] / "org" / "canastaoracle" / "api" / "v1"
    names = {p.stem for p in java.glob("*.java")}
    assert set(messages) | set(enums) | {Path(f.name).stem.capitalize() + "Proto" for f in files} <= names
    assert len({n.casefold() for n in names}) == len(names)
    # C#: every file in the namespace; PHP: a class per message under the namespace's directories; Ruby: the
    # module nesting of ruby_package; Objective-C: classes with the prefix.
    for cs in outs["csharp"].glob("*.cs"):
        assert "namespace Oracle.Api.V1 {" in cs.read_text(), cs.name
    assert {f"{m}.php" for m in messages} <= {p.name for p in (outs["php"] / "Oracle" / "Api" / "V1").glob("*.php")}
    ruby = (outs["ruby"] / "oracle" / "api" / "v1" / "ruleset_pb.rb").read_text()
    assert "module Oracle\n  module Api\n    module V1\n" in ruby
    objc = (outs["objc"] / "oracle" / "api" / "v1" / "Ruleset.pbobjc.h").read_text()
    assert "@interface OAXRuleSet : GPBMessage" in objc


def test_proto_out_writes_the_shipped_files(tmp_path: Path) -> None:
    out = tmp_path / "api"
    result = CliRunner().invoke(main, ["proto", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert _written(out) == _repo_files()
    assert result.output.count("wrote ") == len(_repo_files())
    again = CliRunner().invoke(main, ["proto", "--out", str(out)])
    assert again.exit_code == 0 and "wrote " not in again.output and again.output.count("unchanged ") == 9


def test_proto_lists_the_files_without_out() -> None:
    result = CliRunner().invoke(main, ["proto"])
    assert result.exit_code == 0
    assert result.output.split() == sorted(_repo_files())


def test_proto_out_refuses_to_overwrite_a_different_file_unless_forced(tmp_path: Path) -> None:
    edited = tmp_path / "oracle" / "api" / "v1" / "cards.proto"
    edited.parent.mkdir(parents=True)
    edited.write_text("// mine\n")
    refused = CliRunner().invoke(main, ["proto", "--out", str(tmp_path)])
    assert refused.exit_code == 2
    assert str(edited) in refused.output and "--force" in refused.output
    assert edited.read_text() == "// mine\n" and not (tmp_path / "buf.yaml").exists()
    forced = CliRunner().invoke(main, ["proto", "--out", str(tmp_path), "--force"])
    assert forced.exit_code == 0
    assert _written(tmp_path) == _repo_files()


def test_proto_out_refuses_a_file_as_directory(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    result = CliRunner().invoke(main, ["proto", "--out", str(target)])
    assert result.exit_code == 2 and "--out" in result.output and "is a file" in result.output


def _buf(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert BUF is not None, "the buf CLI (buf-bin, in the test extra) is not installed"
    return subprocess.run([BUF, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_buf_lint_passes() -> None:
    result = _buf("lint", cwd=PROTO)
    assert result.returncode == 0, result.stdout + result.stderr


def test_buf_breaking_passes_against_the_released_api_and_catches_a_break(tmp_path: Path) -> None:
    baseline = PROTO / "api-v1.binpb"
    result = _buf("breaking", "--against", str(baseline), cwd=PROTO)
    assert result.returncode == 0, result.stdout + result.stderr
    # The same check on a copy whose CheckActionRequest.state has a new field number: buf must report it.
    copy = tmp_path / "proto"
    shutil.copytree(PROTO, copy, ignore=shutil.ignore_patterns("*.binpb", "__init__.py", "__pycache__"))
    oracle_proto = copy / "oracle" / "api" / "v1" / "oracle.proto"
    text = oracle_proto.read_text()
    start = text.index("message CheckActionRequest {")
    field = text.index("GameState state = 2;", start)
    oracle_proto.write_text(text[:field] + "GameState state = 99;" + text[field + len("GameState state = 2;") :])
    broken = _buf("breaking", "--against", str(baseline), cwd=copy)
    assert broken.returncode != 0
    assert "CheckActionRequest" in broken.stdout + broken.stderr


def test_buf_lint_finds_an_uncommented_message(tmp_path: Path) -> None:
    copy = tmp_path / "proto"
    shutil.copytree(PROTO, copy, ignore=shutil.ignore_patterns("*.binpb", "__init__.py", "__pycache__"))
    cards = copy / "oracle" / "api" / "v1" / "cards.proto"
    cards.write_text(cards.read_text() + "\nmessage Uncommented {}\n")
    result = _buf("lint", cwd=copy)
    assert result.returncode != 0 and "Uncommented" in result.stdout


@pytest.mark.slow
def test_the_wheel_ships_the_proto_files(tmp_path: Path) -> None:
    wheels = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)], check=True, timeout=300
    )
    (wheel,) = wheels.glob("canasta_oracle-*.whl")
    out = tmp_path / "api"
    env = {**os.environ, "PYTHONPATH": str(wheel)}
    code = (
        "import sys, oracle\n"
        f"assert oracle.__file__.startswith({str(wheel)!r}), oracle.__file__\n"
        "from oracle.cli.main import main\n"
        "sys.exit(main())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, "proto", "--out", str(out)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert _written(out) == _repo_files()
