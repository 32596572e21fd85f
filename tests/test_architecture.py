"""The layering of the oracle package, enforced: the import-linter contract, no import cycle, layer docstrings."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "oracle"


def contract_layers() -> list[list[str]]:
    """The layers of the import-linter contract in pyproject.toml, highest first (peers share a row)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    return [[name.strip() for name in row.split("|")] for row in contract["layers"]]


LAYERS = contract_layers()
RANK = {name: depth for depth, row in enumerate(LAYERS) for name in row}  # 0 is the highest layer


def import_cycles(package: str) -> list[list[str]]:
    """Every import cycle in `package`, one per strongly connected group of modules, each as a closed chain
    (first module repeated at the end). Imports inside functions and under TYPE_CHECKING count."""
    graph = grimp.build_graph(package, cache_dir=None)
    cycles = []
    for group in _strongly_connected(graph):
        start = min(group)
        if len(group) == 1 and not graph.direct_import_exists(importer=start, imported=start):
            continue
        successor = min(m for m in graph.find_modules_directly_imported_by(start) if m in group)
        back = graph.find_shortest_chain(importer=successor, imported=start) if successor != start else (start,)
        assert back is not None
        cycles.append([start, *back])
    return cycles


def _strongly_connected(graph: grimp.ImportGraph) -> list[set[str]]:
    """Tarjan's algorithm without recursion: the strongly connected groups of the import graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.find_modules_directly_imported_by(nxt)))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    groups.append(group)
    return groups


def describe(cycles: list[list[str]]) -> str:
    return "import cycles:\n" + "\n".join("  " + " -> ".join(cycle) for cycle in cycles)


# ---------------------------------------------------------------------------------------------------------------
# The contract and the cycles


def test_the_layers_contract_is_kept() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [str(lint_imports), "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_layer_of_the_contract_is_a_subpackage_and_every_subpackage_is_a_layer() -> None:
    subpackages = {f"{PACKAGE}.{p.parent.name}" for p in (ROOT / PACKAGE).glob("*/__init__.py")}
    # oracle.specs is data (the rule sets, shipped from specs/), not code.
    assert set(RANK) == subpackages


def test_the_package_has_no_import_cycle() -> None:
    cycles = import_cycles(PACKAGE)
    assert not cycles, describe(cycles)


def test_no_module_imports_the_package_root() -> None:
    # The root is the public API and reaches every layer; a layer that imported it (for the version, say) would
    # depend on the layers above it. The version lives in oracle._version for that reason.
    graph = grimp.build_graph(PACKAGE, cache_dir=None)
    assert graph.find_modules_that_directly_import(PACKAGE) == set()


def test_the_cycle_check_finds_a_cycle_through_an_import_inside_a_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "cyclic_sample"
    package.mkdir()
    (package / "__init__.py").write_text('"""A package with a cycle."""\n')
    low = '"""Imports high inside a function."""\n\n\ndef f():\n    from cyclic_sample import high\n'
    (package / "low.py").write_text(low)
    (package / "high.py").write_text('"""Imports low."""\n\nfrom cyclic_sample import low\n')
    (package / "alone.py").write_text('"""Imports low only: not part of the cycle."""\n\nimport cyclic_sample.low\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    cycles = import_cycles("cyclic_sample")
    assert cycles == [["cyclic_sample.high", "cyclic_sample.low", "cyclic_sample.high"]]
    message = describe(cycles)
    assert "cyclic_sample.high -> cyclic_sample.low -> cyclic_sample.high" in message


# ---------------------------------------------------------------------------------------------------------------
# Each layer says what it owns and what it may import, and the imports agree


def _docstring(layer: str) -> str:
    path = ROOT / Path(*layer.split(".")) / "__init__.py"
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def _below(layer: str) -> set[str]:
    return {name for name, depth in RANK.items() if depth > RANK[layer]}


def _named(text: str) -> set[str]:
    """The layers a piece of text names ('oracle.rules', 'rules', 'oracle.ruleset.compiled', ...)."""
    return {name for name in RANK if re.search(rf"(?<![\w.])(oracle\.)?{name.split('.')[-1]}(?![\w])", text)}


def allowed_imports(layer: str, docstring: str) -> set[str] | None:
    """The layers a docstring's "May import" part allows `layer`, or None when it says nothing about imports."""
    text = " ".join(docstring.split())
    if re.search(r"Imports nothing of the package", text):
        return set()
    found = re.search(r"May import(.*?)(?:[.;](?:\s|$)|$)", text)  # up to the end of the sentence or clause
    if found is None:
        return None
    part = found.group(1)
    allowed = _named(part)
    if re.search(r"every other layer|every layer below", part):
        allowed |= _below(layer)
    for base in re.findall(r"([\w.]+) layer and below|([\w.]+) and below", part):
        for name in _named(" ".join(base)):
            allowed |= {name} | _below(name)
    return allowed


