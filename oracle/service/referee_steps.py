"""Judges one RefereeGame message against the stream's live game: the answer and the game after it."""

from __future__ import annotations

from oracle.api.v1 import oracle_pb2
from oracle.games.live import LiveGame, OutOfTurnError
from oracle.model.actions import format_action
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.interrupt import StopSignal
from oracle.rules.referee import Verdict
from oracle.service.api import OracleApi
from oracle.service.convert_game import state_to_proto, verdict_to_proto


def referee_step(
    api: OracleApi,
    game: LiveGame | None,
    request: oracle_pb2.RefereeGameRequest,
    stop: StopSignal | None = None,
    *,
    full_state: bool = False,
) -> tuple[oracle_pb2.RefereeGameResponse, LiveGame | None]:
    """Judge one message of the stream: the answer and the game after it. An action's answer carries the whole
    state only when the stream asked for it (`full_state`); its events say what changed."""
    kind = request.WhichOneof("kind")
    response = oracle_pb2.RefereeGameResponse()
    try:
        if kind == "start":
            if game is not None:
                raise OutOfTurnError("the game has already started")
            game = api.referee_start(request.start)
            response.verdict.legal = True
        elif game is None:
            raise OutOfTurnError("the first message must be start")
        elif kind == "deal":
            state = game.deal(api.referee_deck(request.deal, game.rules))
            response.verdict.legal = True
            response.state.CopyFrom(state_to_proto(state))
        elif kind in ("action", "action_text"):
            if kind == "action":
                action = api.action(request.action, game.rules)
            else:
                action = api.action_text(request.action_text, game.rules)
            verdict = game.act(action)
            if not full_state and verdict.next_state is not None:  # (not dataclasses.replace: 4x the cost)
                verdict = Verdict(verdict.legal, verdict.violations, verdict.events, None)
            response.verdict.CopyFrom(verdict_to_proto(verdict, api.limits.max_violations))
            response.verdict.notation = format_action(action)
            assert game.state is not None
            if full_state:
                response.state.CopyFrom(state_to_proto(game.state))
        else:
            raise InvalidInputError([FieldProblem("kind", "empty message: set start, deal, action or action_text")])
    except OutOfTurnError as exc:
        response.error = str(exc)
    if game is not None:
        response.totals.extend(game.standing.totals)
        response.game_over = game.standing.over
        if game.standing.winner is not None:
            response.winner = game.standing.winner
    return response, game


__all__ = ["referee_step"]
