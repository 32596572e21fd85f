"""Judges one RefereeGame message against the stream's live game: the answer and the game after it."""

from __future__ import annotations

from oracle.api.v1 import oracle_pb2
from oracle.games.live import LiveGame, OutOfTurnError
from oracle.games.notation import notation
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.interrupt import StopSignal
from oracle.service.api import OracleApi
from oracle.service.convert_game import fill_state, verdict_to_proto
from oracle.service.referee_answer import fill_verdict


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
            fill_state(response.state, state)
        elif kind in ("action", "action_text"):
            if kind == "action":
                action = api.action(request.action, game.rules)
            else:
                action = api.action_text(request.action_text, game.rules)
            verdict = game.act(action)
            answer = response.verdict
            if full_state:  # the verdict with its next state
                answer.CopyFrom(verdict_to_proto(verdict, api.limits.max_violations))
            else:  # without it (the events say what changed), written in place
                fill_verdict(answer, verdict.legal, verdict.violations, verdict.events, api.limits.max_violations)
            answer.notation = notation(action)
            assert game.state is not None
            if full_state:
                fill_state(response.state, game.state)
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
