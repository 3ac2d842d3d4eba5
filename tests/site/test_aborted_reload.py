"""Newcomer fault 1 (issue 39): an aborted rated game, opened again after its end, said
"Recording the result..." for ever (an aborted game has no result to record, R37) and both
clocks went back to "first turn 0:30" (the clock's fold charged nothing to the seat whose
opening turn ran out). Read as a reloading page reads it: the log replayed afresh, the
metadata after the archive ran."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from play import gameview
from play.lifecycle import start_game
from play.models import Game
from play.store import engines
from play.worker import clocks
from play.worker.loop import run_due

pytestmark = pytest.mark.django_db(transaction=True)


def aborted_rated_game(alice, bob) -> Game:
    """A rated 10+5 game whose light side let its 30 s opening turn run out (R36, R37)."""
    game = start_game(alice, bob, rated=True, time_control="fischer 600+5")
    t = timezone.now() - timedelta(seconds=45)
    Game.objects.filter(pk=game.pk).update(created=t, deadline=t + timedelta(seconds=30))
    engines.forget()
    assert len(clocks.flag_due()) == 1
    run_due()  # the archive marks it aborted
    engines.forget()  # a reload in another process: the log replayed afresh
    return Game.objects.get(pk=game.pk)


def test_an_aborted_game_after_a_reload_waits_for_no_record(players):
    game = aborted_rated_game(*players[:2])
    assert game.reason == "aborted"
    meta = gameview.game_meta(game)
    assert meta["archived"] is True  # the page does not say "Recording the result..."
    assert meta["rating_changes"] == {}


def test_an_aborted_games_clocks_after_a_reload_show_the_opening_turn_ran_out(players):
    game = aborted_rated_game(*players[:2])
    clock = gameview.snapshot_for(game)["clock"]
    assert clock["running"] is None
    assert clock["remaining"]["I"] == 0  # light's opening turn ran out
    assert clock["opening"] == ["I", "O"]
    # neither side's ten minutes were touched (the opening turn is never charged to them)
    assert clock["main"] == {"I": 600_000, "O": 600_000}
