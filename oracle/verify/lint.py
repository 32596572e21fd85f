"""Spec lint: Z3 finds contradictory or dead rule-set settings and explains each in a plain sentence naming the field.

`lint(rules_or_spec)` takes a CompiledRules or a resolved RuleSet message and
returns LintFinding(field, message, severity, rule) values:

* severity "error": the settings contradict each other, so part of the game
  can never happen (no meld can be legal, no canasta can be completed, nobody
  can go out, a minimum can never be met, a frozen pile can never be taken, a
  player can be left with no legal play). A loader may refuse such a rule set.
* severity "warning": a setting is dead (it can never apply: a threshold row
  past the target score, a max_wilds the wild ratio never lets a meld reach, a
  wild_may_join_natural no canasta can use) or breaks what every rule book
  has (wild cards outnumbering naturals in a canasta, a natural canasta not
  worth more than a mixed one).

Where something is impossible, the explanation is the solver's unsat core:
the smallest set of rules that together rule it out, each in words with its
field. The module has no side effects on import (beyond importing z3), and a
lint call builds one solver and runs a few dozen small queries on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import CompiledRules
from oracle.verify.model import (
    NATURAL_RANKS,
    Clause,
    Cond,
    MeldCounts,
    MeldSet,
    RuleModel,
    meld_counts,
    rank_value_field,
)

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class LintFinding:
    """A contradictory or dead setting: the rule-set field, a plain sentence, and how bad it is."""

    field: str  #: dotted rule-set field path, e.g. 'melds.max_wilds'
    message: str  #: what is wrong and why, in words
    severity: str  #: ERROR (contradictory) or WARNING (dead or unusual)
    rule: str = ""  #: the lint rule's id, e.g. 'no-canasta'


def _phrase(clauses: Sequence[Clause]) -> str:
    """'a (f1), b (f2) and c (f3)', without repeats."""
    parts: list[str] = []
    for c in clauses:
        text = f"{c.text} ({c.field})" if c.field else c.text
        if text not in parts:
            parts.append(text)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class _Linter:
    """One rule set's lint run: a model, a shared solver, and the findings so far."""

    def __init__(self, rm: RuleModel) -> None:
        self.rm = rm
        self.solver = z3.Solver()
        self.solver.set("core.minimize", True)
        self.findings: list[LintFinding] = []
        self._melds: MeldSet | None = None

    @property
    def melds(self) -> MeldSet:
        """A side's melds at once (built on first use, shared by the checks that need it)."""
        if self._melds is None:
            self._melds = self.rm.melds_at_once("melds")
        return self._melds

    def add(self, rule: str, severity: str, field: str, message: str) -> None:
        self.findings.append(LintFinding(field, message, severity, rule))

    def core(self, clauses: Sequence[Clause], context: Sequence[Cond] = ()) -> list[Clause] | None:
        """None when the clauses can all hold (with `context`); otherwise a minimal set of them that cannot."""
        s = self.solver
        s.push()
        s.add(*context)
        labels = [z3.Bool(f"lint!{i}") for i in range(len(clauses))]
        for label, clause in zip(labels, clauses, strict=True):
            s.add(z3.Implies(label, clause.expr))
        result = s.check(*labels)
        found: list[Clause] | None = None
        if result == z3.unsat:
            names = {str(c) for c in s.unsat_core()}
            found = [clause for label, clause in zip(labels, clauses, strict=True) if str(label) in names]
        s.pop()
        return found

    def witness(self, conditions: Sequence[Cond]) -> z3.ModelRef | None:
        """A model of the conditions, or None."""
        s = self.solver
        s.push()
        s.add(*conditions)
        model = s.model() if s.check() == z3.sat else None
        s.pop()
        return model


def _field_of(core: Sequence[Clause], prefer: str) -> str:
    fields = [c.field for c in core if c.field]
    if prefer in fields:
        return prefer
    return next((f for f in fields if not f.startswith("deck.")), fields[0] if fields else prefer)


def _meld_rules(lt: _Linter, m: MeldCounts, skip: str = "") -> list[Clause]:
    rm = lt.rm
    return [c for c in rm.natural_meld_clauses(m) if c.field != skip] + rm.deck_clauses(m)


