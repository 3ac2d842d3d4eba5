"""Short forced lines played through the command path (no websocket)."""

from __future__ import annotations

from play.commands.player import submit_as
from play.lifecycle import start_game
from play.models import Game
from play.worker.loop import run_due

# I moves once, then passes three times while O moves: I forfeits (R12), O wins.
FORFEIT_BY_I = [
    ("I", "step", {"kind": "move", "from": "A2", "to": "A3"}),
    ("I", "end", None),
    ("O", "step", {"kind": "move", "from": "H7", "to": "H6"}),
    ("O", "end", None),
    ("I", "pass", None),
    ("O", "step", {"kind": "move", "from": "G7", "to": "G6"}),
    ("O", "end", None),
    ("I", "pass", None),
    ("O", "step", {"kind": "move", "from": "F7", "to": "F6"}),
    ("O", "end", None),
    ("I", "pass", None),
]

# Three passes in a row by both players alternately: a null game (R12).
NULL_GAME = [("I", "pass", None), ("O", "pass", None), ("I", "pass", None)]


def resigned_unarchived(alice, bob) -> Game:
    """A rated game that O (``bob``) resigned after one step of I's: ended, committed, not
    archived (the archive tests run the archive themselves)."""
    game = start_game(alice, bob, rated=True)
    assert submit_as(game.uuid, alice, "step", step={"kind": "move", "from": "A2", "to": "A3"},
                     version=0, seq="a", announce=False).ok
    assert submit_as(game.uuid, bob, "resign", seq="r", announce=False).ok
    return Game.objects.get(pk=game.pk)


def play_line(game, line) -> None:
    """Play ``line`` through the command path, then run the worker's due jobs once, as the
    worker does after a game's end (its records, tally and ratings)."""
    who = {"I": game.player_i, "O": game.player_o}
    for side, action, step in line:
        game.refresh_from_db()
        res = submit_as(game.uuid, who[side], action, step=step, version=game.version)
        assert res.ok, res.reason
    run_due()
    game.refresh_from_db()


def store_only(game_uuid, user, action, **kwargs):
    """A player's message stored by the command path and announced to nobody (as by a process
    whose broadcast was lost): the tests of delivery then send the layer messages themselves."""
    return submit_as(game_uuid, user, action, announce=False, **kwargs)


def race(job, workers: int = 2) -> list:
    """Run ``job()`` (a worker's round, returning a list) on ``workers`` threads released
    together, as several worker processes would: everything they return, in one list. On
    SQLite (one writer) a thread whose round hits the lock fails that round, as the worker's
    loop does (it tries again next round); PostgreSQL runs them all for real."""
    import threading

    from django.db import OperationalError, connection

    results: list = []
    barrier = threading.Barrier(workers)

    def worker() -> None:
        barrier.wait()
        try:
            results.extend(job())
        except OperationalError:
            pass
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results
