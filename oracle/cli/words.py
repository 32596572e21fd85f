"""Rule-set values and score items in words for the command line: the rank rules, the threes' count values, the
score items' names (JSON output keeps the fields' plain values)."""

from __future__ import annotations

from collections.abc import Iterable

from oracle.api.v1 import ruleset_pb2
from oracle.model.score import ScoreItem, ScoreLine

_COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight")

#: The score items in words (the rest: their names in lower case)
_ITEM_WORDS = {
    ScoreItem.CANNOT_GO_OUT_AFTER_YES: "could not go out after yes",
    ScoreItem.WILD_CANASTA: "wild-card canasta",
    ScoreItem.UNFINISHED_MELD: "unfinished meld",
    ScoreItem.HELD_RANK: "rank held in hand",
    ScoreItem.THREES_BY_COUNT: "threes by count",
    ScoreItem.RUN_CANASTA: "run canasta (samba)",
}


def item_words(item: int) -> str:
    """A score item's name in words, e.g. "wild-card canasta" for WILD_CANASTA."""
    known = ScoreItem(item)
    return _ITEM_WORDS.get(known, known.name.lower().replace("_", " "))


def rank_rule_words(row: ruleset_pb2.RankRule) -> str:
    """One rank rule (melds.rank_rules) in words: "sevens: no wild card; natural canasta +2,500; ..."."""
    rank = ruleset_pb2.NaturalRank.Name(row.rank).removeprefix("NATURAL_RANK_").lower() + "s"
    wilds = "no wild card" if row.max_wilds == 0 else f"at most {row.max_wilds} wild card(s)"
    if row.wilds_in_initial_meld:
        wilds += " (a meld laid in the side's initial meld may take wild cards and is then an ordinary meld)"
    parts = [wilds]
    if row.canasta_bonus:
        parts.append(f"natural canasta +{row.canasta_bonus:,}")
    if row.unfinished_penalty:
        parts.append(f"a natural meld short of a canasta at the hand's end -{row.unfinished_penalty:,}")
    if row.held_penalty:
        parts.append(f"{row.held_min} or more in one hand at the hand's end -{row.held_penalty:,}")
    if row.no_discard_on_empty_pile:
        parts.append("not discarded onto an empty pile while the hand holds another card that may be")
    return f"{rank}: " + "; ".join(parts)


def count_values_words(values: list[int]) -> str:
    """threes.count_values in words: the score of one, two, ... threes of a colour."""
    if not values:
        return "none: each red three scores threes.red_three_bonus"
    counted = ", ".join(f"{_COUNT_WORDS[i] if i < len(_COUNT_WORDS) else i + 1} {v:,}" for i, v in enumerate(values))
    return f"per colour, by how many threes of it the side laid: {counted}"


def field_words(rule_set: ruleset_pb2.RuleSet, path: str) -> str:
    """A field's value as `rules show` and `explain` print it: the rank rules, count values, a run's lowest and highest
    rank ("four", "ace") and runs.min_size 0 ("no runs") in words, any other field as
    oracle.ruleset.paths.format_field writes it."""
    from oracle.ruleset.paths import format_field

    if path == "melds.rank_rules":
        return " | ".join(rank_rule_words(row) for row in rule_set.melds.rank_rules) or "none"
    if path == "threes.count_values":
        return count_values_words(list(rule_set.threes.count_values))
    if path in ("runs.lowest_rank", "runs.highest_rank"):
        rank = rule_set.runs.lowest_rank if path == "runs.lowest_rank" else rule_set.runs.highest_rank
        return ruleset_pb2.NaturalRank.Name(rank).removeprefix("NATURAL_RANK_").lower()
    if path == "runs.min_size" and rule_set.runs.min_size == 0:
        return "0 (no runs)"
    return format_field(rule_set, path)


def score_summary(lines: Iterable[ScoreLine]) -> str:
    """A side's score item by item in words, each item's points summed, in the order the items first appear:
    "melded cards 380, mixed canasta 300, unfinished meld -2000"."""
    summed: dict[int, int] = {}
    for line in lines:
        summed[line.item] = summed.get(line.item, 0) + line.points
    return ", ".join(f"{item_words(item)} {points}" for item, points in summed.items()) or "nothing"
