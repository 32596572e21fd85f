"""The violation rules of Samba's melds: runs, naming the meld a group joins, several melds of a rank and putting
them together, and the pile's top card with runs and canastas (kept apart from the classic registry they extend)."""

from __future__ import annotations

from oracle.rules.violation_types import Code, Rule

RUN_RULES = (
    Rule(
        Code.RUNS_NOT_ALLOWED,
        "runs.min_size",
        "This rule set has no runs: a meld is cards of one rank.",
        "cards of one suit in sequence are no meld in this rule set (runs.min_size is 0): {meld}",
    ),
    Rule(
        Code.RUN_WILD_CARD,
        "runs",
        "A run holds no wild card.",
        "a run holds natural cards only, not {wilds} wild card(s): {meld}",
    ),
    Rule(
        Code.RUN_MIXED_SUITS,
        "runs.min_size",
        "A run's cards are all of one suit.",
        "a run's cards must all be of one suit: {meld}",
    ),
    Rule(
        Code.RUN_NOT_CONSECUTIVE,
        "runs.min_size",
        "A run's cards follow each other in rank, each rank once, with no gap.",
        "a run's cards must follow each other in rank, each rank once and with no gap: {meld}",
    ),
    Rule(
        Code.RUN_RANK_OUT_OF_RANGE,
        "runs.lowest_rank",
        "A run holds only the ranks the rule set allows in one (four low, ace high, no wrapping).",
        "a run may go no lower than a {lowest}, and this one holds a {rank}: {meld}",
        {"high": "a run may go no higher than a {highest}, and this one holds a {rank}: {meld}"},
    ),
    Rule(
        Code.RUN_TOO_SMALL,
        "runs.min_size",
        "A new run needs the rule set's least number of cards.",
        "a new run needs at least {min_size} cards, not {size}: {meld}",
    ),
    Rule(
        Code.RUN_TOO_LARGE,
        "runs.max_size",
        "A run stops growing at the rule set's largest size.",
        "a run holds at most {max_size} cards, not {size}: {meld}",
    ),
    Rule(
        Code.MELD_TARGET_OTHER_RANK,
        "melds.one_meld_per_rank",
        "A group named onto one of the side's melds must be of that meld's rank.",
        "{cards} cannot join meld {number}, a meld of {rank}",
    ),
    Rule(
        Code.MELD_SECOND_OF_RANK,
        "melds.one_meld_per_rank",
        "A side keeps one meld per rank: more cards of the rank join it.",
        "{cards} cannot start a second meld of {rank}: the side has one (meld {number}) and keeps one per rank",
    ),
    Rule(
        Code.PILE_TOP_CANNOT_START_RUN,
        "runs.pile_top_alone",
        "The pile's top card may not start a run.",
        "the top card {top} cannot start a run with {offered}",
    ),
    Rule(
        Code.PILE_TOP_RUN_WITH_HAND_CARDS,
        "runs.pile_top_alone",
        "The pile's top card joins a run only alone, never with cards from the hand.",
        "the top card {top} may join run {number} only alone, not with {offered}",
    ),
    Rule(
        Code.PILE_TOP_ONTO_RUN_NOT_ALLOWED,
        "runs.pile_top_alone",
        "The pile's top card never joins a run in this rule set.",
        "the top card {top} may not join run {number} to take the pile",
    ),
    Rule(
        Code.PILE_ONTO_CANASTA_NOT_ALLOWED,
        "discard_pile.onto_meld_below_canasta_only",
        "The pile's top card may not be added to a meld that is already a canasta.",
        "the top card {top} may not join meld {number}, which is already a canasta",
    ),
    Rule(
        Code.COMBINE_NOT_ALLOWED,
        "melds.combine_same_rank",
        "This rule set does not let a side put two of its melds together.",
        "melds {first} and {second} may not be put together: the rule set does not allow it",
    ),
    Rule(
        Code.COMBINE_DIFFERENT_RANKS,
        "melds.combine_same_rank",
        "Only two melds of one rank may be put together (never a run).",
        "melds {first} and {second} are not two melds of one rank ({what})",
    ),
    Rule(
        Code.COMBINE_BREAKS_MELD,
        "melds.combine_same_rank",
        "Two melds are put together only when the result is itself a legal meld.",
        "melds {first} and {second} together would break a meld rule: {why}",
    ),
    Rule(
        Code.WILD_ON_CANASTA,
        "canastas.wild_may_join_canasta",
        "This rule set lets no wild card join a meld that is already a canasta.",
        "{wilds} cannot join meld {number}, which is already a canasta of {rank}",
    ),
)
