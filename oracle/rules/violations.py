"""The registry of violation codes (stable, append-only) and the one way to build a Violation from it.

Each code has one Rule: the rule-set field it comes from, the rule in one sentence, and the message that
explains a breach, a ``str.format`` template with named parameters (plus named variants for the other
situations the same rule is broken in). The citation comes from the rule set's note for the field
(``CompiledRules.cites``). Every rule check, the ``explain`` command and the coverage table read this table.

Codes are never renamed or removed, and a template's wording only changes on purpose: tests and conformance
cases compare explanations. The meld-rule templates end in ``": {meld}"`` (the meld judged); the state and
table checks, which judge melds already on the table, print the reason before it (``Rule.reason``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from oracle.rules.violation_rules_family import FAMILY_RULES
from oracle.rules.violation_rules_foot import FOOT_RULES
from oracle.rules.violation_rules_runs import RUN_RULES
from oracle.rules.violation_types import MELD_SUFFIX, Code, Rule, Violation, template_params
from oracle.ruleset.compiled import CompiledRules

_ASK_FIELD = "going_out.ask_partner"

_RULES = (
    # Turn structure.
    Rule(
        Code.WRONG_PHASE,
        "turn",
        "Each turn is: draw or take the pile, then meld if you like, then discard.",
        "cannot {action}: {reason}",
        {
            "no_question": "nobody asked 'may I go out?'",
            "no_final_melds": "finish ends the hand only after a last-card red three",
        },
    ),
    Rule(Code.HAND_IS_OVER, "game", "No action is possible once the hand has ended.", "the hand is over ({hand_end})"),
    Rule(
        Code.CARDS_NOT_IN_HAND,
        "turn",
        "A player can only play cards they hold.",
        "seat {seat} does not hold {missing} (hand: {hand})",
    ),
    # Drawing.
    Rule(
        Code.MUST_TAKE_PILE,
        "stock_exhaustion.must_take_pile",
        "With the stock empty, the player must take the pile in the cases the rule set names.",
        "the stock is empty and the pile can be taken ({how}), so the player must take the pile",
        {
            "top_fits": "the stock is empty and the pile is not frozen and its top card {top} goes on the side's"
            " meld, so the player must take the pile",
        },
    ),
    # Taking the pile.
    Rule(Code.PILE_EMPTY, "discard_pile", "There is no pile to take.", "the discard pile is empty"),
    Rule(
        Code.PILE_TOP_WILD,
        "discard_pile.wild_top_blocks",
        "Nobody takes the pile while a wild card is on top.",
        "the top card {top} is wild",
    ),
    Rule(
        Code.PILE_TOP_BLACK_THREE,
        "discard_pile.black_three_top_blocks",
        "A black three on top stops the next player taking the pile.",
        "the top card {top} is a black three",
    ),
    Rule(
        Code.PILE_TOP_RED_THREE,
        "threes",
        "A red three on top cannot be melded, so the pile cannot be taken.",
        "the top card {top} is a red three",
    ),
    Rule(
        Code.PILE_FROZEN_NEEDS_NATURAL_PAIR,
        "discard_pile",
        "A frozen pile is taken only with two natural cards of the top card's rank from the hand.",
        "the pile is frozen to this side ({reasons}): taking it needs two natural {rank} from the hand with the"
        " top card {top}",
        {
            "offered": "the pile is frozen to this side ({reasons}): taking it needs two natural {rank} from the"
            " hand with the top card {top}; {offered} will not do",
            "wilds": "the pile is frozen to this side ({reasons}): it is taken with the top card and a natural pair"
            " only, no wild cards; {offered} has wild cards",
        },
    ),
    Rule(
        Code.PILE_TOP_NOT_MELDED,
        "discard_pile",
        "The top card must be melded at once: with cards from the hand or onto the side's meld.",
        "the side has no meld of {rank} for the top card {top}, and no hand cards were named to meld it with",
        {
            "no_natural": "{offered} holds no natural {rank} to meld with the top card",
            "other_ranks": "{others} cannot be melded with the top card {top}: a meld is of one rank",
            "cannot_start": "the top card {top} cannot start a meld",
        },
    ),
    Rule(
        Code.PILE_NATURAL_AND_WILD_NOT_ALLOWED,
        "discard_pile.unfrozen_natural_and_wild",
        "This rule set does not let a natural and a wild take the pile.",
        "{offered} is a natural and a wild; this rule set needs a natural pair",
    ),
    Rule(
        Code.PILE_ONTO_MELD_NOT_ALLOWED,
        "discard_pile.unfrozen_onto_existing_meld",
        "This rule set does not let the top card go onto an existing meld to take the pile.",
        "the top card {top} may not simply go onto the side's meld to take the pile",
    ),
    Rule(
        Code.PILE_ONE_CARD_WITH_ONE_CARD,
        "discard_pile.one_card_hand_no_one_card_pile",
        "A player holding one card may not take a pile of one card.",
        "the player holds one card and the pile is one card",
    ),
    # Melds (the templates end in MELD_SUFFIX).
    Rule(
        Code.MELD_TOO_SMALL,
        "melds.min_size",
        "A new meld needs the minimum number of cards.",
        "a meld needs at least {min_size} cards, not {size}: {meld}",
    ),
    Rule(
        Code.MELD_TOO_FEW_NATURALS,
        "melds.min_naturals",
        "A meld needs the minimum number of natural cards.",
        "a meld needs at least {min_naturals} natural cards; these {rank} have {naturals}: {meld}",
    ),
    Rule(
        Code.MELD_TOO_MANY_WILDS,
        "melds.max_wilds",
        "A meld may hold only so many wild cards.",
        "a meld may hold at most {max_wilds} wild cards; these {rank} have {wilds}: {meld}",
    ),
    Rule(
        Code.MELD_WILDS_OUTNUMBER_NATURALS,
        "melds.wild_ratio",
        "This rule set limits wild cards relative to naturals.",
        "wild cards ({wilds}) may not outnumber naturals ({naturals}): {meld}",
        {"fewer": "naturals ({naturals}) must outnumber wild cards ({wilds}): {meld}"},
    ),
    Rule(
        Code.MELD_TOO_LARGE,
        "melds.max_size",
        "This rule set caps the size of a meld.",
        "a meld may hold at most {max_size} cards, not {size}: {meld}",
    ),
    Rule(
        Code.MELD_ALL_WILD,
        "melds.wild_only_melds",
        "Wild cards alone do not make a meld.",
        "wild cards alone cannot make a meld: {meld}",
    ),
    Rule(
        Code.MELD_NO_SUCH_MELD,
        "melds.one_meld_per_rank",
        "Wild cards added on their own must join a meld the side already has.",
        "{cards} cannot join the side's {rank}: the side has no meld of that rank",
        {
            "number": "{cards} cannot join meld {number}: the side has {count} meld(s) (counting those laid before it)",
            "combine": "there is no meld {number} to combine: the side has {count} meld(s)",
        },
    ),
    Rule(
        Code.BLACK_THREES_NOT_GOING_OUT,
        "threes.black_three_meld_going_out_only",
        "Black threes are melded only as the last meld when going out.",
        "black threes may be melded only as the last meld when going out: {meld}",
        {"last_cards": "black threes may be melded only as the last cards when going out, with no discard: {meld}"},
    ),
    Rule(
        Code.BLACK_THREE_MELD_SIZE,
        "threes.black_three_meld_min",
        "A black-three meld holds the number of black threes the rule set allows.",
        "a black-three meld needs at least {min} black threes, not {count}: {meld}",
        {
            "too_many": "a black-three meld holds at most {max} black threes, not {count}: {meld}",
            "never": "black threes are never melded (threes.black_three_meld_max is 0): {meld}",
        },
    ),
    Rule(
        Code.BLACK_THREE_MELD_WILDS,
        "threes.black_three_meld_wilds",
        "No wild card goes in a black-three meld.",
        "no wild card may go in a black-three meld: {meld}",
    ),
    Rule(
        Code.WILD_ON_NATURAL_CANASTA,
        "canastas.wild_may_join_natural",
        "This rule set does not let a wild card join a natural canasta.",
        "{wilds} would turn the natural canasta of {rank} mixed",
    ),
    Rule(
        Code.INITIAL_MELD_BELOW_MINIMUM,
        "initial_meld.thresholds",
        "A side's first melds together must reach the minimum for its running total.",
        "the side's first melds count {points}; a running total of {total} needs {minimum}",
        {
            "pile": "the side's first melds count {points} (the top card counts, the rest of the pile does not);"
            " a running total of {total} needs {minimum}",
            "pile_hand_only": "the side's first melds count {points} from the hand (the pile's top card does not count:"
            " initial_meld.pile_top_counts); a running total of {total} needs {minimum}",
            "by_hand": "the side's first melds count {points}; hand {hand} of the game needs {minimum}"
            " (initial_meld.minimum_by_hand)",
            "by_hand_pile": "the side's first melds count {points} (the rest of the pile does not count, nor the top"
            " card where initial_meld.pile_top_counts is false); hand {hand} of the game needs {minimum}"
            " (initial_meld.minimum_by_hand)",
        },
    ),
    Rule(
        Code.MUST_KEEP_CARDS,
        "going_out.min_hand_after_meld_without_canastas",
        "Until the side has its canastas, a player keeps enough cards to discard and hold one.",
        "the side has {canastas} of the {required} canasta(s) needed to go out, so at least {keep} cards must"
        " stay in hand after melding, not {left}",
        {
            "foot": "the side may not go out yet ({why}), so at least {keep} cards must stay in hand after melding,"
            " not {left}",
            "unfinished": "the side may not go out while {meld} is short of a canasta"
            " (going_out.unfinished_special_meld_blocks), so at least {keep} cards must stay in hand after melding,"
            " not {left}",
        },
    ),
    # Going out.
    Rule(
        Code.GO_OUT_WITHOUT_CANASTAS,
        "going_out.canastas_required",
        "A side needs the required canastas to go out.",
        "going out needs {required} canasta(s); the side has {canastas}",
    ),
    Rule(
        Code.GO_OUT_NEEDS_DISCARD,
        "going_out.discard_optional",
        "This rule set requires a final discard to go out.",
        "the last card must be discarded, not melded",
        {"pile": "taking the pile would leave no card to discard"},
    ),
    Rule(
        Code.GO_OUT_PARTNER_SAID_NO,
        _ASK_FIELD,
        "After the partner answers no, the player may not go out this turn.",
        "the partner answered no to 'may I go out?' this turn",
        {
            "one_left": "one card would be left, and discarding it would go out, which the partner's 'no' forbids"
            " this turn",
        },
    ),
    Rule(
        Code.MUST_GO_OUT_PARTNER_SAID_YES,
        _ASK_FIELD,
        "After the partner answers yes, the player must go out this turn.",
        "the partner answered yes, so the player must go out this turn; {left} card(s) would be left",
    ),
    Rule(
        Code.ASK_NOT_ALLOWED,
        _ASK_FIELD,
        "This rule set has no partner to ask.",
        "rule set '{rule_set}' has no partner to ask",
        {
            "one_card": "with one card in hand every way to end the turn goes out, so there is nothing to ask the"
            " partner (a 'no' would leave no legal play)",
        },
    ),
    Rule(
        Code.ASK_AFTER_MELDING,
        _ASK_FIELD,
        "The partner is asked right after drawing, before anything is melded.",
        "the partner is asked right after drawing, before melding",
        {
            "pile": "the partner is asked right after taking the pile, before anything else is put down (groups"
            " laid with the pile beyond those the take needed count)",
        },
    ),
    Rule(
        Code.ASK_ALREADY_ANSWERED,
        _ASK_FIELD,
        "The partner is asked at most once a turn.",
        "the partner was already asked this turn",
    ),
    # The last stock card a red three.
    Rule(
        Code.LAST_RED_THREE_NO_DISCARD,
        "stock_exhaustion.last_red_three",
        "After a last-card red three the hand ends without a discard.",
        "the last stock card was a red three: the hand ends without a discard (use finish)",
    ),
    # The two-step form of taking the pile (oracle/rules/two_step.py).
    Rule(
        Code.TWO_STEP_TAKE_INCOMPLETE,
        "discard_pile",
        "Taken in two steps, the pile is taken only by melding its top card next, before anything else.",
        "after pick-up-pile the next action must be a meld with the top card {top}, not '{action}'",
        {
            "top_missing": "after pick-up-pile the meld must include the top card {top}: '{action}' does not",
            "no_way": "pick-up-pile: no way of melding the top card {top} from seat {seat}'s hand is legal,"
            " so the pile cannot be taken",
        },
    ),
)

#: Code -> Rule, in registry order (every code exactly once).
RULES: Mapping[Code, Rule] = MappingProxyType(
    {rule.code: rule for rule in (*_RULES, *FAMILY_RULES, *RUN_RULES, *FOOT_RULES)}
)
if len(RULES) != len(_RULES) + len(FAMILY_RULES) + len(RUN_RULES) + len(FOOT_RULES) or set(RULES) != set(Code):
    raise AssertionError("the violation registry needs exactly one Rule per Code")


def violation(
    rules: CompiledRules, code: Code, /, *, variant: str = "", field: str | None = None, **params: object
) -> Violation:
    """A Violation of a registered code, explained by its template; `field` names a more specific field of the rule."""
    rule = RULES[code]
    where = field or rule.field
    return Violation(code, where, rule.format(variant, **params), rules.cites.get(where, ()))


def find_rule(code: str) -> Rule | None:
    """The Rule of a code given as text (from a request, a case file, the command line), or None if unknown."""
    try:
        return RULES[Code(code)]
    except ValueError:
        return None


__all__ = ["MELD_SUFFIX", "RULES", "Code", "Rule", "Violation", "find_rule", "template_params", "violation"]
