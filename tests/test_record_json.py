"""A record's JSON read directly (oracle.service.record_json) gives json_format.ParseDict's message, or its error,
for the shipped records and thousands of altered copies of them (other spellings, types, values out of range)."""

from __future__ import annotations

import copy
import json
import random
from importlib import resources
from typing import Any

import pytest
from google.protobuf import json_format

from oracle.api.v1 import record_pb2
from oracle.service.record_json import record_from_json

ROOT = resources.files("oracle.conformance.data") / "records"
TEXTS = [
    (rule_set / name).read_text(encoding="utf-8")
    for rule_set in sorted((d for d in ROOT.iterdir() if d.is_dir()), key=lambda d: d.name)
    for name in sorted(f.name for f in rule_set.iterdir() if f.name.endswith(".json"))
]
VALUES: list[Any] = [
    None,
    0,
    -1,
    7,
    2**31,
    -(2**31) - 1,
    2**64,
    2**64 - 1,
    "5",
    " 5",
    "0x5",
    "1_0",
    "CARD_QC",
    "CARD_JK",
    "CARD_UNSPECIFIED",
    "card_qc",
    "x",
    "\ud800",
    True,
    False,
    1.0,
    1.5,
    [],
    [1],
    ["CARD_2C"],
    {},
    {"draw": {}},
    {"cards": ["CARD_2C"], "ontoRank": "CARD_KH"},
]
KEYS = ["rule_set_id", "seed", "deckOrder", "moves", "checkpoints", "dealer", "yes", "with", "melds", "onto_rank", "?"]


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _places(item, (*path, key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            out += _places(item, (*path, k))
    return out


def _altered(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_places(data)[1:])
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        what = rng.random()
        if what < 0.5:
            parent[last] = copy.deepcopy(rng.choice(VALUES))
        elif what < 0.7 and isinstance(parent, dict):
            del parent[last]
        elif isinstance(parent, dict):
            parent[rng.choice(KEYS)] = copy.deepcopy(rng.choice(VALUES))
        elif isinstance(parent, list):
            parent.insert(last, copy.deepcopy(rng.choice(VALUES)))
    return data


def _outcome(read: Any, data: dict[str, Any]) -> tuple[str, Any]:
    try:
        message = read(data)
    except Exception as exc:  # ParseError, and what ParseDict lets through (a surrogate as an enum name, say)
        return "error", (type(exc).__name__, str(exc))
    return "message", (message.SerializeToString(deterministic=True), message)


def _parse_dict(data: dict[str, Any]) -> record_pb2.GameRecord:
    return json_format.ParseDict(data, record_pb2.GameRecord())


def test_the_shipped_records_read_as_parse_dict_reads_them() -> None:
    assert len(TEXTS) >= 20
    for text in TEXTS:
        data = json.loads(text)
        assert _outcome(record_from_json, data) == _outcome(_parse_dict, data)


@pytest.mark.parametrize("seed", range(4))
def test_altered_records_read_as_parse_dict_reads_them_or_fail_with_its_error(seed: int) -> None:
    rng = random.Random(seed)
    small = [json.loads(text) for text in TEXTS]
    for data in small:  # a record cut to two hands keeps each case small
        data["hands"] = data["hands"][:2]
    kinds = set()
    for _ in range(400):
        data = _altered(rng.choice(small), rng)
        ours, theirs = _outcome(record_from_json, data), _outcome(_parse_dict, data)
        assert ours == theirs, data
        kinds.add(ours[0])
    assert kinds == {"error", "message"}
