"""The command line: score, minimum and rules output, and errors as one clear line with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from oracle.cli.main import VERBS, main
from oracle.ruleset import loader
from oracle.ruleset.loader import RuleBook, SpecError, default_rule_book, shipped_rule_set

ROOT = Path(__file__).resolve().parent.parent
WORKED_HAND = ROOT / "examples" / "seed-001-worked-hand.json"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), prog_name="canasta-oracle")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_score_prints_the_seed_001_worked_hand() -> None:
    # You: KKKKKKK natural canasta, 8 8 8 8 8 2 JK mixed canasta, A A A, one red three, went out.
    # Computer: 9 9 9 9 2, 5 5 5, holding JK Q 7 4.
    code, out, _ = run("score", "--rules", "classic-2p", str(WORKED_HAND))
    assert code == 0
    assert out.splitlines()[-1] == "You: 1250  Computer: 5"
    assert "     500  natural canasta" in out
    assert "     300  mixed canasta" in out
    assert "     -70  cards in hand" in out


def test_score_json_is_the_score_hand_response() -> None:
    code, out, _ = run("score", str(WORKED_HAND), "--json")  # rule set taken from the file
    assert code == 0
    response = json.loads(out)
    assert [side["total"] for side in response["sides"]] == [1250, 5]
    assert response["sides"][0]["lines"][3] == {
        "item": "SCORE_ITEM_NATURAL_CANASTA",
        "points": 500,
        "detail": "natural canasta of kings",
        "field": "canastas.natural_bonus",
    }


@pytest.mark.parametrize(
    ("total", "expected"), [("-5", "15"), ("0", "50"), ("1495", "50"), ("1500", "90"), ("2995", "90"), ("3000", "120")]
)
def test_minimum_prints_the_number(total: str, expected: str) -> None:
    code, out, _ = run("minimum", "--rules", "classic-4p", "--", total)
    assert (code, out) == (0, expected + "\n")


def test_minimum_json() -> None:
    code, out, _ = run("minimum", "--rules", "classic-2p", "--json", "1500")
    assert code == 0
    assert json.loads(out) == {"minimum": 90, "fromScore": 1500}


def test_rules_list_names_every_rule_set() -> None:
    code, out, _ = run("rules", "list")
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines()]
    assert ids == sorted(ids) and {"classic-2p", "classic-4p", "bicycle-4p"} <= set(ids)
    assert "(extends classic-4p)" in out


def test_rules_show_prints_values_with_citations() -> None:
    code, out, _ = run("rules", "show", "classic-4p")
    assert code == 0
    assert "  canastas_required = 1" in out
    assert 'cite: 4P-CLASSIC, "Going out"' in out
    assert "  thresholds = from 0: 50; from 1500: 90; from 3000: 120" in out
    assert "choice: Bicycle says a black three also freezes the pile" in out


def test_rules_show_json_is_the_resolved_rule_set() -> None:
    code, out, _ = run("rules", "show", "classic-2p", "--json")
    assert code == 0
    spec = json.loads(out)
    assert spec["id"] == "classic-2p"
    assert spec["goingOut"]["canastasRequired"] == 2
    assert spec["turn"]["drawCount"] == 2


def test_unknown_rule_set_is_one_line_and_exit_2() -> None:
    code, out, err = run("minimum", "--rules", "classic-9p", "0")
    assert code == 2
    assert out == ""
    assert err.startswith("canasta-oracle: unknown rule set 'classic-9p'; known: ")
    assert "classic-2p, classic-4p" in err  # the known ids, sorted
    assert err.count("\n") == 1


def test_bad_card_token_names_token_position_and_path(tmp_path: Path) -> None:
    table = json.loads(WORKED_HAND.read_text())
    table["sides"][1]["hands"] = ["JK QS 10C 4D"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(table))
    code, _, err = run("score", str(path))
    assert code == 2
    assert "Traceback" not in err
    assert "sides[1].hands[0]: card 3: '10C' is not a card" in err


def test_impossible_table_is_refused_with_the_field(tmp_path: Path) -> None:
    table = json.loads(WORKED_HAND.read_text())
    table["sides"][1]["melds"][1] = "5H 5D 3H"  # a red three in a meld
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(table))
    code, _, err = run("score", str(path))
    assert code == 2
    assert "table.sides[1].melds[1]: a red three (3H) never goes in a meld" in err


def test_unknown_field_in_table_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"ruleSetId": "classic-2p", "sidez": []}')
    code, _, err = run("score", str(path))
    assert code == 2
    assert "sidez" in err and "Traceback" not in err


def test_textproto_table_file(tmp_path: Path) -> None:
    path = tmp_path / "hand.textproto"
    path.write_text(
        'rule_set_id: "classic-2p"\n'
        'sides { melds: "AH AD AS" hands: "4C" }\n'
        'sides { melds: "KH KD KS KC KH KD KS" melds: "QH QD QS QC QH QD JK" hands: "" '
        "went_out: WENT_OUT_NORMAL }\n"
    )
    code, out, _ = run("score", str(path))
    assert code == 0
    # side 0: 60 - 5; side 1: 70 (kings) + 110 (six queens + joker) + 500 + 300 + 100
    assert out.splitlines()[-1] == "side 0: 55  side 1: 1080"


def test_score_needs_a_rule_set(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text('{"sides": []}')
    code, _, err = run("score", str(path))
    assert code == 2
    assert "no rule set" in err


FROZEN = ROOT / "examples" / "frozen-pile-2p.json"


def test_check_legal_exits_0_and_prints_events() -> None:
    # hand 9H 9D ...; pile 5D 2D 8H 9S frozen by the 2D: a natural pair takes it
    code, out, _ = run("check", "--state", str(FROZEN), "--action", "take-pile with 9H 9D")
    assert code == 0
    assert out.splitlines()[0] == "legal: take-pile with 9H 9D"
    assert "seat 0 took the pile: top 9S melded, 3 card(s) to hand" in out


def test_check_illegal_exits_1_with_code_field_and_citation() -> None:
    code, out, _ = run("check", "--state", str(FROZEN), "--action", "take-pile with 9H JK")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "illegal: take-pile with 9H JK"
    assert lines[1].startswith("  PILE_FROZEN_NEEDS_NATURAL_PAIR (discard_pile.frozen_by_wild): ")
    assert lines[2] == (
        '    cite: 2P-GUIDE, "Taking the discard pile (and freezing it)"; 2P-RULES, "Taking the discard pile"'
    )


def test_check_json_is_the_check_action_response() -> None:
    code, out, _ = run("check", "--state", str(FROZEN), "--action", "meld 9H JK 2C", "--json")
    assert code == 1
    response = json.loads(out)
    assert response["legal"] is False
    # wrong phase (not drawn yet) and too few naturals, both reported
    assert [v["code"] for v in response["violations"]] == ["WRONG_PHASE", "MELD_TOO_FEW_NATURALS"]


def test_check_bad_action_notation_is_an_error() -> None:
    code, _, err = run("check", "--state", str(FROZEN), "--action", "meld 9H QQ")
    assert code == 2
    assert err == "canasta-oracle: action: at character 9: 'QQ' is not a card: suit 'Q' is not one of C D H S\n"


def test_check_inconsistent_state_is_an_error_listing_problems(tmp_path: Path) -> None:
    state = json.loads(FROZEN.read_text())
    state["seats"][1]["hand"] += " 3H"  # a red three held, and a third 3H in the deck
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(state))
    code, _, err = run("check", "--state", str(path), "--action", "draw")
    assert code == 2
    assert err.startswith("canasta-oracle: the state is inconsistent:\n")
    assert "state.seats[1].hand[12]: 3H is a red three" in err


def test_validate_reports_valid_and_invalid(tmp_path: Path) -> None:
    assert run("validate", "--state", str(FROZEN))[:2] == (0, "valid\n")
    state = json.loads(FROZEN.read_text())
    state["fillStock"] = False
    path = tmp_path / "short.json"
    path.write_text(json.dumps(state))
    code, out, _ = run("validate", "--state", str(path))
    assert code == 1
    assert out.startswith("invalid:\n")
    assert "missing: every card of the deck must be somewhere" in out


RECORD = ROOT / "conformance" / "records" / "classic-2p" / "game-0.json"


def test_replay_a_clean_record_exits_0() -> None:
    code, out, _ = run("replay", str(RECORD))
    assert code == 0
    assert out.splitlines()[-1].endswith("actions judged; OK")
    assert "game over: side" in out


def test_replay_reports_an_illegal_action_and_exits_1(tmp_path: Path) -> None:
    record = json.loads(RECORD.read_text())
    actions = record["hands"][0]["actions"]
    index = next(i for i, a in enumerate(actions) if "discard" in a and i > 5)
    actions[index] = {"draw": {}}  # drawing where the player had to discard
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    code, out, _ = run("replay", str(path))
    assert code == 1
    assert f"ILLEGAL: hand 0, action {index} " in out
    assert "WRONG_PHASE (turn): cannot draw: the player already" in out


def test_replay_reports_claimed_scores_that_differ(tmp_path: Path) -> None:
    record = json.loads(RECORD.read_text())
    record["hands"][0]["claimedScores"][1] += 10
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(record))
    code, out, _ = run("replay", str(path), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False
    mismatch = report["mismatches"][0]
    assert (mismatch["hand"], mismatch["side"], mismatch["what"]) == (0, 1, "hand score")
    assert mismatch["claimed"] == mismatch["computed"] + 10


def test_perft_command_checks_the_shipped_counts() -> None:
    code, out, _ = run("perft")
    assert code == 0
    assert out.splitlines()[-1].endswith("passed, 0 failed")


def test_conformance_command_passes_and_writes_junit(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    code, out, _ = run("conformance", "--rules", "classic-2p", "--junit-xml", str(junit))
    assert code == 0
    assert out.splitlines()[-1].endswith(" skipped") and " 0 failed" in out.splitlines()[-1]
    import xml.etree.ElementTree as ET

    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites" and len(root) >= 10
    assert sum(int(s.get("failures", "0")) for s in root) == 0


def test_conformance_expected_failure_that_passes_fails_the_run(tmp_path: Path) -> None:
    xfail = tmp_path / "xfail.txt"
    xfail.write_text("# we thought we failed this one\nminimum.minus-5-2p\n")
    code, out, _ = run("conformance", "--rules", "classic-2p", "--expected-failures", str(xfail))
    assert code == 1
    assert "XPASS: minimum.minus-5-2p" in out


def test_conformance_against_a_server(tmp_path: Path) -> None:
    from server_harness import ServerThread

    from oracle.ruleset.loader import default_rule_book

    server = ServerThread(default_rule_book())
    try:
        code, out, _ = run("conformance", "--target", server.address, "--json")
    finally:
        server.close()
    assert code == 0
    results = json.loads(out)
    assert len(results) >= 150 and {r["status"] for r in results} == {"pass"}


# The fast start: the group imports a verb's module only when the verb runs, and modules import what is heavy
# inside the verb; a shipped rule set loads with only the files of its `extends` chain.

PROBE = """
import sys
from oracle.cli.main import main
try:
    main(sys.argv[1:], prog_name="canasta-oracle")
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + " ".join(sys.modules))
"""
ENGINE = ("oracle.rules", "oracle.games", "oracle.service", "oracle.verify", "oracle.conformance", "oracle.bench")
HEAVY = ("asyncio", "grpc", "z3", *ENGINE)


def modules_imported_by(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    return set(done.stderr.rpartition("MODULES ")[2].split())


def loaded_from(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


def test_help_imports_no_verb_protobuf_rule_book_or_engine() -> None:
    modules = modules_imported_by("--help")
    assert loaded_from(modules, ("oracle.cli",)) == ["oracle.cli", "oracle.cli.main"]
    assert loaded_from(modules, ("google.protobuf", "oracle.ruleset", "oracle.api", *HEAVY)) == []


def test_minimum_imports_only_the_rule_book() -> None:
    modules = modules_imported_by("minimum", "--rules", "classic-2p", "0")
    assert "oracle.ruleset.loader" in modules
    assert loaded_from(modules, HEAVY) == []
    verbs = loaded_from(modules, ("oracle.cli",))
    assert verbs == ["oracle.cli", "oracle.cli.hand", "oracle.cli.main", "oracle.cli.support"]  # no other verb's


def test_every_verb_loads_under_its_own_name() -> None:
    context = click.Context(main)
    for verb in VERBS:
        command = main.get_command(context, verb)
        assert command is not None and command.name == verb
    assert main.get_command(context, "no-such-verb") is None


@pytest.mark.parametrize("width", [50, 80, 200])
def test_help_lists_every_verb_as_its_own_help_would(width: int) -> None:
    # --help lists the verbs from VERBS without importing them: it must read as the commands themselves would.
    context = click.Context(main)
    loaded = {verb: main.get_command(context, verb) for verb in VERBS}
    for verb, command in loaded.items():
        assert command is not None
        for limit in range(10, 120):
            stand_in = click.Command(verb, help=VERBS[verb].summary)
            assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit), (
                f"VERBS[{verb!r}].summary differs from the first sentence of the command's help"
            )
    eager = click.Group(
        main.name, commands=loaded, params=main.params, help=main.help, context_settings=main.context_settings
    )
    lazy_help = CliRunner().invoke(main, ["--help"], prog_name="canasta-oracle", terminal_width=width)
    eager_help = CliRunner().invoke(eager, ["--help"], prog_name="canasta-oracle", terminal_width=width)
    assert lazy_help.exit_code == eager_help.exit_code == 0
    assert lazy_help.stdout == eager_help.stdout
    assert all(f"  {verb} " in lazy_help.stdout for verb in VERBS)


def test_a_shipped_rule_set_loaded_alone_equals_the_one_in_the_whole_book() -> None:
    book = default_rule_book()
    for rule_set_id in book.ids():
        alone = shipped_rule_set(rule_set_id)
        whole = book.get(rule_set_id)
        assert (alone.spec, alone.lineage, alone.origins) == (whole.spec, whole.lineage, whole.origins)
        assert alone.rules == whole.rules


def broken_copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    specs = tmp_path / "specs"
    specs.mkdir()
    shipped = resources.files("oracle.specs")
    for entry in shipped.iterdir():
        if entry.name.endswith(".textproto"):
            (specs / entry.name).write_text(entry.read_text(encoding="utf-8"), encoding="utf-8")
    text = (specs / name).read_text(encoding="utf-8")
    assert old in text
    (specs / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return specs


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("classic-4p.textproto", "\ntitle:", "\nno_such_field: 1\ntitle:"),  # the base of bicycle-4p
        ("bicycle-4p.textproto", 'extends: "classic-4p"', 'extends: "classic-9p"'),
        ("bicycle-4p.textproto", 'id: "bicycle-4p"', 'id: "bicycle-5p"'),
    ],
)
def test_a_problem_in_the_chain_reads_as_the_whole_book_reports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, old: str, new: str
) -> None:
    specs = broken_copy(tmp_path, name, old, new)
    with pytest.raises(SpecError) as whole:
        RuleBook.from_directory(specs)
    # the uncached function, reading the broken copy, and the whole broken book as its fallback
    monkeypatch.setattr(loader.resources, "files", lambda package: specs)
    monkeypatch.setattr(loader, "default_rule_book", lambda: RuleBook.from_directory(specs))
    with pytest.raises(SpecError) as alone:
        loader.shipped_rule_set.__wrapped__("bicycle-4p")
    assert alone.value.problems == whole.value.problems


def test_a_specs_directory_is_still_loaded_whole(tmp_path: Path) -> None:
    specs = broken_copy(tmp_path, "bicycle-4p.textproto", "\ntitle:", "\nno_such_field: 1\ntitle:")
    code, out, err = run("minimum", "--rules", "classic-2p", "--specs", str(specs), "0")
    assert (code, out) == (2, "")
    assert err.startswith("canasta-oracle: cannot load rule sets:\n  bicycle-4p.textproto:")
    assert "no_such_field" in err
