"""The build's one hook: with CANASTA_ORACLE_COMPILE=1, the rules and games layers are compiled to C by mypyc.

Everything else about the package is in pyproject.toml. Without the variable (the default, and always for an
editable install) the wheel is pure Python. With it, the modules of oracle/rules and oracle/games are compiled
from the same source by mypyc (part of mypy), which the build installs first; the rest stays Python. Both builds
answer alike: .ci/run builds the compiled one and compares its behaviour digest and conformance run with the
pure one's (scripts/check-compiled).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

VARIABLE = "CANASTA_ORACLE_COMPILE"
COMPILED = ("oracle/rules", "oracle/games")  #: the layers compiled: the referee, the move generator, replay
#: what mypyc needs to type-check them (the generated *_pb2.pyi stubs import protobuf's types)
BUILD_REQUIRES = ["mypy>=1.14", "types-protobuf>=7.35.1"]
BUILD_BASE = "build/compiled"


def _wanted() -> bool:
    value = os.environ.get(VARIABLE, "")
    if value not in ("", "0", "1"):
        sys.exit(f"{VARIABLE} must be 1 (compile the core with mypyc) or 0 (pure Python), not {value!r}")
    if value == "1" and "editable_wheel" in sys.argv:
        sys.exit(f"{VARIABLE}=1 is for wheel builds: an editable install runs the source as it is edited")
    return value == "1"


if not _wanted():
    setup()
else:
    try:
        from mypyc.build import mypycify
    except ImportError:  # the build front end asks what to install before building (get_requires_for_build_wheel)
        setup(setup_requires=BUILD_REQUIRES)
    else:
        paths = sorted(str(path) for folder in COMPILED for path in Path(folder).glob("*.py"))
        # mypy follows the compiled modules' imports into the whole package (the root's lazy API reaches the
        # service layer and its dependencies, which the build environment does not hold): what it finds there is
        # read for types but not reported, as the package's own `mypy` run checks all of it
        paths.append("--follow-imports=silent")
        setup(
            setup_requires=BUILD_REQUIRES,
            ext_modules=mypycify(paths, opt_level="3", group_name="oracle_core", target_dir=f"{BUILD_BASE}/c"),
            # a build folder of its own: a later pure build must not pack this one's extensions from build/lib
            options={"build": {"build_base": BUILD_BASE}},
        )