@pytest.mark.parametrize("layer", sorted(RANK))
def test_layer_docstring_says_what_it_owns_and_may_import(layer: str) -> None:
    docstring = _docstring(layer)
    owns = re.split(r"May import|Imports nothing", docstring)[0].strip()
    assert len(owns.split()) >= 5, f"{layer}/__init__.py: the docstring should open by saying what the layer owns"
    allowed = allowed_imports(layer, docstring)
    assert allowed is not None, f"{layer}/__init__.py: say what it may import ('May import: ...' or 'Imports nothing')"
    above = {name for name in allowed if RANK[name] <= RANK[layer] and name != layer}
    assert not above, f"{layer}/__init__.py allows layers that are not below it: {sorted(above)}"


@pytest.mark.parametrize("layer", sorted(RANK))
def test_every_layer_a_layer_imports_is_named_in_its_docstring(layer: str) -> None:
    graph = grimp.build_graph(PACKAGE, cache_dir=None)
    imported = set()
    for module in {layer} | graph.find_descendants(layer):
        for target in graph.find_modules_directly_imported_by(module):
            imported |= {name for name in RANK if name != layer and (target == name or target.startswith(name + "."))}
    allowed = allowed_imports(layer, _docstring(layer)) or set()
    assert imported <= allowed, f"{layer} imports {sorted(imported - allowed)}, which its docstring does not name"


def test_the_docstring_reader_understands_each_way_of_naming_layers() -> None:
    below_service = {"oracle.verify", "oracle.games", "oracle.rules", "oracle.ruleset", "oracle.model", "oracle.api"}
    assert allowed_imports("oracle.cli", "Owns the verbs.\n\nMay import every other layer.") == _below("oracle.cli")
    and_below = allowed_imports("oracle.bench", "May import the service layer and below.")
    assert and_below == {"oracle.service"} | below_service
    assert allowed_imports("oracle.service", "May import every layer below it.") == below_service
    assert allowed_imports("oracle.rules", "May import: oracle.model,\n oracle.ruleset.compiled.") == {
        "oracle.model",
        "oracle.ruleset",
    }
    never = "May import: oracle.model, oracle.api. Never games, verify or service."
    assert allowed_imports("oracle.ruleset", never) == {"oracle.model", "oracle.api"}
    assert allowed_imports("oracle.bench", "May import oracle.service; only the CLI imports it.") == {"oracle.service"}
    assert allowed_imports("oracle.model", "Values. Imports nothing of the package but itself.") == set()
    assert allowed_imports("oracle.games", "Whole games, with no word on imports.") is None
    assert _named("May import: oracle.model, oracle.ruleset.compiled") == {"oracle.model", "oracle.ruleset"}
    assert _named("the rules of the game") == {"oracle.rules"}
    assert _named("ruleset only") == {"oracle.ruleset"}


# ---------------------------------------------------------------------------------------------------------------
# ARCHITECTURE.md names only what exists

ARCHITECTURE = ROOT / "ARCHITECTURE.md"
SOURCES = [p for p in (ROOT / PACKAGE).rglob("*") if p.suffix in (".py", ".pyi")]


def architecture_names() -> list[str]:
    """Everything ARCHITECTURE.md writes as code (between backticks), whitespace collapsed."""
    return [" ".join(t.split()) for t in re.findall(r"`([^`]+)`", ARCHITECTURE.read_text(encoding="utf-8"))]


def test_every_path_architecture_md_names_exists() -> None:
    module_names = {p.name for p in SOURCES}
    missing = []
    for name in architecture_names():
        if not re.fullmatch(r"[\w./*-]+", name):
            continue  # a command, code, or a placeholder such as specs/<id>.textproto
        if "/" in name:
            if not list(ROOT.glob(name.rstrip("/"))):
                missing.append(name)
        elif name.endswith(".py") and name not in module_names and not (ROOT / name).is_file():
            missing.append(name)  # a module of the package by its name, or a file at the top (setup.py)
    assert not missing, f"ARCHITECTURE.md names paths that do not exist: {missing}"


def test_every_function_class_and_rule_set_field_architecture_md_names_exists() -> None:
    from oracle.api.v1 import ruleset_pb2

    source = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES)
    defined = set(re.findall(r"^\s*(?:async def|def|class) (\w+)", source, re.M))
    fields = {f.name for f in ruleset_pb2.RuleSet.DESCRIPTOR.fields}
    for section in ruleset_pb2.RuleSet.DESCRIPTOR.fields:
        if section.message_type is not None:
            fields |= {f"{section.name}.{f.name}" for f in section.message_type.fields}
    unknown = []
    for name in architecture_names():
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name) or name.isupper() or name.startswith("oracle"):
            continue  # a path, a status code, or a package name
        if re.search(r"\.(py|toml|md|json|textproto|proto)$", name):
            continue  # a file (the test above checks it)
        first, *rest = name.split(".")
        if first[0].isupper():  # a class, then members of it
            members = (rf"^\s*(?:async def |def )?{part}\s*[(:=]" for part in rest)  # a method or an attribute
            known = first in defined and all(re.search(member, source, re.M) for member in members)
        else:  # a function, or a rule-set section or field
            known = name in fields or (not rest and name in defined) or name == "optional"
        if not known:
            unknown.append(name)
    assert not unknown, f"ARCHITECTURE.md names what the code does not define: {unknown}"
