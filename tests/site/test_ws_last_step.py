"""The step that ends a game, sent on the websocket: decided on the state this process already
holds and stored like any step (its outbox row in the same append), with no replay of the game;
the records are written after, by the worker, which replays the log once, and the records core
replays the notation once, not once for the session entry and again for the slip (a game's end
was the most expensive step of all under load, issue 7; issue 19 took it off the step path)."""

import copy
import random

import pytest
from channels.db import database_sync_to_async

import play.games.talu as rules
from play.commands.player import submit_as
from play.games.talu import Step
from play.games.talu import TaluGame as Engine
from play.games.talu.protocol import apply_event
from play.models import Game, GameEvent
from play.store import engines, group_commit
from play.store import log as event_log
from registry.models import GameRecord
from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _play_to_the_last_step(game, players) -> tuple[str, Step, int]:
    """Play ``game`` through the service up to the step that would end it: (side, that step,
    the version it is made against). Captures first, never a pass, so the game ends by play."""
    users = {"I": players[0], "O": players[1]}
    shadow, rng, version = Engine(game.variant), random.Random(11), 0
    for _ in range(2000):
        legal = [s for s in shadow.legal_steps() if s.kind != "pass"]
        captures = [s for s in legal if s.kind in ("capture", "exit", "stay")]
        step = rng.choice(captures or legal)
        side = shadow.side_to_move.value
        trial = copy.deepcopy(shadow)
        trial.play(step)
        if trial.outcome is not None:
            return side, step, version
        res = submit_as(game.uuid, users[side], "step", step=step.to_dict(),
                              version=version, seq=f"s{version}")
        assert res.ok, res
        for ev in res.events:  # the arbiter's warnings too (R14)
            apply_event(shadow, ev["kind"], ev["data"])
        version = res.version
    raise AssertionError("the game did not end")


async def test_the_last_step_is_stored_without_a_replay_and_archived_after(
        game, players, cookies, monkeypatch, worker):
    side, last, version = await database_sync_to_async(_play_to_the_last_step)(game, players)
    mover = players[0] if side == "I" else players[1]
    replays = []
    real_replay = engines.replay

    def counting_replay(*args, **kwargs):
        replays.append(args)
        return real_replay(*args, **kwargs)

    monkeypatch.setattr(engines, "replay", counting_replay)
    readings = []  # the records core's replays of the notation (registry.records.verify)
    real_read = rules.read_stgn
    monkeypatch.setattr(rules, "read_stgn",
                        lambda *a, **k: readings.append(a) or real_read(*a, **k))
    a, _, first = await connect(game, await database_sync_to_async(cookies)(mover))
    assert first["version"] == version
    try:
        await a.send_json_to({"type": "step", "step": last.to_dict(), "version": version,
                              "seq": "last"})
        ack = await receive(a, "ack", "rejected")
        assert ack == {"type": "ack", "seq": "last", "version": version + 1}
        update = await receive(a, "update")
        assert update["game"]["status"] == Game.FINISHED
        assert update["state"]["outcome"]["finished"] is True
        assert update["game"]["archived"] is False and update["game"]["records"] == []
        assert replays == []  # the state of the game's last position, not a replay of its log
        archived = await receive(a, "game")  # the worker's, once the records are written
        assert archived["game"]["archived"] is True
        assert {r["kind"] for r in archived["game"]["records"]} == {"STGN", "STGE", "STSE",
                                                                   "STDGS"}
    finally:
        await a.disconnect()
        if event_log.on_postgresql():
            await group_commit.close_async()
    assert len(replays) == 1  # the archive's, once, in the worker
    assert len(readings) == 1  # the session entry's check; the slip is derived from its replay
    row = await Game.objects.aget(pk=game.pk)
    assert (row.status, row.version) == (Game.FINISHED, version + 1)
    assert await GameEvent.objects.filter(game=game, seq="last").acount() == 1
    stgn = await GameRecord.objects.aget(game__live=game, kind=GameRecord.STGN)
    # The record is STGN as a file of its own (R15): the game's notation, and where the result
    # rests on the automatic warnings (R14, R34) its deciding turn without ' !', the result line
    # alone (issue 26); either way it replays to the game's winner.
    warned = await GameEvent.objects.filter(game=game, kind="warn").aexists()
    assert stgn.content == (row.stgn.replace(" !\n", "\n") if warned else row.stgn)
    replayed = real_read(stgn.content, row.variant)
    assert (replayed.outcome.winner.value if replayed.outcome.winner else "-") == row.winner
