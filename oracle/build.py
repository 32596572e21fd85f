"""Which build of the core this process runs: the rules and games layers compiled by mypyc, or pure Python."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec

#: the modules setup.py compiles with CANASTA_ORACLE_COMPILE=1 (one of each layer is enough to tell)
PROBES = ("oracle.rules.referee", "oracle.games.replay")


def core_build() -> str:
    """'compiled (mypyc)' when the compiled layers are the ones imported, 'pure Python' when none is, and 'mixed'
    otherwise (a broken install: some layer found as source, another as an extension). Imports no module but the
    packages holding the probes."""
    compiled = []
    for name in PROBES:
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        compiled.append(origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES)))
    if all(compiled):
        return "compiled (mypyc)"
    return "mixed" if any(compiled) else "pure Python"


__all__ = ["PROBES", "core_build"]