def _melds_and_canastas(lt: _Linter) -> bool:
    """Errors when no meld or no canasta can be legal; True when both are possible."""
    rm = lt.rm
    m = meld_counts("meld")
    has_natural = [m.naturals >= 1, m.wilds >= 0]
    core = lt.core(_meld_rules(lt, m), has_natural)
    if core is not None:
        lt.add(
            "no-legal-meld",
            ERROR,
            _field_of(core, "melds.min_size"),
            f"no meld of a natural rank can ever be legal: {_phrase(core)}",
        )
        return False
    size = Clause("canastas.min_size", f"a canasta needs at least {rm.canasta_size} cards", rm.is_canasta(m))
    core = lt.core([*_meld_rules(lt, m), size], has_natural)
    if core is not None:
        lt.add(
            "no-canasta",
            ERROR,
            _field_of(core, "canastas.min_size"),
            f"no canasta can ever be completed: {_phrase(core)}",
        )
        return False
    natural = Clause("canastas.natural_bonus", "a natural canasta has no wild card", m.wilds == 0)
    core = lt.core([*_meld_rules(lt, m), size, natural], has_natural)
    if core is not None:
        lt.add(
            "natural-canasta-impossible",
            WARNING,
            "canastas.natural_bonus",
            f"canastas.natural_bonus can never be earned, as no natural canasta is possible:"
            f" {_phrase([c for c in core if c is not natural] or core)}",
        )
    mixed = Clause("canastas.mixed_bonus", "a mixed canasta holds a wild card", m.wilds >= 1)
    core = lt.core([*_meld_rules(lt, m), size, mixed], has_natural)
    w = meld_counts("wild_only")
    wild_canasta = lt.witness([rm.legal_wild_meld(w), rm.is_canasta(w), rm.in_deck(w)])
    if core is not None and wild_canasta is None:
        lt.add(
            "mixed-canasta-impossible",
            WARNING,
            "canastas.mixed_bonus",
            f"canastas.mixed_bonus can never be earned, as no canasta can hold a wild card:"
            f" {_phrase([c for c in core if c is not mixed] or core)}",
        )
    return True


def _limits_dead(lt: _Linter) -> None:
    """Warnings for meld limits that can never bite or never be reached."""
    rm, s = lt.rm, lt.rm.spec.melds
    m = meld_counts("meld")
    has_natural = [m.naturals >= 1, m.wilds >= 0]
    if s.max_wilds > 0:
        exact = Clause("melds.max_wilds", f"it would hold exactly {s.max_wilds} wild cards", m.wilds == s.max_wilds)
        core = lt.core([*_meld_rules(lt, m), exact], has_natural)
        if core is not None:
            rest = [c for c in core if c is not exact] or core
            lt.add(
                "max-wilds-unreachable",
                WARNING,
                "melds.max_wilds",
                f"melds.max_wilds {s.max_wilds} can never be reached: {_phrase(rest)}",
            )
    ratio = [c for c in rm.natural_meld_clauses(m) if c.field == "melds.wild_ratio"]
    if ratio:
        broken = Clause("melds.wild_ratio", "a meld would break the wild ratio", z3.Not(ratio[0].expr))
        core = lt.core([*_meld_rules(lt, m, skip="melds.wild_ratio"), broken], has_natural)
        if core is not None:
            rest = [c for c in core if c is not broken] or core
            lt.add(
                "wild-ratio-dead",
                WARNING,
                "melds.wild_ratio",
                f"melds.wild_ratio never applies, as every meld the other limits allow already meets it:"
                f" {_phrase(rest)}",
            )
    if s.max_size:
        over = Clause("melds.max_size", f"a meld would have more than {s.max_size} cards", m.size > s.max_size)
        core = lt.core([*_meld_rules(lt, m, skip="melds.max_size"), over], has_natural)
        if core is not None:
            rest = [c for c in core if c is not over] or core
            lt.add(
                "max-size-dead",
                WARNING,
                "melds.max_size",
                f"melds.max_size {s.max_size} never applies, as no meld can grow past it: {_phrase(rest)}",
            )
    if s.wild_only_melds:
        w = meld_counts("wild_only")
        core = lt.core(rm.wild_meld_clauses(w) + rm.deck_clauses(w), [w.naturals == 0, w.wilds >= 1])
        if core is not None:
            lt.add(
                "wild-only-dead",
                WARNING,
                "melds.wild_only_melds",
                f"melds.wild_only_melds never applies, as no meld of wild cards alone can be legal: {_phrase(core)}",
            )


