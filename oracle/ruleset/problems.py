"""What goes wrong when loading rule sets: a located problem, a spec error listing them, an unknown id."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SpecProblem:
    """One thing wrong with a spec: where it is and what is wrong."""

    origin: str  #: file name (or request path) the spec came from
    line: int  #: 1-based line, 0 when the field is not written in the file
    column: int  #: 1-based column, 0 when unknown
    field: str  #: dotted field path, e.g. 'melds.max_wilds'
    message: str  #: what is wrong, in words

    def __str__(self) -> str:
        where = self.origin + (f":{self.line}:{self.column}" if self.line else "")
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class SpecError(ValueError):
    """A spec that cannot be loaded; `problems` lists every reason."""

    def __init__(self, problems: list[SpecProblem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


class UnknownRuleSetError(KeyError):
    """No rule set has the id asked for."""

    def __init__(self, rule_set_id: str, known: Iterable[str]) -> None:
        super().__init__(rule_set_id)
        self.rule_set_id = rule_set_id
        self.known = sorted(known)

    def __str__(self) -> str:
        return f"unknown rule set '{self.rule_set_id}'; known: {', '.join(self.known)}"
