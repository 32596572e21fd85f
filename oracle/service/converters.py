"""The extension point for other log formats: a converter turns a file's text into GameRecord messages; converters
are found by entry point or named as MODULE:NAME or FILE.py:NAME."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from pathlib import Path

from oracle.service.record_files import RecordConverter, RecordFileError, file_error

__all__ = ["ENTRY_POINT_GROUP", "RecordConverter", "conversion_error", "installed_converters", "load_converter"]

ENTRY_POINT_GROUP = "canasta_oracle.record_converters"


def conversion_error(file: str, line: int | None, column: int | None, message: str) -> RecordFileError:
    """The error a converter raises for malformed input, with its place in the file."""
    return file_error(file, line, column, message)


def _load_target(target: str) -> object:
    module_name, sep, attribute = target.rpartition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"converter '{target}': write MODULE:NAME or FILE.py:NAME")
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise ValueError(f"converter '{target}': no such file {path}")
        spec = importlib.util.spec_from_file_location(f"canasta_oracle_converter_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise ValueError(f"converter '{target}': {path} cannot be imported")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(module_name)
    if not hasattr(module, attribute):
        raise ValueError(f"converter '{target}': {module_name} has no '{attribute}'")
    return getattr(module, attribute)


def load_converter(target: str) -> RecordConverter:
    """The converter named MODULE:NAME or FILE.py:NAME (a class is instantiated without arguments)."""
    found = _load_target(target)
    converter = found() if isinstance(found, type) else found
    if not isinstance(converter, RecordConverter):
        raise ValueError(f"converter '{target}' has no name, suffixes and convert(text, file): not a RecordConverter")
    return converter


def installed_converters() -> list[RecordConverter]:
    """The converters installed packages declare in the entry point group canasta_oracle.record_converters."""
    found = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.append(load_converter(entry.value))
    return found