def _canasta_quality(lt: _Linter) -> None:
    """Canastas unlike every rule book's: mostly wild (an error: the books define a canasta as mostly natural), or a
    natural one not worth more (a warning)."""
    rm, c = lt.rm, lt.rm.spec.canastas
    m = meld_counts("canasta")
    canasta = [rm.legal_natural_meld(m), rm.is_canasta(m), rm.in_deck(m)]
    found = lt.witness([*canasta, m.wilds >= m.naturals])
    if found is not None:
        n = found.eval(m.naturals).as_long()
        while n > 1 and (fewer := lt.witness([*canasta, m.wilds >= m.naturals, m.naturals == n - 1])) is not None:
            found, n = fewer, n - 1  # report the canasta with the fewest naturals
        w = found.eval(m.wilds).as_long()
        lt.add(
            "canasta-mostly-wild",
            ERROR,
            "melds.max_wilds",
            f"a canasta may hold {w} wild cards and only {n} naturals (melds.max_wilds"
            f" {rm.spec.melds.max_wilds}, canastas.min_size {rm.canasta_size}, melds.min_naturals"
            f" {rm.spec.melds.min_naturals}); every rule book's canasta has more naturals than wild cards",
        )
    natural, mixed = meld_counts("natural"), meld_counts("mixed")
    pair = [
        rm.legal_natural_meld(natural),
        rm.is_natural_canasta(natural),
        rm.in_deck(natural),
        rm.legal_natural_meld(mixed),
        rm.is_canasta(mixed),
        mixed.wilds >= 1,
        rm.in_deck(mixed),
        mixed.size == natural.size,
    ]
    for rank in {rank_value_field(r): r for r in NATURAL_RANKS}.values():
        value = z3.IntVal(rm.rank_value(rank))
        nat = rm.meld_points(natural, value) + rm.canasta_bonus(natural)
        mix = rm.meld_points(mixed, value) + rm.canasta_bonus(mixed)
        found = lt.witness([*pair, nat <= mix])
        if found is not None:
            size, wilds = found.eval(natural.size).as_long(), found.eval(mixed.wilds).as_long()
            lt.add(
                "natural-canasta-not-better",
                WARNING,
                "canastas.natural_bonus",
                f"a natural canasta of {size} cards worth {rm.rank_value(rank)} each"
                f" ({rank_value_field(rank)}) scores {found.eval(nat)}, no more than the {found.eval(mix)} of a"
                f" mixed one of the same size with {wilds} wild card(s) (canastas.natural_bonus"
                f" {c.natural_bonus}, canastas.mixed_bonus {c.mixed_bonus}, card_values)",
            )
            return


def _pile(lt: _Linter) -> None:
    """An error when a frozen pile can never be taken; a warning when natural-and-wild can never apply."""
    rm = lt.rm
    k, w = z3.Int("naturals_from_hand"), z3.Int("wilds_from_hand")
    group = MeldCounts(k + 1, w, z3.IntVal(0))
    deck = [
        Clause("deck.packs", f"the deck holds {rm.rank_copies} cards of each natural rank", k + 1 <= rm.rank_copies),
        Clause("deck", f"the deck holds {rm.wild_copies} wild cards", w <= rm.wild_copies),
    ]
    pair = Clause(
        "discard_pile", "a frozen pile is taken only with two naturals of the top card's rank from the hand", k >= 2
    )
    core = lt.core([*rm.natural_meld_clauses(group), *deck, pair], [k >= 0, w >= 0])
    if core is not None:
        lt.add(
            "frozen-pile-untakeable",
            ERROR,
            _field_of(core, "discard_pile"),
            f"a frozen pile can never be taken, as the top card and the naturals from the hand never make a legal"
            f" meld: {_phrase(core)}",
        )
    if rm.spec.discard_pile.unfrozen_natural_and_wild:
        one = Clause(
            "discard_pile.unfrozen_natural_and_wild",
            "one natural and at least one wild from the hand go with the top card",
            z3.And(k == 1, w >= 1),
        )
        core = lt.core([*rm.natural_meld_clauses(group), *deck, one], [k >= 0, w >= 0])
        if core is not None:
            rest = [c for c in core if c is not one] or core
            lt.add(
                "natural-and-wild-dead",
                WARNING,
                "discard_pile.unfrozen_natural_and_wild",
                f"discard_pile.unfrozen_natural_and_wild never applies, as the top card with one natural and"
                f" wild cards is never a legal meld: {_phrase(rest)}",
            )


