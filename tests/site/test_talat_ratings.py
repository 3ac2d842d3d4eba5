"""Talat's ratings (A9): one rating for three-seat Talat and one for two-seat Talat, from
the final ranks; a game in which a seat never moved is not rated, nor is one with a computer
seat (the lobby makes those casual: tests/site/test_tables.py)."""

from __future__ import annotations

import pytest

from play.commands.player import submit_as
from play.lifecycle import start_table
from play.models import Game
from play.worker.loop import run_due
from registry.game_ratings.models import GameRatingChange

pytestmark = pytest.mark.django_db


def _act(game: Game, user, what: str, **kw):
    game.refresh_from_db()
    outcome = submit_as(game.uuid, user, what, version=game.version, **kw)
    assert outcome.ok, outcome.reason
    return outcome


def test_a_three_seat_game_is_rated_by_its_ranks_in_its_own_rating(make_user, client):
    ana, ben, cyd = (make_user(n) for n in ("ana", "ben", "cyd"))
    game = start_table("talat/three", [ana, ben, cyd], rated=True)
    _act(game, ana, "step", step={"action": "@12:a1 L6"})
    _act(game, ben, "step", step={"action": "@23:a1 L6"})
    _act(game, cyd, "step", step={"action": "@31:a1 L6"})
    _act(game, cyd, "resign")  # cyd leaves: last (A8)
    _act(game, ana, "resign")  # one seat left: ben first, ana second
    run_due()
    game.refresh_from_db()
    assert game.ranks == {"2": 1, "1": 2, "3": 3}
    changes = {c.user_id: c for c in GameRatingChange.objects.filter(game_id=game.pk)}
    assert set(changes) == {ana.pk, ben.pk, cyd.pk}
    assert {c.variant for c in changes.values()} == {"three"}  # A9: three-seat Talat's own
    assert changes[ben.pk].display_after > changes[ben.pk].display_before
    assert changes[cyd.pk].display_after < changes[cyd.pk].display_before
    board = client.get("/leaderboard/talat/").content.decode()
    assert all(n in board for n in ("ana", "ben", "cyd")) and "three" in board
    assert board.index("ben") < board.index("cyd")  # the winner above the one who left first
    two = client.get("/leaderboard/talat/?variant=two").content.decode()
    assert "ben" not in two  # two-seat Talat is rated apart (A9): nobody there yet


def test_a_game_where_a_seat_never_moved_is_not_rated(make_user):
    ana, ben, cyd = (make_user(n) for n in ("ana", "ben", "cyd"))
    game = start_table("talat/three", [ana, ben, cyd], rated=True)
    _act(game, ana, "step", step={"action": "@12:a1 L6"})
    _act(game, ben, "step", step={"action": "@23:a1 L6"})
    _act(game, cyd, "resign")  # before placing a single tower
    _act(game, ana, "resign")
    run_due()
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.ranks == {"2": 1, "1": 2, "3": 3}
    assert not GameRatingChange.objects.filter(game_id=game.pk).exists()
