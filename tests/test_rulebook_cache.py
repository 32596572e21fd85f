"""oracle.ruleset.cache: a rule book read back from the cache is the book the specs make; a changed spec, a foreign
or tampered file is never read as one; the checker still runs; an unchanged book starts without parsing or Z3."""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.ruleset import cache, loader
from oracle.ruleset.cache import MAGIC, cached_rule_book, read_parts
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook, SpecError

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("CANASTA_ORACLE_CACHE", str(directory))
    monkeypatch.setattr(cache, "_memory", {})
    return directory


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    directory = tmp_path / "specs"
    shutil.copytree(SPECS, directory)
    return directory


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, origin: str) -> loader.SpecFile:
        raise AssertionError(f"parsed {origin}: the cache was not used")

    monkeypatch.setattr(loader, "parse_spec", refuse)


def _stored(cache_dir: Path) -> Path:
    [path] = (cache_dir / "rulebook").glob("*.pickle")
    return path


def _assert_same_book(book: RuleBook, expected: RuleBook) -> None:
    assert book.ids() == expected.ids()
    for loaded in expected:
        again = book.get(loaded.spec.id)
        assert again.spec == loaded.spec
        assert again.rules == loaded.rules
        assert again.lineage == loaded.lineage
        assert again.origins == loaded.origins
    assert book.sources == expected.sources
    assert book.spec_files().keys() == expected.spec_files().keys()


