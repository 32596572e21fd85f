"""Lint rules for the Hand and Foot fields: foot settings without a foot, a minimum by hand beside a dead table,
book quotas that miss canastas_required, and a held red three's value where red threes are laid."""

from __future__ import annotations

from oracle.verify.lint_base import ERROR, WARNING, Linter


def foot_dead(lt: Linter) -> None:
    """A foot setting changed with foot.size 0: foot.continue_after_melding_out or foot.unplayed_counts false (the
    bases state both true, the usual rule, in every rule set; without a foot neither is read), or
    going_out.partner_foot_required set."""
    spec = lt.rm.spec
    if spec.foot.size:
        return
    changed = [
        f"foot.{name}" for name in ("continue_after_melding_out", "unplayed_counts") if not getattr(spec.foot, name)
    ]
    if spec.going_out.partner_foot_required:
        changed.append("going_out.partner_foot_required")
    if changed:
        lt.add(
            "foot-dead",
            WARNING,
            changed[0],
            f"{', '.join(changed)} never apply: foot.size is 0, so no player has a foot",
        )


def minimum_by_hand_dead(lt: Linter) -> None:
    """initial_meld.thresholds beside initial_meld.minimum_by_hand (the table is never read), and entries of
    minimum_by_hand past game.hands (no such hand is played)."""
    spec = lt.rm.spec
    by_hand, hands = list(spec.initial_meld.minimum_by_hand), spec.game.hands
    if not by_hand:
        return
    if spec.initial_meld.thresholds:
        lt.add(
            "minimum-table-dead",
            WARNING,
            "initial_meld.thresholds",
            "initial_meld.thresholds and minimum_below_table never apply: initial_meld.minimum_by_hand"
            f" {by_hand} decides the minimum by the hand's number, not by the running total",
        )
    if hands and len(by_hand) > hands:
        lt.add(
            "minimum-by-hand-dead",
            WARNING,
            f"initial_meld.minimum_by_hand[{hands}]",
            f"initial_meld.minimum_by_hand[{hands}] and after never apply: game.hands is {hands}, so no hand"
            f" {hands + 1} is played",
        )


def book_quotas(lt: Linter) -> None:
    """going_out.natural_canastas_required + mixed_canastas_required different from canastas_required."""
    g = lt.rm.spec.going_out
    if not (g.natural_canastas_required or g.mixed_canastas_required):
        return
    total = g.natural_canastas_required + g.mixed_canastas_required
    if total != g.canastas_required:
        lt.add(
            "book-quotas-sum",
            ERROR,
            "going_out.canastas_required",
            f"going_out.canastas_required {g.canastas_required} is not the sum of the kind quotas"
            f" (natural_canastas_required {g.natural_canastas_required} + mixed_canastas_required"
            f" {g.mixed_canastas_required} = {total}): the quotas are the whole condition for going out",
        )


def red_three_value_dead(lt: Linter) -> None:
    """card_values.red_three set where red threes are laid (threes.red_three_held false)."""
    spec = lt.rm.spec
    if spec.card_values.red_three and not spec.threes.red_three_held:
        lt.add(
            "red-three-value-dead",
            WARNING,
            "card_values.red_three",
            f"card_values.red_three {spec.card_values.red_three} never applies: threes.red_three_held is false, so"
            " red threes are laid and scored under threes, never held",
        )


def foot_fields(lt: Linter) -> None:
    """Every Hand and Foot lint rule."""
    foot_dead(lt)
    minimum_by_hand_dead(lt)
    book_quotas(lt)
    red_three_value_dead(lt)


__all__ = ["book_quotas", "foot_dead", "foot_fields", "minimum_by_hand_dead", "red_three_value_dead"]
