"""Finds where a field path (record.hands[0].moves[3]) is in a JSON text, as a line and column, for error messages."""

from __future__ import annotations

import re

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_WS = " \t\r\n"


class _Scan:
    """A small JSON reader that notes the position of every value by its path (keys in snake_case)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.found: dict[str, int] = {}

    def skip(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in _WS:
            self.i += 1

    def string(self) -> str:
        start = self.i + 1
        self.i = start
        while self.i < len(self.text) and self.text[self.i] != '"':
            self.i += 2 if self.text[self.i] == "\\" else 1
        self.i += 1
        return self.text[start : self.i - 1]

    def value(self, path: str) -> None:
        self.skip()
        self.found.setdefault(path, self.i)
        if self.i >= len(self.text):
            return
        head = self.text[self.i]
        if head == "{":
            self.i += 1
            self.members(path)
        elif head == "[":
            self.i += 1
            self.items(path)
        elif head == '"':
            self.string()
        else:
            while self.i < len(self.text) and self.text[self.i] not in ",]}" + _WS:
                self.i += 1

    def members(self, path: str) -> None:
        while True:
            self.skip()
            if self.i >= len(self.text) or self.text[self.i] == "}":
                self.i += 1
                return
            if self.text[self.i] == ",":
                self.i += 1
                continue
            key = _CAMEL.sub("_", self.string()).lower() if self.text[self.i] == '"' else ""
            if not key:
                return
            self.skip()
            self.i += 1  # the colon
            self.value(f"{path}.{key}")

    def items(self, path: str) -> None:
        k = 0
        while True:
            self.skip()
            if self.i >= len(self.text) or self.text[self.i] == "]":
                self.i += 1
                return
            if self.text[self.i] == ",":
                self.i += 1
                continue
            self.value(f"{path}[{k}]")
            k += 1


def locate(text: str, path: str, root: str = "record") -> tuple[int, int] | None:
    """The (line, column), both 1-based, of the value at `path` (or its nearest enclosing value) in JSON `text`."""
    scan = _Scan(text)
    try:
        scan.value(root)
    except IndexError:  # a truncated text: what was found so far still counts
        pass
    probe = path
    while probe:
        if probe in scan.found:
            offset = scan.found[probe]
            line = text.count("\n", 0, offset) + 1
            return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
        cut = max(probe.rfind("."), probe.rfind("["))
        probe = probe[:cut] if cut > 0 else ""
    return None


_INDEX = re.compile(r"\[\d+\]")


def locate_fields(text: str, names: list[str], root: str = "record") -> tuple[tuple[int, int], str] | None:
    """The place and full path of the first value whose field names, indexes left out, are `names` (camelCase or
    snake_case), or of the deepest enclosing one found; None if not even the first name is found."""
    scan = _Scan(text)
    try:
        scan.value(root)
    except IndexError:
        pass
    wanted = [_CAMEL.sub("_", n).lower() for n in names]
    for depth in range(len(wanted), 0, -1):
        target = ".".join([root, *wanted[:depth]])
        for path, offset in scan.found.items():
            if _INDEX.sub("", path) == target:
                line = text.count("\n", 0, offset) + 1
                return (line, offset - (text.rfind("\n", 0, offset) + 1) + 1), path
    return None
