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
lint call builds one solver and runs a few dozen small queries on it, however
long the rule set's tables (see lint_minimum). Every query runs under a budget
(budget.LINT_BUDGET): a query that runs out raises LintBudgetExceeded naming
the rule and the limit, never a pass.

The rules live by concept in lint_melds (melds and canastas), lint_play (the
pile, threes, going out), lint_minimum (the initial-meld table) and
lint_formation (sides formed during the hand, the end of the stock), lint_family
(the Modern American Canasta fields: threes by count, rank rules, the rule of
five, the initial meld's natural meld, bonus cards), lint_runs (the Samba fields: runs, combining, red threes
that need canastas), lint_foot (the Hand and Foot fields: the foot, the minimum by hand, the book quotas, a held
red three's value);
lint_base holds the finding type, the rule ids and the shared solver.
"""

from __future__ import annotations

from collections.abc import Callable

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import CompiledRules
from oracle.verify import lint_family, lint_foot, lint_runs
from oracle.verify.budget import LINT_BUDGET, Budget
from oracle.verify.lint_base import ERROR, RULES, WARNING, LintBudgetExceeded, Linter, LintFinding
from oracle.verify.lint_formation import merged_over_max_size, must_take_dead
from oracle.verify.lint_melds import canasta_quality, limits_dead, melds_and_canastas, wild_joins_natural
from oracle.verify.lint_minimum import initial_meld
from oracle.verify.lint_play import going_out, pile, threes
from oracle.verify.model import RuleModel

_CHECKS: tuple[Callable[[Linter], None], ...] = (
    limits_dead,
    canasta_quality,
    pile,
    wild_joins_natural,
    threes,
    initial_meld,
    merged_over_max_size,
    must_take_dead,
    lint_family.rank_rules,
    lint_family.rule_of_five,
    lint_family.natural_meld_required,
)


def lint(rules_or_spec: CompiledRules | ruleset_pb2.RuleSet, budget: Budget = LINT_BUDGET) -> list[LintFinding]:
    """Every contradictory (ERROR) or dead (WARNING) setting of a resolved rule set, errors first.

    Raises LintBudgetExceeded when a rule's solver query runs out of `budget`.
    """
    lt = Linter(RuleModel(rules_or_spec), budget)
    possible = melds_and_canastas(lt)
    if possible:
        for check in _CHECKS:
            check(lt)
    going_out(lt, possible)
    lint_family.threes_by_count(lt)
    lint_family.bonus_cards(lt)
    lint_runs.runs(lt)
    lint_runs.combine_dead(lt)
    lint_foot.foot_fields(lt)
    if possible:
        lint_runs.red_three_canastas(lt)
    return sorted(lt.findings, key=lambda f: f.severity != ERROR)


__all__ = ["ERROR", "RULES", "WARNING", "LintBudgetExceeded", "LintFinding", "lint"]
