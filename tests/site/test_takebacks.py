"""Takebacks in casual games by agreement (issue 39) through the server: a casual game's
metadata offers a takeback and a rated one's does not; asked and accepted over the command
path, the board, the turn and the move list go back to before the asker's last turn, and the
game plays on from there; the review steps through the game without the taken-back moves;
the finished game's records hold the game as played."""

from __future__ import annotations

import pytest

from play.commands.path import execute
from play.commands.player import submission, submit_as
from play.gameview import game_meta
from play.lifecycle import start_game
from play.models import Game
from play.store import engines

pytestmark = pytest.mark.django_db


def _send(game: Game, user, message: dict):
    game.refresh_from_db()
    message = {**message, "seq": f"{user.pk}-{game.version}-{message['type']}"}
    if message["type"] in ("step", "end"):
        message["version"] = game.version
    return execute(submission(message, game.uuid, game.side_of(user)))


def _move(game: Game, user, frm: str, to: str) -> None:
    game.refresh_from_db()
    assert submit_as(game.uuid, user, "step", version=game.version,
                     step={"kind": "move", "from": frm, "to": to}).ok
    game.refresh_from_db()
    assert submit_as(game.uuid, user, "step", version=game.version, step={"kind": "end"}).ok


def test_a_casual_game_offers_takebacks_and_a_rated_one_does_not(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    casual = start_game(alice, bob, variant="standard", rated=False)
    rated = start_game(alice, bob, variant="standard", rated=True)
    assert game_meta(casual)["offers"] == ["null", "takeback"]
    assert game_meta(rated)["offers"] == ["null"]
    _move(rated, alice, "A2", "A3")
    refused = _send(rated, alice, {"type": "offer", "what": "takeback"})
    assert not refused.ok and "casual games only: this game is rated" in refused.reason


def test_an_accepted_takeback_returns_the_game_and_the_review_skips_it(make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob, variant="standard", rated=False)
    _move(game, alice, "A2", "A3")
    _move(game, bob, "H7", "H6")
    _move(game, alice, "B2", "B3")
    game.refresh_from_db()
    notation_before = game.stgn
    assert _send(game, alice, {"type": "offer", "what": "takeback"}).ok
    accepted = _send(game, bob, {"type": "offer", "what": "takeback"})
    assert accepted.ok
    game.refresh_from_db()
    assert game.is_live and game.stgn != notation_before
    assert game.stgn.count("\n") < notation_before.count("\n")  # a line fewer
    engines.forget()  # a replay of the log from the database agrees
    state = engines.take(game)
    try:
        board = state.engine.board()
    finally:
        engines.put(game, state)
    assert "B3" not in board.get("I", []) and "A3" in board.get("I", [])
    # alice plays another move instead, and the game goes on
    _move(game, alice, "C2", "C3")
    client.force_login(alice)
    review = client.get(f"/games/{game.uuid}/review.json")
    assert review.status_code == 200
    bodies = [t["body"] for t in review.json()["turns"]]
    assert len(bodies) == 3 and not any("B3" in b for b in bodies)
    assert any("C3" in b for b in bodies)
