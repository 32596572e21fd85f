"""Records people write: the published JSON Schema, JSON Lines, mid-game records, the canlog converter, and a clear
error with file, line and column for every malformed input."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from oracle.cli.main import main
from oracle.games.replay import replay
from oracle.ruleset.loader import default_rule_book
from oracle.service.corpus import converters_of
from oracle.service.record_files import RecordFileError, read_games, to_domain
from oracle.service.record_schema import SCHEMA_PATH, schema_text

ROOT = Path(__file__).resolve().parent.parent
CONVERTER = f"{ROOT / 'examples' / 'canlog' / 'converter.py'}:CanlogConverter"
SHIPPED_JSON = sorted([*ROOT.glob("conformance/records/*/*.json"), *ROOT.glob("examples/records/*.json")])
SHIPPED_JSONL = sorted(ROOT.glob("examples/records/*.jsonl"))


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), prog_name="canasta-oracle")
    return result.exit_code, result.output


def test_the_published_schema_is_the_one_the_protos_give() -> None:
    committed = (ROOT / SCHEMA_PATH).read_text(encoding="utf-8")
    assert committed == schema_text(ROOT / "proto"), "run: python -m oracle.service.record_schema"


#: The shipped records the schema check reads: the examples, and the first two games of each rule set's corpus (the
#: simulator writes every game of a rule set alike; tests/test_records_corpus.py replays all of them).
SCHEMA_SAMPLE = [
    p for p in SHIPPED_JSON if p.parent.parent.name != "records" or p.name in ("game-0.json", "game-1.json")
]


def test_the_shipped_records_validate_against_the_schema() -> None:
    schema = json.loads((ROOT / SCHEMA_PATH).read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in SCHEMA_SAMPLE]
    documents += [json.loads(line) for p in SHIPPED_JSONL for line in p.read_text(encoding="utf-8").splitlines()]
    assert len({p.parent.name for p in SCHEMA_SAMPLE}) >= 9 and len(documents) >= 18  # every corpus and the examples
    for document in documents:
        assert not [e.message for e in validator.iter_errors(document)]
    # ... and the schema refuses what the parser refuses.
    assert list(validator.iter_errors({"ruleSetId": "classic-2p", "hand": []}))
    assert list(validator.iter_errors({"ruleSetId": "classic-2p", "hands": [{"seed": "1", "deckOrder": {}}]}))


def test_a_record_that_starts_mid_game_replays() -> None:
    [game] = read_games(ROOT / "examples" / "records" / "mid-game.json")
    rules = default_rule_book().get("classic-2p").rules
    record = to_domain(game, rules)
    hand = record.hands[0]
    assert hand.start is not None and hand.starting_totals == (1570, 2265) and hand.checkpoints
    report = replay(rules, record, judge_all=True)
    assert report.ok and report.judged == len(hand.actions)
    assert report.standing is not None and report.standing.totals == hand.claimed_totals
    code, out = run("replay", str(ROOT / "examples" / "records" / "mid-game.json"))
    assert code == 0 and "64 actions judged; OK" in out


def test_json_lines_hold_one_game_a_line() -> None:
    path = ROOT / "examples" / "records" / "three-games.jsonl"
    games = read_games(path)
    assert [g.line for g in games] == [1, 2, 3]
    code, out = run("replay", "--in-process", str(path))
    assert code == 0, out
    assert "games 3 (with disagreements or errors 0)" in out


def test_the_canlog_converter_reads_the_sample_logs() -> None:
    clean, faulty = ROOT / "examples" / "canlog" / "game-21.canlog", ROOT / "examples" / "canlog" / "game-7.canlog"
    code, out = run("replay", "--converter", CONVERTER, str(clean))
    assert code == 0 and "; OK" in out
    code, out = run("replay", "--converter", CONVERTER, str(faulty))
    assert code == 1 and out.count("ILLEGAL:") == 1
    code, out = run("replay", "--all", "--converter", CONVERTER, str(faulty))
    assert code == 1 and out.count("ILLEGAL:") == 3 and out.count("WRONG_PHASE (") == 3
    assert "cite: " in out


def _malformed(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of malformed file, and the place (file:line:column or file) its error must name."""
    good = (ROOT / "conformance" / "records" / "classic-2p" / "game-0.json").read_text(encoding="utf-8")
    rng = random.Random(1)
    files: dict[str, tuple[Path, str]] = {}

    def put(name: str, data: bytes, where: str) -> None:
        path = tmp_path / name
        path.write_bytes(data)
        files[name] = (path, where.replace("FILE", str(path)))

    put("binary.json", b"{" + rng.randbytes(450_000) + b"\xff", "FILE:")
    put("cut.json.gz", gzip.compress(good.encode())[:300], "FILE: cannot decompress")
    put("cut.json", good[:500].encode(), "FILE:1:501: not valid JSON")
    record = {"ruleSetId": "classic-2p", "hands": [{"seed": "5", "moves": ["draw", "meld KH KX KD"]}]}
    text = json.dumps(record, indent=2)
    put("bad-move.json", text.encode(), f"FILE:{_line_of(text, 'meld KH KX')}:")
    put("unknown-field.json", b'{\n  "ruleSetId": "classic-2p",\n  "hands": [],\n  "extra": 1\n}', "FILE:4:")
    lines = (good.strip() + "\n" + good[:40] + "\n").encode()
    put("lines.jsonl", lines, "FILE:2:40: not valid JSON: Unterminated string starting at this point")
    put("bad.canlog", b"game classic-2p dealer 0\nhand seed 4\nP1 draw\nP1 discard 11h\n", "FILE:4:12:")
    put("wrong-type.json", b'{\n  "ruleSetId": "classic-2p",\n  "hands": [\n    {"seed": "abc"}\n  ]\n}', "FILE:4:14:")
    put("empty.json", b"", "FILE:1:1: not valid JSON")
    put("array.json", b"[1, 2]", "FILE:1:1: a game record is a JSON object")
    return files


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize(
    "name",
    [
        "binary.json",
        "cut.json.gz",
        "cut.json",
        "bad-move.json",
        "unknown-field.json",
        "lines.jsonl",
        "bad.canlog",
        "wrong-type.json",
        "empty.json",
        "array.json",
    ],
)
def test_a_malformed_file_gets_one_clear_error_with_its_place(name: str, tmp_path: Path) -> None:
    path, where = _malformed(tmp_path)[name]
    code, out = run("replay", "--converter", CONVERTER, str(path))
    assert code == 2, out
    assert where in out
    assert "internal error" not in out and "Traceback" not in out
    assert len(out) < 600  # the file is never echoed


