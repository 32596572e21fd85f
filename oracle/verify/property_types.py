"""What a property is (an id, one sentence, its proof, when it applies) and what checking one gives."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from oracle.api.v1 import ruleset_pb2
from oracle.verify import property_formation
from oracle.verify.model import RuleModel
from oracle.verify.proving import Outcome


@dataclass(frozen=True)
class Property:
    """A property: a stable id, one sentence, and the check that proves it for a rule set's model."""

    id: str
    sentence: str
    check: Callable[[RuleModel], Outcome]
    #: why the property does not apply to a rule set ("" when it does)
    not_applicable: Callable[[ruleset_pb2.RuleSet], str] = property_formation.always_applies


@dataclass(frozen=True)
class PropertyResult:
    """One property checked against one rule set."""

    property_id: str
    rule_set_id: str
    holds: bool
    detail: str
    ms: float
    applicable: bool = True  #: False: not checked, `detail` says why (holds is then True: nothing fails)


__all__ = ["Property", "PropertyResult"]
