"""The automatic arbiter (R14, R34) and resignation, through the websocket."""

import pytest
import yaml
from channels.db import database_sync_to_async

from registry.models import GameRecord, RatingChange
from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# Sideways moves on the home rows: no capture, no new threat, no progress (R14), and no
# position repeats (R13). After three such turns each the game is flagged.
QUIET = [("I", "A1", "B1"), ("O", "A8", "B8"), ("I", "C1", "D1"), ("O", "C8", "D8"),
         ("I", "E1", "F1"), ("O", "E8", "F8")]


async def test_flagged_game_warns_both_then_resignation_ends_it(game, players, cookies, worker):
    alice, bob, _ = players
    comms = {"I": (await connect(game, await database_sync_to_async(cookies)(alice)))[0],
             "O": (await connect(game, await database_sync_to_async(cookies)(bob)))[0]}
    version = 0
    for n, (side, frm, to) in enumerate(QUIET):
        comm = comms[side]
        await comm.send_json_to(step(frm, to, version, f"q{n}"))
        assert (await receive(comm, "ack", "rejected"))["type"] == "ack"
        version += 1
        await comm.send_json_to({"type": "end", "version": version, "seq": f"e{n}"})
        ack = await receive(comm, "ack", "rejected")
        assert ack["type"] == "ack", ack
        update = await receive(comm, "update")
        while update["version"] < ack["version"]:
            update = await receive(comm, "update")
        version = update["version"]
    # The end of O's third quiet turn also carried the arbiter's two warnings.
    events = update["events"]
    assert [(e["kind"], e["data"].get("side")) for e in events[-2:]] == [("warn", "I"),
                                                                          ("warn", "O")]
    state = update["state"]
    assert state["flagged"] and state["warned"] == ["I", "O"]
    assert [a["action"] for a in state["arbiter"]] == ["warn", "warn"]

    # O resigns (any time, no version needed); both sockets hear the result.
    await comms["O"].send_json_to({"type": "resign", "seq": "bye"})
    assert (await receive(comms["O"], "ack", "rejected"))["type"] == "ack"
    final = await receive(comms["I"], "update")
    while final["state"]["outcome"] is None:
        final = await receive(comms["I"], "update")
    assert final["state"]["outcome"]["winner"] == "I"
    assert final["state"]["outcome"]["reason"] == "decision"
    assert final["game"]["result"]["winner"] == "I"
    # The records and ratings come from the worker, after the game's end, to both sockets.
    for comm in comms.values():
        archived = await receive(comm, "game")
        assert {r["kind"] for r in archived["game"]["records"]} == {"STGN", "STGE", "STSE",
                                                                   "STDGS"}
        assert set(archived["game"]["rating_changes"]) == {"I", "O"}
    # the session entry records the arbiter's decisions (R34); the game was rated
    stse = await GameRecord.objects.aget(game__live=game, kind="STSE")
    session = yaml.safe_load(stse.content)["session"]
    assert [(a["action"], a["side"]) for a in session["arbiter"]] == [("warn", "I"),
                                                                      ("warn", "O")]
    assert session["turns"][-1] == "!: I"
    assert await RatingChange.objects.filter(game__live=game).acount() == 2
    # nothing more can be played
    await comms["I"].send_json_to(step("B2", "B3", final["version"], "late"))
    late = await receive(comms["I"], "rejected", "ack")
    assert late["type"] == "rejected" and late["code"] == "finished"
    for comm in comms.values():
        await comm.disconnect()