def _wild_joins_natural(lt: _Linter) -> None:
    """A warning when canastas.wild_may_join_natural is set but no natural canasta can take a wild card."""
    rm = lt.rm
    if not rm.spec.canastas.wild_may_join_natural:
        return
    n = z3.Int("naturals")
    grown = MeldCounts(n, z3.IntVal(1), z3.IntVal(0))
    natural = Clause(
        "canastas.min_size", f"a natural canasta has at least {rm.canasta_size} cards", n >= rm.canasta_size
    )
    core = lt.core([*rm.natural_meld_clauses(grown), *rm.deck_clauses(grown), natural], [n >= 1])
    if core is not None:
        lt.add(
            "wild-join-dead",
            WARNING,
            "canastas.wild_may_join_natural",
            f"canastas.wild_may_join_natural never applies, as no natural canasta can take a wild card and stay"
            f" legal: {_phrase(core)}",
        )


def _threes(lt: _Linter) -> None:
    """Warnings for red-three bonuses that fall and black-three melds that cannot be or reach canasta size."""
    rm, t = lt.rm, lt.rm.spec.threes
    r = z3.Int("red_threes")
    found = lt.witness(
        [
            r >= 0,
            r + 1 <= rm.red_three_copies,
            rm.red_three_score(r + 1, z3.BoolVal(True)) <= rm.red_three_score(r, z3.BoolVal(True)),
        ]
    )
    if found is not None:
        count = found.eval(r).as_long()
        lt.add(
            "red-three-bonus-falls",
            WARNING,
            "threes.all_red_threes_bonus",
            f"a side's score does not rise from {count} to {count + 1} red threes (threes.red_three_bonus"
            f" {t.red_three_bonus}, threes.all_red_threes_bonus {t.all_red_threes_bonus} for all"
            f" {rm.red_three_copies})",
        )
    b = meld_counts("black_meld")
    core = lt.core(rm.black_meld_clauses(b, z3.BoolVal(True)), [b.naturals >= 1, b.wilds >= 0])
    if core is not None:
        lt.add(
            "black-three-meld-impossible",
            WARNING,
            _field_of(core, "threes.black_three_meld_min"),
            f"no black-three meld can ever be legal: {_phrase(core)}",
        )
        return
    found = lt.witness([rm.legal_black_meld(b, z3.BoolVal(True)), rm.is_canasta(b), b.wilds <= rm.wild_copies])
    if found is not None:
        lt.add(
            "black-three-meld-canasta-size",
            WARNING,
            "threes.black_three_meld_max",
            f"a black-three meld of {found.eval(b.size)} cards reaches canastas.min_size {rm.canasta_size},"
            " yet black threes never make a canasta",
        )