def test_a_bad_move_names_its_field_and_the_problem(tmp_path: Path) -> None:
    path, _ = _malformed(tmp_path)["bad-move.json"]
    with pytest.raises(RecordFileError) as caught:
        to_domain(read_games(path)[0], default_rule_book().get("classic-2p").rules)
    assert "record.hands[0].moves[1]" in str(caught.value) and "KX" in str(caught.value)


def test_a_corpus_reports_unreadable_files_and_goes_on(tmp_path: Path) -> None:
    files = _malformed(tmp_path)
    good = ROOT / "conformance" / "records" / "classic-2p" / "game-0.json"
    code, out = run("replay", "--in-process", "--converter", CONVERTER, str(tmp_path), str(good))
    assert code == 1
    assert f"files {len(files) + 1} (unreadable {len(files) - 1})" in out  # bad-move.json is read, then refused
    assert "malformed game" in out and "unreadable file" in out


def test_a_bad_converter_is_refused_by_name() -> None:
    code, out = run("replay", "--converter", "no_such_module:Thing", str(ROOT / "examples" / "records"))
    assert code == 2 and "cannot load a converter" in out and "no_such_module" in out


def test_an_installed_converter_is_found_by_its_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    from oracle.service import converters

    entry = importlib.metadata.EntryPoint("canlog", CONVERTER, converters.ENTRY_POINT_GROUP)

    def entry_points(group: str) -> list[importlib.metadata.EntryPoint]:
        return [entry] if group == converters.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    converters_of.cache_clear()  # the installed converters are looked up once per process
    [found] = converters.installed_converters()
    assert found.name == "canlog" and found.suffixes == (".canlog",)
    code, out = run("replay", str(ROOT / "examples" / "canlog" / "game-21.canlog"))  # no --converter needed
    converters_of.cache_clear()
    assert code == 0 and "; OK" in out
