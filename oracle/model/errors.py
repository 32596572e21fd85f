"""Errors for malformed input: every problem with the path of the field it is in."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldProblem:
    """One malformed field: its path in the request (e.g. 'table.sides[0].melds[2]') and what is wrong."""

    field: str
    description: str

    def __str__(self) -> str:
        return f"{self.field}: {self.description}" if self.field else self.description


class InvalidInputError(ValueError):
    """Malformed input (not an illegal move): carries every problem found, each with its field path."""

    def __init__(self, problems: list[FieldProblem]) -> None:
        if not problems:
            raise ValueError("InvalidInputError needs at least one problem")
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


class Problems:
    """Collects FieldProblems under a path prefix; raise_if_any() turns them into InvalidInputError."""

    def __init__(self) -> None:
        self.items: list[FieldProblem] = []

    def add(self, field: str, description: str) -> None:
        """Record one problem."""
        self.items.append(FieldProblem(field, description))

    def raise_if_any(self) -> None:
        """Raise InvalidInputError if anything was recorded."""
        if self.items:
            raise InvalidInputError(list(self.items))
