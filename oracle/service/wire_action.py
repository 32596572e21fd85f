"""Reads an Action straight from its wire bytes, with the counts its size check needs.

The hot path of CheckAction; anything unusual is WireError and action_from_proto reads the message instead.
"""

from __future__ import annotations

from oracle.model.actions import (
    Action,
    AnswerPartner,
    AskPartner,
    Combine,
    Discard,
    Draw,
    Finish,
    Meld,
    MeldGroup,
    PickUpPile,
    TakePile,
)
from oracle.model.cards import JOKER, is_valid, rank_of
from oracle.service.wire import UINT32_MAX, WireError, as_int32, read_cards, read_varint

_EMPTY: tuple[int, ...] = ()
_NO_BODY: dict[int, Action] = {0x0A: Draw(), 0x2A: AskPartner(), 0x3A: Finish(), 0x42: PickUpPile()}


def _varint_at(data: bytes, pos: int) -> tuple[int, int]:
    value = data[pos]
    if value & 0x80:
        return read_varint(data, pos + 1, value)
    return value, pos + 1


def _group(data: bytes, pos: int, end: int) -> MeldGroup:
    """A MeldGroup's bytes (cards, onto_rank, onto, new_meld); an onto_rank that is not a rank is WireError (the
    message path names it)."""
    cards = _EMPTY
    onto_rank = 0
    onto = 0
    new = False
    while pos < end:
        tag = data[pos]
        if tag == 0x0A:
            size, pos = _varint_at(data, pos + 1)
            cards += read_cards(data, pos, pos + size)
            pos += size
        elif tag == 0x10:
            onto_rank, pos = _varint_at(data, pos + 1)
            onto_rank = as_int32(onto_rank)
        elif tag == 0x18:
            onto, pos = _varint_at(data, pos + 1)
            onto &= UINT32_MAX
        elif tag == 0x20:
            value, pos = _varint_at(data, pos + 1)
            new = value != 0
        else:
            raise WireError(f"MeldGroup tag {tag}")
    if pos != end:
        raise WireError("a field past the end of MeldGroup")
    if not onto_rank:
        return MeldGroup(cards, None, onto, new)
    if onto_rank == JOKER or not is_valid(onto_rank):
        raise WireError("onto_rank names no rank")
    return MeldGroup(cards, rank_of(onto_rank), onto, new)


def _groups(data: bytes, pos: int, end: int, tag_of_groups: int, cards: tuple[int, ...] | None) -> TakePile | Meld:
    """A TakePileAction (`cards` collects `with`; onto and new_meld read too) or a MeldAction (`cards` None): its
    groups by their tag."""
    groups = []
    onto = 0
    new = False
    while pos < end:
        tag = data[pos]
        if cards is not None and (tag == 0x18 or tag == 0x20):  # TakePileAction.onto, new_meld (varints)
            value, pos = _varint_at(data, pos + 1)
            if tag == 0x18:
                onto = value & UINT32_MAX
            else:
                new = value != 0
            continue
        size, start = _varint_at(data, pos + 1)
        pos = start + size
        if tag == tag_of_groups:
            groups.append(_group(data, start, pos))
        elif tag == 0x0A and cards is not None:
            cards += read_cards(data, start, pos)
        else:
            raise WireError(f"action tag {tag}")
    if pos != end:
        raise WireError("a field past the end of an action")
    return Meld(tuple(groups)) if cards is None else TakePile(cards, tuple(groups), onto, new)


def _combine(data: bytes, pos: int, end: int) -> Combine:
    """A CombineMeldsAction's bytes (first, second)."""
    first = second = 0
    while pos < end:
        tag = data[pos]
        if tag != 0x08 and tag != 0x10:
            raise WireError(f"CombineMeldsAction tag {tag}")
        value, pos = _varint_at(data, pos + 1)
        if tag == 0x08:
            first = value & UINT32_MAX
        else:
            second = value & UINT32_MAX
    if pos != end:
        raise WireError("a field past the end of CombineMeldsAction")
    return Combine(first, second)


def decode_action(data: bytes) -> tuple[Action, int, int]:
    """The domain action of an Action's canonical bytes, equal to what action_from_proto makes of the message, with
    its group count and the cards it names in all (what sizes.check_action counts).

    WireError (or IndexError for truncated bytes) for anything else: no kind or more than one field, an unknown
    field, an onto_rank that is no rank.
    """
    if len(data) < 2:
        raise WireError("no action")
    tag = data[0]
    size, start = _varint_at(data, 1)
    if start + size != len(data):
        raise WireError("not exactly one field")
    if tag in _NO_BODY:
        if size:
            raise WireError("a field in an action without fields")
        return _NO_BODY[tag], 0, 0
    if tag == 0x22 or tag == 0x32:  # discard (card), answer_partner (yes)
        value = 0
        if size:
            if data[start] != 0x08:
                raise WireError(f"action tag {data[start]}")
            value, pos = _varint_at(data, start + 1)
            if pos != len(data):
                raise WireError("a field past the end of an action")
        return (Discard(as_int32(value)) if tag == 0x22 else AnswerPartner(value != 0)), 0, 0
    if tag == 0x12:
        take = _groups(data, start, len(data), 0x12, _EMPTY)
        return (take, *action_counts(take))
    if tag == 0x1A:
        meld = _groups(data, start, len(data), 0x0A, None)
        return (meld, *action_counts(meld))
    if tag == 0x4A:
        return _combine(data, start, len(data)), 0, 0
    raise WireError(f"Action tag {tag}")


def action_counts(action: Action) -> tuple[int, int]:
    """The groups of an action and the cards it names in all (what sizes.check_action counts on its message)."""
    if isinstance(action, TakePile):
        return len(action.melds), len(action.with_cards) + sum(len(g.cards) for g in action.melds)
    if isinstance(action, Meld):
        return len(action.groups), sum(len(g.cards) for g in action.groups)
    return 0, 0


__all__ = ["action_counts", "decode_action"]
