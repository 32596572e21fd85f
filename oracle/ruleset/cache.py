"""Rule books compiled once: a RuleBook kept (pickled, in memory and on disk) by the hash of its spec files' bytes.

Parsing the sixteen shipped text-format specs, resolving `extends`,
validating and compiling them is most of what a server does before it says
SERVING (tens of milliseconds of pure Python). `cached_rule_book` builds the
book once and stores its parts under ``<cache_dir()>/rulebook/<key>.pickle``;
a later start with the same key unpickles them instead.

The key is the SHA-256 of the format, the Python and protobuf versions,
`code_hash()` (the oracle version and the source of every module the
compiled book is made of: oracle/api, oracle/model, oracle/ruleset) and every
file of the spec directory (name and bytes). A stored file is used only if it
starts with its own key and the SHA-256 of its payload, belongs to this user
and is writable by nobody else: a pickle runs code when it is loaded, so the
cache is as trusted as the user's own files, and a file that does not match is
never read as a rule book. An unwritable cache directory only means no cache.

The checker (the solver lint, oracle.verify.gate, which keeps its own cache by
content hash) is never stored: it runs on every rule set of a book read from
the cache, and any problem at all sends the load down the ordinary path, so
the error raised is exactly the one `RuleBook.from_texts` raises.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import stat
import sys
import tempfile
import time
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from google.protobuf import __version__ as protobuf_version

from oracle._version import __version__
from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.loader import SOURCES_FILE, SPEC_SUFFIX, Checker, LoadedRuleSet, RuleBook, SpecFile

FORMAT = 1  #: bumped when the stored layout changes
MAGIC = b"canasta-oracle rule book\n"
CODE_PACKAGES = ("api", "model", "ruleset")  #: the subpackages whose source makes the compiled book
MEMORY_ENTRIES = 8  #: books kept in memory (by key)
DISK_ENTRIES = 16  #: books kept on disk: the least recently used go first (each new version of the code adds one)

#: What is stored: the rule sets by id, the source catalogue, the spec files by id.
Parts = tuple[dict[str, LoadedRuleSet], ruleset_pb2.SourceCatalog, dict[str, SpecFile]]
_memory: dict[str, Parts] = {}


def cache_dir() -> Path:
    """The oracle's cache directory: $CANASTA_ORACLE_CACHE, else $XDG_CACHE_HOME/canasta-oracle or
    ~/.cache/canasta-oracle (the same directory oracle.verify.gate keeps lint results in; it may not exist)."""
    explicit = os.environ.get("CANASTA_ORACLE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "canasta-oracle"


def source_digest(seed: str, packages: Sequence[str]) -> str:
    """The SHA-256 (hex) of `seed`, then the path and bytes of oracle/_version.py and of every module of the
    oracle subpackages `packages`: what a cache keyed by the code that made its content must hash."""
    root = Path(__file__).resolve().parent.parent  # the oracle package
    digest = hashlib.sha256(seed.encode())
    files = [root / "_version.py"]
    for package in packages:
        files += sorted((root / package).rglob("*.py"))
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def code_hash() -> str:
    """The SHA-256 (hex) of the oracle version and the source of CODE_PACKAGES (and oracle/_version.py)."""
    return source_digest(f"oracle {__version__}", CODE_PACKAGES)


def book_key(files: dict[str, bytes]) -> str:
    """The cache key of a spec directory whose files (name -> bytes) are `files` (see the module docstring)."""
    python = ".".join(map(str, sys.version_info[:3]))
    digest = hashlib.sha256(f"format {FORMAT}; python {python}; protobuf {protobuf_version}; {code_hash()}".encode())
    for name, data in sorted(files.items()):
        digest.update(f"\0{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / "rulebook" / f"{key}.pickle"


def read_parts(key: str) -> Parts | None:
    """The stored parts for `key`, or None: missing, not ours, tampered with, truncated or unreadable."""
    try:
        with _path(key).open("rb") as handle:
            info = os.fstat(handle.fileno())
            if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return None  # someone else could have written it: never unpickle it
            data = handle.read()
            with contextlib.suppress(OSError):  # a read-only cache is still read
                os.utime(handle.fileno())  # recently used: pruned last
    except OSError:
        return None
    header = MAGIC + key.encode() + b"\n"
    if not data.startswith(header):
        return None
    digest, _, payload = data[len(header) :].partition(b"\n")
    if digest != hashlib.sha256(payload).hexdigest().encode():
        return None
    try:
        parts = pickle.loads(payload)
    except Exception:  # an old layout or a class that moved: a miss, never an error
        return None
    if not (isinstance(parts, tuple) and len(parts) == 3 and isinstance(parts[0], dict)):
        return None
    if not (isinstance(parts[1], ruleset_pb2.SourceCatalog) and isinstance(parts[2], dict)):
        return None
    return parts


def write_parts(key: str, parts: Parts) -> None:
    """Store `parts` under `key` atomically (readable and writable by this user only); no-op where unwritable."""
    payload = pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)
    data = MAGIC + key.encode() + b"\n" + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    target = _path(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")  # mode 0600
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
        return
    _prune(target.parent)


def _prune(directory: Path) -> None:
    """Delete all but the DISK_ENTRIES most recently used books, and temporary files a crash left behind."""
    try:
        entries = sorted(directory.iterdir(), key=lambda path: path.stat().st_mtime, reverse=True)
        books = [path for path in entries if path.suffix == ".pickle"]
        stale = time.time() - 3600  # a temporary file this old is no write in progress
        left = [path for path in entries if path.suffix == ".tmp" and path.stat().st_mtime < stale]
        for path in books[DISK_ENTRIES:] + left:
            path.unlink(missing_ok=True)
    except OSError:
        return  # another process pruned at the same time, or the directory went away: next time


def _remember(key: str, parts: Parts) -> None:
    _memory.pop(key, None)
    _memory[key] = parts
    while len(_memory) > MEMORY_ENTRIES:
        del _memory[next(iter(_memory))]


def _read_directory(directory: Path | Traversable) -> tuple[dict[str, str], str, dict[str, bytes]]:
    """The specs (name -> text), the source catalogue's text, and every file read (name -> bytes)."""
    raw = {
        entry.name: entry.read_bytes()
        for entry in directory.iterdir()
        if entry.name.endswith(SPEC_SUFFIX) and entry.is_file()
    }
    if SOURCES_FILE not in raw:
        raw[SOURCES_FILE] = (directory / SOURCES_FILE).read_bytes()  # raises the loader's own missing-file error
    texts = {name: data.decode("utf-8") for name, data in raw.items() if name != SOURCES_FILE}
    return texts, raw[SOURCES_FILE].decode("utf-8"), raw


def cached_rule_book(directory: Path | Traversable, checker: Checker | None = None) -> RuleBook:
    """`RuleBook.from_directory(directory, checker)`, served from the cache when the spec files are unchanged.

    On a miss the book is built without the checker and stored; then (hit or miss) `checker` runs on every rule
    set, and if it finds anything, or the build fails, the book is loaded the ordinary way so that the SpecError
    raised is the ordinary one.
    """
    texts, sources_text, raw = _read_directory(directory)
    key = book_key(raw)
    parts = _memory.get(key) or read_parts(key)
    if parts is None:
        try:
            built = RuleBook.from_texts(texts, sources_text)
        except Exception:
            return RuleBook.from_texts(texts, sources_text, checker)  # raises the error the checked load raises
        parts = ({loaded.spec.id: loaded for loaded in built}, built.sources, built.spec_files())
        write_parts(key, parts)
    _remember(key, parts)
    rule_sets, sources, files = parts
    if checker is not None and any(checker(loaded.rules) for loaded in rule_sets.values()):
        return RuleBook.from_texts(texts, sources_text, checker)  # raises, naming file, line and field
    return RuleBook(rule_sets, sources, files, checker)


__all__ = ["cache_dir", "cached_rule_book", "code_hash", "source_digest"]
