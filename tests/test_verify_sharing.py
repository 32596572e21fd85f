"""Work verify shares between rule sets and worker processes: a shared or handed-over score extreme, proof or
boundary search is the one a fresh run gives, and the results do not depend on the number of processes or the
order of the rule sets."""

from __future__ import annotations

import pytest
import z3

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.loader import default_rule_book
from oracle.verify import budget, footprint, hand, hand_read, hand_split, workers
from oracle.verify.boundary_stock import stock_end_cases
from oracle.verify.hand import side_hand
from oracle.verify.hand_read import extreme_key, extreme_side, score_extremes
from oracle.verify.model import MeldCounts, RuleModel
from oracle.verify.model_formation import lone_hand
from oracle.verify.properties import check_properties
from oracle.verify.report import RuleSetVerification, shipped_book, verify_one
from oracle.verify.term_copy import translated
from oracle.verify.workers import verify_in_workers, weight

BOOK = default_rule_book()


@pytest.fixture
def empty_cache(monkeypatch: pytest.MonkeyPatch) -> dict[str, hand_read.ConcreteSide | None]:
    """The extremes cache of this process, emptied for the test (restored after)."""
    cache: dict[str, hand_read.ConcreteSide | None] = {}
    monkeypatch.setattr(hand_read, "_extremes_cache", cache)
    return cache


def model(rule_set_id: str) -> RuleModel:
    return RuleModel(BOOK.get(rule_set_id).rules)


def outcome(result: RuleSetVerification) -> tuple[object, ...]:
    """What a verification found, without its timings: properties, lint findings and every engine case."""
    assert result.engine is not None
    return (
        result.rule_set_id,
        [(p.property_id, p.holds, p.applicable, p.detail) for p in result.properties],
        result.findings,
        [c.to_json() for c in result.engine.cases],
    )


def test_an_extreme_is_the_same_proof_whatever_z3_was_asked_before(
    empty_cache: dict[str, hand_read.ConcreteSide | None],
) -> None:
    budget.fresh_z3_context()
    first = extreme_side(model("classic-4p"), sign=1)
    assert first is not None and first.total == 7320  # the highest side table score-bounds reports for classic-4p
    empty_cache.clear()
    budget.fresh_z3_context()
    other = side_hand(model("american-4p"))  # unrelated terms and a check in the caller's context
    solver = budget.PROOF_BUDGET.solver()
    solver.add(*other.constraints, other.total >= 100)
    assert solver.check() == z3.sat
    again = extreme_side(model("classic-4p"), sign=1)
    assert again == first
    # the caller's context is left as it was: its terms still combine with new ones
    assert solver.check(other.total >= 200) == z3.sat


def test_rule_sets_that_score_alike_share_an_extreme_equal_to_their_own_fresh_proof(
    empty_cache: dict[str, hand_read.ConcreteSide | None],
) -> None:
    # bicycle-4p differs from classic-4p, but not in a scoring field (hand.SIDE_FIELDS)
    key = extreme_key(BOOK.get("classic-4p").rules.spec, partnership=False, sign=-1)
    assert extreme_key(BOOK.get("bicycle-4p").rules.spec, partnership=False, sign=-1) == key
    assert extreme_key(BOOK.get("american-4p").rules.spec, partnership=False, sign=-1) != key
    shared = extreme_side(model("classic-4p"), sign=-1)
    high = extreme_key(BOOK.get("classic-4p").rules.spec, partnership=False, sign=1)
    assert set(empty_cache) == {key, high}  # the lowest and the highest are proved together
    assert extreme_side(model("bicycle-4p"), sign=-1) is shared  # a cache hit: no second proof
    empty_cache.clear()
    assert extreme_side(model("bicycle-4p"), sign=-1) == shared  # bicycle-4p's own proof: the same table
    found = score_extremes(model("bicycle-4p"))
    assert found is not None and found.low == shared and found.low.total == -1980


