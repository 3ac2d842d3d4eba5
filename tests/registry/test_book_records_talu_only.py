"""The registry's book records are talu's (issue 36): a game of another game gets no registry
entry nor signed game entry (STGE) when it starts, no session entries when it is adjourned and
no archive (STSE, STGN, STDGS, tally, R30 ledger) when it ends; its record and ratings are
``registry.other_games``'. A talu game still gets all of them."""

from __future__ import annotations

import pytest

from play.lifecycle import start_game
from play.models import Game, GameEvent
from registry import archiving
from registry.models import GameRecord, RegistryGame
from registry.play_directory import RegistryDirectory

pytestmark = pytest.mark.django_db


def test_a_talu_game_still_gets_its_entry_when_it_starts(players):
    alice, bob, _ = players
    game = start_game(alice, bob)
    entry = RegistryGame.objects.get(live=game)
    assert GameRecord.objects.filter(game=entry, kind=GameRecord.STGE).count() == 1


def test_another_games_start_adjournment_and_end_leave_the_book_registry_alone(players):
    alice, bob, _ = players
    game = Game.objects.create(game="tafl", variant="11x11", player_i=alice, player_o=bob)
    RegistryDirectory().game_started(game)
    assert not RegistryGame.objects.filter(live=game).exists()

    GameEvent.objects.create(game=game, version=1, kind="seal", side="attackers", data={})
    assert archiving.write_ended_sessions(game) == 0

    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, winner="attackers",
                                           reason="capture", version=1)
    game.refresh_from_db()
    assert archiving.archive(game) is False  # not raised: its log is not talu's
    assert archiving.archive(game) is False
    assert not RegistryGame.objects.filter(live=game).exists()
    assert not GameRecord.objects.filter(game__live=game).exists()
