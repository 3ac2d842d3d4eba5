"""The spectator count a socket is told when it opens, and its game's count once it closes
(``services.open_socket``, ``services.leave``): one statement each on PostgreSQL
(``play.presence_sql``), the ORM's two elsewhere, the same counts either way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from play.lifecycle import start_game
from play.live import presence
from play.models import Watcher

pytestmark = pytest.mark.django_db


def test_spectators_are_counted_as_they_come_and_go(game, players):
    alice, bob, carol = players
    assert presence.open_socket(game.uuid, "ch.alice", alice, "s1").spectators == 0
    assert presence.open_socket(game.uuid, "ch.carol", carol, "s1").spectators == 1
    assert presence.open_socket(game.uuid, "ch.anon", None, "s2").spectators == 2
    assert presence.open_socket(game.uuid, "ch.bob", bob, "s2").spectators == 2  # a player
    assert presence.leave("ch.bob", game.pk, spectator=False) is None
    assert presence.leave("ch.anon", game.pk, spectator=True) == 1
    assert presence.leave("ch.carol", game.pk, spectator=True) == 0
    assert sorted(Watcher.objects.values_list("channel_name", flat=True)) == ["ch.alice"]


def test_a_socket_registered_again_counts_once(game, players):
    carol = players[2]
    assert presence.open_socket(game.uuid, "ch.carol", carol, "s1").spectators == 1
    assert presence.open_socket(game.uuid, "ch.carol", carol, "s1").spectators == 1
    assert Watcher.objects.filter(channel_name="ch.carol").count() == 1


def test_stale_rows_and_other_games_are_not_counted(game, players):
    alice, bob, carol = players
    other = start_game(bob, alice, variant="standard", rated=False)
    presence.open_socket(game.uuid, "ch.dead", carol, "dead")
    Watcher.objects.update(seen=timezone.now() - timedelta(hours=1))  # its process was killed
    presence.open_socket(other.uuid, "ch.elsewhere", None, "s1")
    assert presence.open_socket(game.uuid, "ch.carol", carol, "s1").spectators == 1
    assert presence.open_socket(game.uuid, "ch.anon", None, "s1").spectators == 2
    assert presence.leave("ch.anon", game.pk, spectator=True) == 1


def test_a_socket_that_moves_to_another_game_is_counted_there(game, players):
    alice, bob, carol = players
    other = start_game(bob, alice, variant="standard", rated=False)
    presence.open_socket(game.uuid, "ch.carol", carol, "s1")
    assert presence.open_socket(other.uuid, "ch.carol", carol, "s1").spectators == 1
    assert presence.open_socket(game.uuid, "ch.anon", None, "s1").spectators == 1