def _going_out(lt: _Linter, canastas_possible: bool) -> None:
    """Errors when nobody can go out or a player is stranded; a warning for a concealed bonus below the plain one."""
    rm, g = lt.rm, lt.rm.spec.going_out
    if canastas_possible and rm.required > 0:
        melds = lt.melds
        if lt.witness([*melds.constraints, melds.canastas >= rm.required]) is None:
            lt.add(
                "cannot-go-out",
                ERROR,
                "going_out.canastas_required",
                f"nobody can ever go out: going_out.canastas_required asks for {rm.required} canastas, more than"
                f" the deck's cards can make at once under the meld rules (canastas.min_size {rm.canasta_size},"
                f" melds.max_wilds {rm.spec.melds.max_wilds}, melds.one_meld_per_rank"
                f" {str(rm.spec.melds.one_meld_per_rank).lower()})",
            )
    after, canastas = z3.Int("cards_after_melding"), z3.Int("canastas")
    found = lt.witness([canastas >= 0, canastas < rm.required, rm.turn_end_ok(after, canastas), after < 2])
    if found is not None:
        lt.add(
            "keep-strands-player",
            ERROR,
            "going_out.min_hand_after_meld_without_canastas",
            f"a player without the side's {rm.required} canasta(s) may meld down to {found.eval(after)} card(s)"
            f" (going_out.min_hand_after_meld_without_canastas {g.min_hand_after_meld_without_canastas}) and"
            " then cannot discard without going out: no legal play is left",
        )
    if lt.witness([rm.going_out_bonus(z3.IntVal(2)) < rm.going_out_bonus(z3.IntVal(1))]) is not None:
        lt.add(
            "concealed-bonus-below-plain",
            WARNING,
            "going_out.concealed_bonus",
            f"going out concealed earns {g.concealed_bonus} (going_out.concealed_bonus), less than the"
            f" {g.bonus} of going out normally (going_out.bonus)",
        )


def _initial_meld(lt: _Linter) -> None:
    """Warnings for threshold rows that never apply; errors or warnings for minimums that cannot be met."""
    rm, target = lt.rm, lt.rm.spec.game.target_score
    total = z3.Int("running_total")
    rows = [("initial_meld.minimum_below_table", rm.spec.initial_meld.minimum_below_table)]
    for i, (from_score, minimum) in enumerate(rm.thresholds):
        if lt.witness([total < target, rm.row_of(total) == i]) is None:
            why = (
                f"the game ends when a side reaches game.target_score {target}, so no hand starts with a running"
                f" total of {from_score} or more"
                if from_score >= target
                else "a later row starts no later"
            )
            lt.add(
                "threshold-row-dead",
                WARNING,
                f"initial_meld.thresholds[{i}].from_score",
                f"initial_meld.thresholds[{i}].from_score {from_score} never applies, so its minimum of {minimum}"
                f" is never asked: {why}",
            )
        else:
            rows.append((f"initial_meld.thresholds[{i}].minimum", minimum))
    melds = lt.melds
    held = rm.spec.deal.hand_size + rm.spec.turn.draw_count
    for field, minimum in sorted(rows, key=lambda row: -row[1]):
        if lt.witness([*melds.constraints, rm.first_turn_meld_ok(melds), melds.points >= minimum]) is not None:
            return  # the highest minimum that applies can be met, so every lower one can
        if lt.witness([*melds.constraints, melds.points >= minimum]) is None:
            lt.add(
                "minimum-unreachable",
                ERROR,
                field,
                f"a minimum initial meld of {minimum} points can never be met: no set of legal melds from the"
                " whole deck is worth that much",
            )
        else:
            lt.add(
                "minimum-unreachable-first-turn",
                WARNING,
                field,
                f"a minimum initial meld of {minimum} points cannot be met from one turn's {held} cards"
                f" (deal.hand_size {rm.spec.deal.hand_size} + turn.draw_count {rm.spec.turn.draw_count}) while"
                " ending the turn legally",
            )


_CHECKS: tuple[Callable[[_Linter], None], ...] = (
    _limits_dead,
    _canasta_quality,
    _pile,
    _wild_joins_natural,
    _threes,
    _initial_meld,
)


def lint(rules_or_spec: CompiledRules | ruleset_pb2.RuleSet) -> list[LintFinding]:
    """Every contradictory (ERROR) or dead (WARNING) setting of a resolved rule set, errors first."""
    lt = _Linter(RuleModel(rules_or_spec))
    possible = _melds_and_canastas(lt)
    if possible:
        for check in _CHECKS:
            check(lt)
    _going_out(lt, possible)
    return sorted(lt.findings, key=lambda f: f.severity != ERROR)


__all__ = ["ERROR", "WARNING", "LintFinding", "lint"]
