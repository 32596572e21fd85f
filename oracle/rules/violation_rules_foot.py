"""The violation rules of Hand and Foot (the foot, the book quotas, the required question), kept apart from the
classic registry they extend."""

from __future__ import annotations

from oracle.rules.violation_types import Code, Rule

FOOT_RULES = (
    Rule(
        Code.FOOT_NOT_YET,
        "foot.continue_after_melding_out",
        "The foot is taken up only by discarding the last card of the hand, and played from the next turn.",
        "melding every card of the hand would take up the foot in this turn, but the foot is taken up only with the"
        " discard of the hand's last card: keep a card to discard ({left} would be left)",
    ),
    Rule(
        Code.GO_OUT_BOOKS_MISSING,
        "going_out",
        "A side needs its quota of natural (clean) and mixed (dirty) canastas to go out.",
        "going out needs {natural_required} natural and {mixed_required} mixed canasta(s); the side has {natural}"
        " natural and {mixed} mixed",
    ),
    Rule(
        Code.GO_OUT_WITHOUT_ASKING,
        "going_out.ask_partner",
        "A player must ask the partner for permission before going out, and may go out only after a yes.",
        "going out needs the partner's yes to 'may I go out?' asked this turn before melding; {asked}",
    ),
    Rule(
        Code.GO_OUT_PARTNER_FOOT_NOT_TAKEN,
        "going_out.partner_foot_required",
        "Neither partner may go out until both have taken up their feet.",
        "seat {partner} has not taken up the foot yet ({count} cards), so this side may not go out",
    ),
    Rule(
        Code.MELD_OPEN_OF_RANK_EXISTS,
        "melds.one_open_meld_per_rank",
        "A new meld of a rank is started only when the side's meld of that rank is a canasta.",
        "{cards} cannot start a new meld of {rank}: meld {number} of {rank} is not yet a canasta, so it takes them",
    ),
)
