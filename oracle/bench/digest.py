"""The behaviour digest (`python -m oracle.bench.digest [--games N]`): one hash of everything the engine answers
on seeded random games under every shipped rule set, to show a refactoring or a speed-up changed no answer.

For each rule set it simulates `games` seeded games (three hands at most) and,
in every state they pass through, hashes the state check's findings, the legal
actions, the verdict (violations with their explanations, events, next state)
of the action played and, every third state, of the first 60 candidates of the
canonical space (most of them illegal, so the violation texts are covered).
Run it before and after a change: equal lines, equal behaviour on those
states. It prints one line per rule set and a last line for all of them.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterator

from oracle.games.deal import deal
from oracle.games.match import after_hand, dealer_of_hand, deck_order, start_standing
from oracle.games.movegen import legal_actions
from oracle.games.simulate import simulate_game
from oracle.model.errors import InvalidInputError
from oracle.rules.candidates import candidates
from oracle.rules.referee import check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook, default_rule_book

CANDIDATES_EVERY = 3  #: every how many states the candidates are judged too
CANDIDATES_PER_STATE = 60  #: how many of them


def _answers(rules: CompiledRules, games: int) -> Iterator[bytes]:
    """What the engine answers on the seeded games of one rule set, as bytes to hash."""
    for g in range(games):
        game = simulate_game(rules, 1000 + g, max_hands=3)
        standing = start_standing(rules)
        for h, hand in enumerate(game.record.hands):
            dealer = dealer_of_hand(rules, game.record.first_dealer, h)
            state = deal(rules, deck_order(rules, hand.deck), dealer=dealer, running_totals=standing.totals)
            for k, action in enumerate(hand.actions):
                yield repr(validate_state(rules, state)).encode()
                yield repr(legal_actions(rules, state)).encode()
                if k % CANDIDATES_EVERY == 0:
                    for candidate in candidates(rules, state)[:CANDIDATES_PER_STATE]:
                        try:
                            judged = check_action(rules, state, candidate)
                            yield repr((judged.legal, judged.violations, judged.events)).encode()
                        except InvalidInputError as exc:
                            yield repr(exc).encode()
                verdict = check_action(rules, state, action)
                yield repr((verdict.legal, verdict.violations, verdict.events, verdict.next_state)).encode()
                if verdict.next_state is None:
                    raise RuntimeError(f"{rules.id}: the simulated game played an illegal action {action}")
                state = verdict.next_state
            standing = after_hand(rules, standing, hand.claimed_scores)


def digests(book: RuleBook, games: int) -> list[tuple[str, str]]:
    """(rule-set id, hex digest) per rule set, then ("ALL", the digest of them all)."""
    out, whole = [], hashlib.sha256()
    for loaded in book:
        one = hashlib.sha256()
        for chunk in _answers(loaded.rules, games):
            one.update(chunk)
        out.append((loaded.rules.id, one.hexdigest()))
        whole.update(one.digest())
    out.append(("ALL", whole.hexdigest()))
    return out


def main(argv: list[str] | None = None) -> None:
    """Print the digests."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1, help="Seeded games per rule set (default 1).")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    for rule_set_id, digest in digests(default_rule_book(), args.games):
        print(f"{rule_set_id} {digest}")


if __name__ == "__main__":
    main()