def test_workers_give_the_serial_results_in_the_order_asked_whatever_the_order() -> None:
    # two rule sets sharing every extreme, one side formed during the hand (a partnership's extremes too)
    ids = ["bicycle-4p", "cutthroat-3p", "classic-4p"]
    serial = {i: outcome(verify_one(i, BOOK.get(i).rules)) for i in ids}
    for order in (ids, ids[::-1]):
        parallel = verify_in_workers(order, BOOK, None, shipped_book, None, 2, verify_one)
        assert [r.rule_set_id for r in parallel] == order
        assert [outcome(r) for r in parallel] == [serial[i] for i in order]


def test_a_search_for_extremes_near_an_earlier_one_waits_for_it_and_no_lead_waits() -> None:
    searches, _ = workers._searches(BOOK.ids(), BOOK)
    order = sorted(searches, key=lambda k: (-weight(BOOK.get(searches[k][0]).rules), k))
    waits = workers._search_leads(order, searches, BOOK)
    hand_and_foot = [k for k in order if searches[k][0].startswith("hand-and-foot")]
    assert len(hand_and_foot) >= 2  # house rules of Hand and Foot that score apart, sharing the rank tables
    first, *later = hand_and_foot
    assert waits[first] == [] and all(waits[k] == [first] for k in later)
    assert all(waits[lead] == [] for k in order for lead in waits[k])  # one step only: no chain


def test_a_search_for_extremes_hands_back_the_answers_it_shared_and_uses_those_handed_to_it(
    monkeypatch: pytest.MonkeyPatch,
    empty_cache: dict[str, hand_read.ConcreteSide | None],
    kept: dict[str, dict[footprint.Footprint, object]],
) -> None:
    monkeypatch.setattr(workers, "_WORKER", [workers._Worker(BOOK, None, verify_one)])
    sides, answers = workers._extreme_task("hand-and-foot-red-threes-laid-4p", False, [])
    assert len(sides) == 2 and all(side is not None for side in sides.values())  # the lowest and the highest
    assert "hand-split-ranks" in {name for name, _, _ in answers}  # the rank tables, proved in the search
    alone = dict(empty_cache)
    empty_cache.clear()
    kept.clear()  # another worker: nothing kept but what it is handed
    others, again = workers._extreme_task("hand-and-foot-one-each-4p", False, answers)
    assert "hand-split-ranks" not in {name for name, _, _ in again}  # used, not proved again
    kept.clear()
    empty_cache.clear()
    fresh, _ = workers._extreme_task("hand-and-foot-one-each-4p", False, [])
    assert others == fresh and set(others).isdisjoint(alone)  # the same tables as its own search alone


def test_a_freed_worker_takes_the_first_rule_set_whose_side_tables_it_built() -> None:
    _, needs = workers._searches(BOOK.ids(), BOOK)
    ready = ["samba-4p", "classic-4p", "bicycle-4p"]
    assert needs["classic-4p"] == needs["bicycle-4p"] != needs["samba-4p"]  # they score alike
    assert workers._choose(ready, set(needs["classic-4p"]), needs) == "classic-4p"
    assert workers._choose(ready, set(), needs) == "samba-4p"  # none built here: the first, as it comes
    # a side formed during the hand needs both tables (a lone player's and a partnership's)
    assert len(needs["cutthroat-3p"]) == 2
    assert workers._choose(["cutthroat-3p"], set(needs["cutthroat-3p"][:1]), needs) == "cutthroat-3p"
    assert workers._choose(["classic-4p", "cutthroat-3p"], set(needs["cutthroat-3p"]), needs) == "cutthroat-3p"


def test_a_worker_is_handed_only_the_answers_it_does_not_keep() -> None:
    answers = workers._Answers(2)
    first: footprint.Kept = [("lint", (("melds.min_size", 3),), ["a"]), ("lint", (("melds.min_size", 4),), [])]
    answers.returned(0, first)  # worker 0 computed these
    assert answers.for_worker(0) == []
    assert answers.for_worker(1) == first
    assert answers.for_worker(1) == []  # handed once
    later: footprint.Kept = [("stock-end", (("deck.packs", 2),), {"ends": True})]
    answers.returned(1, later)
    assert answers.for_worker(0) == later and answers.for_worker(1) == []