def test_a_book_read_back_from_disk_is_the_book_the_specs_make(
    cache_dir: Path, specs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = RuleBook.from_directory(specs)
    _assert_same_book(cached_rule_book(specs), expected)
    assert _stored(cache_dir).stat().st_mode & 0o777 == 0o600

    monkeypatch.setattr(cache, "_memory", {})  # a new process: only the disk remembers
    _no_parsing(monkeypatch)
    book = cached_rule_book(specs)
    _assert_same_book(book, expected)
    inline = book.resolve_inline(expected.get("classic-4p").spec.__class__(extends="classic-4p"))  # files kept
    assert inline.rules.melds == expected.get("classic-4p").rules.melds


def test_a_changed_spec_file_is_a_miss(cache_dir: Path, specs: Path) -> None:
    cached_rule_book(specs)
    path = specs / "classic-4p.textproto"
    path.write_text(path.read_text(encoding="utf-8").replace('title: "', 'title: "Changed: ', 1), encoding="utf-8")
    assert cached_rule_book(specs).get("classic-4p").spec.title.startswith("Changed: ")
    assert len(list((cache_dir / "rulebook").glob("*.pickle"))) == 2


def test_a_different_version_of_the_code_is_a_miss(
    cache_dir: Path, specs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cached_rule_book(specs)
    monkeypatch.setattr(cache, "code_hash", lambda: "another version of the oracle")
    cached_rule_book(specs)
    assert len(list((cache_dir / "rulebook").glob("*.pickle"))) == 2


def _plant(path: Path, payload: bytes, *, digest: bytes | None = None) -> None:
    key = path.stem.encode()
    digest = digest if digest is not None else hashlib.sha256(payload).hexdigest().encode()
    path.write_bytes(MAGIC + key + b"\n" + digest + b"\n" + payload)
    path.chmod(0o600)


def test_a_file_whose_digest_or_owner_does_not_fit_is_never_unpickled(
    cache_dir: Path, specs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cached_rule_book(specs)
    path = _stored(cache_dir)
    key = path.stem
    good = path.read_bytes().split(b"\n", 3)[3]
    unpickled: list[bytes] = []
    monkeypatch.setattr(pickle, "loads", lambda data: unpickled.append(data) or ())

    _plant(path, good, digest=b"0" * 64)  # the payload does not match its digest
    assert read_parts(key) is None
    _plant(path, good)
    path.chmod(0o620)  # writable by the group: anyone in it could have written it
    assert read_parts(key) is None
    path.write_bytes(path.read_bytes().replace(key.encode(), b"f" * 64, 1))  # another key's file under this name
    path.chmod(0o600)
    assert read_parts(key) is None
    assert unpickled == []

    _plant(path, good)  # everything fits: read
    read_parts(key)
    assert unpickled == [good]


def test_the_checker_runs_on_a_book_from_the_cache(cache_dir: Path, specs: Path) -> None:
    cached_rule_book(specs)
    cache._memory.clear()
    checked: list[str] = []

    def checker(rules: CompiledRules) -> list[tuple[str, str]]:
        checked.append(rules.id)
        return [("melds.max_wilds", "refused by the test")] if rules.id == "classic-4p" else []

    with pytest.raises(SpecError) as info:
        cached_rule_book(specs, checker)
    assert any(p.origin == "classic-4p.textproto" and p.field == "melds.max_wilds" for p in info.value.problems)
    assert "classic-2p" in checked
    book = cached_rule_book(specs, lambda rules: [])
    assert book.checker is not None  # kept for inline rule sets


def test_a_broken_spec_raises_the_ordinary_error_and_stores_nothing(cache_dir: Path, specs: Path) -> None:
    path = specs / "classic-4p.textproto"
    path.write_text(path.read_text(encoding="utf-8").replace("max_wilds: 3", "max_wildz: 3"), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        cached_rule_book(specs)
    with pytest.raises(SpecError) as ordinary:
        RuleBook.from_directory(specs)
    assert info.value.problems == ordinary.value.problems
    assert not (cache_dir / "rulebook").exists() or not list((cache_dir / "rulebook").glob("*.pickle"))


def test_an_unwritable_cache_only_means_no_cache(tmp_path: Path, specs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("CANASTA_ORACLE_CACHE", str(blocker))
    monkeypatch.setattr(cache, "_memory", {})
    assert cached_rule_book(specs).ids() == RuleBook.from_directory(specs).ids()


def test_serving_an_unchanged_book_neither_parses_a_spec_nor_imports_z3(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from oracle.ruleset import loader\n"
        "parsed = []\n"
        "real = loader.parse_spec\n"
        "loader.parse_spec = lambda text, origin: parsed.append(origin) or real(text, origin)\n"
        "from oracle.cli.support import load_book\n"
        "book = load_book(None, lint=True)\n"
        "print(len(book.ids()), len(parsed), 'z3' in sys.modules)\n"
    )
    env = {**os.environ, "CANASTA_ORACLE_CACHE": str(tmp_path / "cache")}

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
        return done.stdout.split()

    count, parsed, z3_loaded = run()  # the first start parses every spec and lints with Z3
    assert int(parsed) == int(count) > 0 and z3_loaded == "True"
    assert run() == [count, "0", "False"]


def test_the_disk_keeps_only_the_most_recently_used_books(
    cache_dir: Path, specs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "DISK_ENTRIES", 2)
    keys = []
    for version in ("one", "two"):
        monkeypatch.setattr(cache, "code_hash", lambda version=version: version)
        cached_rule_book(specs)
        keys.append(_newest(cache_dir))
        os.utime(cache_dir / "rulebook" / f"{keys[-1]}.pickle", (1000 + len(keys), 1000 + len(keys)))
    monkeypatch.setattr(cache, "code_hash", lambda: "one")
    cache._memory.clear()
    cached_rule_book(specs)  # read from disk: "one" is now the most recently used
    monkeypatch.setattr(cache, "code_hash", lambda: "three")
    cached_rule_book(specs)
    kept = {path.stem for path in (cache_dir / "rulebook").glob("*.pickle")}
    assert kept == {keys[0], _newest(cache_dir)} and keys[1] not in kept


def _newest(cache_dir: Path) -> str:
    return max((cache_dir / "rulebook").glob("*.pickle"), key=lambda path: path.stat().st_mtime_ns).stem
