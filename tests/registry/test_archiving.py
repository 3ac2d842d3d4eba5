"""Archiving a finished game (``registry.archiving``) happens once, whoever runs it and however
often: a second run finds it done, two runs at once write it once (the registry game's lock),
a failed run writes nothing and is retried, and the outbox row's claim is a lease two workers
cannot hold together (``play.worker.outbox``).

The concurrent run needs PostgreSQL's row locks: it is collected in the registry's PostgreSQL
rerun (the services lane, ``tests/lanes.py``) and wherever the database is PostgreSQL.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from play.lifecycle import start_game
from play.models import Game, Outbox
from play.worker import outbox
from play.worker.loop import run_due
from registry import archiving
from registry.models import GameRecord, RatingChange, RegistryGame
from tests import stack
from tests.site.gameplay import resigned_unarchived


def _archived_once(game: Game) -> None:
    arch = RegistryGame.objects.get(live=game)
    assert arch.status == RegistryGame.FINISHED and arch.winner == "I"
    kinds = sorted(GameRecord.objects.filter(game=arch).values_list("kind", flat=True))
    assert kinds == ["STDGS", "STGE", "STGN", "STSE"]
    assert RatingChange.objects.filter(game=arch).count() == 2


@pytest.mark.django_db
def test_a_finished_game_waits_in_the_outbox_until_a_worker_runs(players):
    alice, bob, _ = players
    game = resigned_unarchived(alice, bob)
    row = Outbox.objects.get(game=game)
    assert (row.topic, row.done, row.attempts) == (Outbox.FINISHED, None, 0)
    assert RegistryGame.objects.get(live=game).status == RegistryGame.PLAYING  # not yet
    assert run_due() == 1
    _archived_once(game)
    row.refresh_from_db()
    assert row.done is not None and row.attempts == 1
    assert run_due() == 0  # nothing due any more


@pytest.mark.django_db
def test_a_second_archive_of_a_game_does_nothing(players):
    alice, bob, _ = players
    game = resigned_unarchived(alice, bob)
    assert archiving.archive(game) is True
    assert archiving.archive(game) is False
    _archived_once(game)


@pytest.mark.django_db
def test_a_game_in_play_is_not_archived(players):
    alice, bob, _ = players
    game = start_game(alice, bob, rated=True)
    with pytest.raises(ValueError, match="still in play"):
        archiving.archive(game)


@pytest.mark.django_db
def test_a_claim_is_a_lease_no_second_worker_takes(players):
    alice, bob, _ = players
    game = resigned_unarchived(alice, bob)
    now = timezone.now()
    assert outbox.claim("w1", lease=60, now=now) == [Outbox.objects.get(game=game).pk]
    assert outbox.claim("w2", lease=60, now=now) == []  # held by w1
    assert outbox.claim("w2", lease=60, now=now + timedelta(seconds=30)) == []
    # w1 died: its lease runs out, and w2 takes the row.
    assert len(outbox.claim("w2", lease=60, now=now + timedelta(seconds=61))) == 1
    assert Outbox.objects.get(game=game).attempts == 2


@pytest.mark.django_db
def test_a_failed_archive_writes_nothing_and_is_retried_later(players, monkeypatch, caplog):
    alice, bob, _ = players
    game = resigned_unarchived(alice, bob)

    def no_keyring(*args, **kwargs):
        raise OSError("the keyring is not readable")

    real_build = archiving._build_records
    monkeypatch.setattr(archiving, "_build_records", no_keyring)
    assert run_due() == 0
    assert "the keyring is not readable" in caplog.text
    row = Outbox.objects.get(game=game)
    assert row.done is None and "keyring" in row.last_error and row.due > timezone.now()
    assert RegistryGame.objects.get(live=game).status == RegistryGame.PLAYING
    assert not RatingChange.objects.exists()  # the ratings wait for the records (R30)
    caplog.clear()
    monkeypatch.setattr(archiving, "_build_records", real_build)
    Outbox.objects.filter(pk=row.pk).update(due=timezone.now())  # the backoff has passed
    assert run_due() == 1
    _archived_once(game)


if connection.vendor == "postgresql" or stack.on_services():

    @pytest.mark.django_db(transaction=True)
    def test_two_archives_at_once_write_the_game_once(players, monkeypatch):
        """Both runs pass the first check and build the records; the registry game's row lock
        lets one write, and the other finds the game archived."""
        alice, bob, _ = players
        game = resigned_unarchived(alice, bob)
        both_built = threading.Barrier(2, timeout=30)
        real_build = archiving._build_records

        def build_then_wait(*args, **kwargs):
            records = real_build(*args, **kwargs)
            both_built.wait()
            return records

        monkeypatch.setattr(archiving, "_build_records", build_then_wait)
        results: list[bool] = []

        def run() -> None:
            try:
                results.append(archiving.archive(Game.objects.get(pk=game.pk)))
            finally:
                close_old_connections()
                connection.close()

        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(results) == [False, True]
        _archived_once(game)