def test_the_costliest_rule_sets_are_weighed_heaviest() -> None:
    weights = {i: weight(BOOK.get(i).rules) for i in BOOK.ids()}
    light = max(weights[i] for i in ("classic-4p", "classic-2p", "wild-melds-4p"))
    assert all(weights[i] > light for i in ("samba-4p", "hand-and-foot-4p", "cutthroat-3p"))


# ----- footprint.shared: answers kept by the fields they read ------------------------------------------------------


@pytest.fixture
def kept(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[footprint.Footprint, object]]:
    """The footprint answers of this process, emptied for the test (restored after)."""
    answers: dict[str, dict[footprint.Footprint, object]] = {}
    monkeypatch.setattr(footprint, "_kept", answers)
    return answers


def test_a_recording_view_notes_each_field_read_and_refuses_writes() -> None:
    spec = BOOK.get("american-4p").rules.spec
    reads: footprint.Reads = {}
    view = footprint.recording(spec, reads)
    assert RuleModel(view).rank_copies == 8  # a model reads nothing until asked: here deck.packs only
    assert view.melds.max_wilds == spec.melds.max_wilds
    assert len(view.melds.rank_rules) == len(spec.melds.rank_rules) > 0
    # a method (here HasField): whatever it reads, the whole message it belongs to counts as read
    assert view.players.HasField("seats") == spec.players.HasField("seats")
    assert list(reads) == ["deck.packs", "melds.max_wilds", "melds.rank_rules", "players"]
    assert reads["melds.rank_rules"] == tuple(r.SerializeToString(deterministic=True) for r in spec.melds.rank_rules)
    assert reads["players"] == spec.players.SerializeToString(deterministic=True)
    assert all(footprint.read_path(spec, path) == value for path, value in reads.items())
    with pytest.raises(TypeError, match="read-only"):
        view.melds.max_wilds = 9
    with pytest.raises(TypeError, match="compared"):
        assert view.melds == spec.melds
    # read again: the same values and views, each field noted once, in the order first read
    assert view.melds is view.melds and view.melds.max_wilds == spec.melds.max_wilds
    assert RuleModel(view).rank_copies == 8 and view.going_out.bonus == spec.going_out.bonus
    assert list(reads) == ["deck.packs", "melds.max_wilds", "melds.rank_rules", "players", "going_out.bonus"]


def test_an_answer_is_shared_only_by_rule_sets_agreeing_on_every_field_it_read(
    kept: dict[str, dict[footprint.Footprint, object]],
) -> None:
    computed: list[str] = []

    def wilds_and_size(spec: ruleset_pb2.RuleSet) -> tuple[int, int]:
        computed.append(spec.id)
        return spec.melds.max_wilds, spec.canastas.min_size

    classic, bicycle = BOOK.get("classic-4p").rules.spec, BOOK.get("bicycle-4p").rules.spec
    assert footprint.shared("t", classic, wilds_and_size) == (3, 7)
    assert computed == ["classic-4p"]  # the id was read too: nothing else shares this answer
    computed.clear()
    assert footprint.shared("t", bicycle, wilds_and_size) == (3, 7)
    assert computed == ["bicycle-4p"]

    def no_id(spec: ruleset_pb2.RuleSet) -> int:
        computed.append("no id")
        return spec.melds.max_wilds

    computed.clear()
    assert footprint.shared("u", classic, no_id) == 3
    assert footprint.shared("u", bicycle, no_id) == 3  # agrees on melds.max_wilds: kept, not computed again
    changed = ruleset_pb2.RuleSet()
    changed.CopyFrom(classic)
    changed.melds.max_wilds = 2
    assert footprint.shared("u", changed, no_id) == 2  # a field it read differs: computed for this rule set
    assert computed == ["no id", "no id"]
    assert len(kept["u"]) == 2


