"""The heartbeat of a whole process (``services.touch``): every socket's presence row kept
fresh, rows lost while the process stalled put back, and each game's version and spectator
count read in one go, so a socket can catch up and show the right count."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from play.commands.player import submit_as
from play.lifecycle import start_game
from play.live import presence
from play.models import Watcher

pytestmark = pytest.mark.django_db

A2_A3 = {"kind": "move", "from": "A2", "to": "A3"}


def test_one_call_refreshes_every_socket_and_reports_each_game(game, players):
    alice, bob, carol = players
    other = start_game(bob, alice, variant="standard", rated=False)
    presence.open_socket(game.uuid, "ch.alice", alice, "s1")
    presence.open_socket(game.uuid, "ch.carol", carol, "s1")
    presence.open_socket(other.uuid, "ch.bob", bob, "s1")
    Watcher.objects.update(seen=timezone.now() - timedelta(hours=1))  # a stalled process
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok

    found = presence.touch("s1", [("ch.alice", str(game.uuid), "player"),
                                  ("ch.carol", str(game.uuid), "spectator"),
                                  ("ch.bob", str(other.uuid), "player")])

    assert found == {str(game.uuid): (1, 1), str(other.uuid): (0, 0)}
    cutoff = timezone.now() - timedelta(seconds=5)
    assert Watcher.objects.filter(seen__gte=cutoff).count() == 3


def test_rows_deleted_as_stale_are_put_back_and_counted(game, players):
    _, _, carol = players
    presence.open_socket(game.uuid, "ch.carol", carol, "s1")
    Watcher.objects.all().delete()  # another process's join swept them while we stalled

    found = presence.touch("s1", [("ch.carol", str(game.uuid), "spectator"),
                                  ("ch.dave", str(game.uuid), "spectator")])

    assert found == {str(game.uuid): (0, 2)}
    assert sorted(Watcher.objects.values_list("channel_name", "role", "server")) == [
        ("ch.carol", "spectator", "s1"), ("ch.dave", "spectator", "s1")]


def test_a_game_that_is_gone_is_left_out(game, players):
    assert presence.touch("s1", [("ch.x", "00000000-0000-0000-0000-000000000000",
                                  "spectator")]) == {}
    assert presence.touch("s1", []) == {}


def test_a_heartbeat_sweeps_the_stale_rows_of_its_games_only(game, players):
    """A killed process's rows stop counting once stale and are deleted by the next heartbeat
    of a process with a socket on their game; another game's rows wait for its own."""
    alice, bob, carol = players
    other = start_game(bob, alice, variant="standard", rated=False)
    presence.open_socket(game.uuid, "ch.dead1", carol, "dead")
    presence.open_socket(other.uuid, "ch.dead2", carol, "dead")
    Watcher.objects.update(seen=timezone.now() - timedelta(hours=1))  # the process was killed
    presence.open_socket(game.uuid, "ch.carol", carol, "s1")

    found = presence.touch("s1", [("ch.carol", str(game.uuid), "spectator")])

    assert found == {str(game.uuid): (0, 1)}
    assert sorted(Watcher.objects.values_list("channel_name", flat=True)) == [
        "ch.carol", "ch.dead2"]
