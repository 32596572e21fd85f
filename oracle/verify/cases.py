"""A boundary case as a value: the input, what the model expects and what the engine answered."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.model.cards import format_cards
from oracle.model.table import HandTable


@dataclass(frozen=True)
class Case:
    """One boundary case: what the model expects and what the engine answered."""

    id: str
    description: str
    rule_set_id: str
    kind: str
    input: dict[str, object]
    expected: dict[str, object]
    engine: dict[str, object]

    @property
    def agrees(self) -> bool:
        """The engine gave the model's answer on every expected key."""
        return all(self.engine.get(k) == v for k, v in self.expected.items())

    def to_json(self) -> dict[str, object]:
        """The conformance-case object (see the module docstring)."""
        return {
            "id": self.id,
            "description": self.description,
            "ruleSetId": self.rule_set_id,
            "kind": self.kind,
            "input": self.input,
            "expected": self.expected,
            "engine": self.engine,
        }


def table_doc(table: HandTable) -> dict[str, object]:
    """A hand's table as a case input: each side's melds, red threes, hands and going out, and the formed sides."""
    doc: dict[str, object] = {
        "sides": [
            {
                "melds": [format_cards(m) for m in s.melds],
                "redThrees": format_cards(s.red_threes),
                "hands": [format_cards(h) for h in s.hands],
                "wentOut": s.went_out.name,
            }
            for s in table.sides
        ]
    }
    if table.side_of_seat:
        doc["sideOfSeat"] = list(table.side_of_seat)
    return doc