def test_a_shared_proof_is_the_proof_each_rule_set_gets_alone(
    kept: dict[str, dict[footprint.Footprint, object]],
) -> None:
    pair = ("classic-2p", "2p-frozen-take-with-wilds")
    after_classic = [check_properties(RuleModel(BOOK.get(i).rules)) for i in pair][1]
    shared_with = {name: len(answers) for name, answers in kept.items()}
    kept.clear()
    alone = check_properties(RuleModel(BOOK.get(pair[1]).rules))
    assert [(p.property_id, p.holds, p.detail) for p in after_classic] == [
        (p.property_id, p.holds, p.detail) for p in alone
    ]
    # the house rule differs from classic-2p in a pile field only: most proofs were shared, the pile's were not
    assert sum(n == 1 for n in shared_with.values()) > 20
    assert shared_with["property:frozen-pair-takes"] == 2


def test_answers_handed_to_another_process_are_used_without_solver_work(
    kept: dict[str, dict[footprint.Footprint, object]],
) -> None:
    spec = BOOK.get("classic-2p").rules.spec
    first = check_properties(RuleModel(spec))
    handed = footprint.kept()
    kept.clear()
    footprint.adopt(handed)
    checks: list[int] = []
    honest = z3.Solver.check

    def counting(self: z3.Solver, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        checks.append(1)
        return honest(self, *assumptions)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(z3.Solver, "check", counting)
        again = check_properties(RuleModel(spec))
    assert checks == []
    assert [(p.property_id, p.holds, p.detail) for p in again] == [(p.property_id, p.holds, p.detail) for p in first]


def test_a_worker_hands_back_only_the_answers_it_kept_since_it_was_handed_some(
    kept: dict[str, dict[footprint.Footprint, object]],
) -> None:
    classic = BOOK.get("classic-2p").rules.spec
    check_properties(RuleModel(classic))
    handed = footprint.kept()
    before = footprint.kept_keys()
    assert footprint.kept_after(before) == []  # nothing new since
    check_properties(RuleModel(BOOK.get("samba-4p").rules.spec))  # other fields: answers of its own
    new = footprint.kept_after(before)
    assert new and all((name, fp) not in before for name, fp, _ in new)
    # what was handed plus what came back is everything the process keeps
    assert sorted(map(repr, handed + new)) == sorted(map(repr, footprint.kept()))


def test_the_stock_end_answers_are_shared_and_each_rule_set_gets_its_own_cases(
    kept: dict[str, dict[footprint.Footprint, object]],
) -> None:
    def cases(rule_set_id: str) -> list[dict[str, object]]:
        rules = BOOK.get(rule_set_id).rules
        return [c.to_json() for c in stock_end_cases(RuleModel(rules.spec), rules)]

    together = {i: cases(i) for i in BOOK.ids()}
    assert 1 <= len(kept["stock-end"]) < len(together) / 2  # most rule sets agree on the stock's rules
    for rule_set_id in ("classic-2p", "cutthroat-3p", "samba-4p", "hand-and-foot-4p", "american-4p"):
        kept.clear()  # alone, with nothing kept
        assert cases(rule_set_id) == together[rule_set_id]
        assert all(c["ruleSetId"] == rule_set_id for c in together[rule_set_id])


def test_terms_copied_into_another_context_keep_their_structure_class_and_answers() -> None:
    with budget.own_z3_context():
        x, y = z3.Ints("x y")
        original = {"pair": (x + y, [x >= 2, z3.Or(y == x, y > 5)]), "meld": MeldCounts(x, y, z3.IntVal(0))}
        source = x.ctx
    target = z3.Context()
    copy = translated(original, target)
    assert isinstance(copy["meld"], MeldCounts) and isinstance(copy["pair"], tuple)
    pairs = [
        (copy["pair"][0], original["pair"][0]),
        *zip(copy["pair"][1], original["pair"][1], strict=True),
        (copy["meld"].naturals, x),
        (copy["meld"].jokers, original["meld"].jokers),
    ]
    for copied, term in pairs:
        assert copied.ctx is target and term.ctx is source
        assert type(copied) is type(term) and copied.sexpr() == term.sexpr()
    solver = z3.Solver(ctx=target)
    solver.add(*copy["pair"][1], copy["pair"][0] < 5)  # x >= 2, y == x: x + y = 4 is the only way below 5
    assert solver.check() == z3.sat
    assert solver.model().eval(copy["pair"][0]).as_long() == 4


def test_a_side_table_reads_only_the_fields_it_is_kept_by(monkeypatch: pytest.MonkeyPatch) -> None:
    # side_hand keeps one table per process for the values of hand.SIDE_FIELDS (and the extremes their key): a
    # field it read beyond them could give two rule sets one table that only one of them has
    monkeypatch.setattr(hand, "_built", {})
    for rule_set_id in BOOK.ids():
        spec = BOOK.get(rule_set_id).rules.spec
        for partnership in (False, True) if lone_hand(spec) else (False,):
            reads: footprint.Reads = {}
            with budget.own_z3_context():
                side_hand(RuleModel(footprint.recording(spec, reads)), "t", partnership=partnership)
            assert set(reads) <= set(hand.SIDE_FIELDS), (rule_set_id, set(reads) - set(hand.SIDE_FIELDS))
            assert len(reads) > 20, rule_set_id
        if spec.melds.one_open_meld_per_rank and hand_split.splits(spec):
            # the highest table proved rank by rank (hand_read.extreme_side) is kept by the same fields
            reads = {}
            with budget.own_z3_context():
                assert hand_split.highest_split(RuleModel(footprint.recording(spec, reads))) is not None
            assert set(reads) <= set(hand.SIDE_FIELDS), (rule_set_id, set(reads) - set(hand.SIDE_FIELDS))


def test_a_table_kept_by_some_fields_is_refused_when_it_reads_another() -> None:
    spec = BOOK.get("classic-4p").rules.spec
    assert footprint.read_within(spec, ["deck.packs"], lambda s: s.deck.packs) == spec.deck.packs
    with pytest.raises(RuntimeError, match=r"read others too: \['deck.jokers'\]"):
        footprint.read_within(spec, ["deck.packs"], lambda s: s.deck.packs + s.deck.jokers)
    reads: footprint.Reads = {}  # inside a shared computation: the inner reads are checked, not noted outside
    assert footprint.read_within(footprint.recording(spec, reads), ["deck.packs"], lambda s: s.deck.packs) == 2
    assert reads == {}


def test_a_kept_side_table_is_copied_into_the_context_that_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hand, "_built", {})
    budget.fresh_z3_context()
    first = side_hand(model("classic-4p"))
    budget.fresh_z3_context()
    again = side_hand(model("bicycle-4p"))  # the same fields: the kept table, copied into the new context
    assert len(hand._built) == 1
    assert again.total.ctx == z3.main_ctx() and first.total.ctx != again.total.ctx
    assert again.total.sexpr() == first.total.sexpr()
    solver = budget.PROOF_BUDGET.solver()
    solver.add(*again.constraints, again.total >= 7320)
    assert solver.check() == z3.sat
    assert solver.check(again.total >= 7321) == z3.unsat  # the highest score-bounds reports for both


def test_kept_side_tables_share_one_context_and_copy_as_a_table_built_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def samba_table() -> tuple[str, list[int]]:
        budget.fresh_z3_context()
        table = side_hand(model("samba-4p"))
        solver = budget.PROOF_BUDGET.solver()
        solver.add(*table.constraints, table.went_out == 1)
        assert solver.check(table.total >= 11000) == z3.sat
        shown = solver.model()
        counts = [shown.eval(t, model_completion=True).as_long() for t in (table.total, *table.items.values())]
        return table.total.sexpr() + "".join(c.sexpr() for c in table.constraints), counts

    monkeypatch.setattr(hand, "_built", {})
    monkeypatch.setattr(hand, "_tables", [])
    budget.fresh_z3_context()
    side_hand(model("classic-4p"))
    side_hand(model("american-4p"))
    after_others = samba_table()
    assert len(hand._built) == 3 and len(hand._tables) == 1
    assert {t.total.ctx for t in hand._built.values()} == {hand._tables[0]}  # one context holds every kept table
    monkeypatch.setattr(hand, "_built", {})
    monkeypatch.setattr(hand, "_tables", [])
    assert samba_table() == after_others  # alone in the kept context: the same terms, answers and model
