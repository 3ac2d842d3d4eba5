"""Adjournment over the websocket (R38, R40): the sealed turn never leaks, survives a restart,
and the game's records hold two chained sessions that ``talu verify`` and stock ``gpg
--verify`` accept.

alice (I) and bob (O) play a turn each; alice offers to adjourn, bob accepts; alice seals her
next turn (A2-A3). Every frame bob and the spectator carol receive until the resumption is
checked: none shows A3 occupied, none names the sealed step. The server's cached states are
then dropped (a restart) and everyone reconnects: still hidden from bob and carol, alice gets
her own position. Both agree to resume: the sealed turn is revealed to all; alice resigns; the
archive writes STSE 1 (ending before the sealed turn, with ``adjourn``) and STSE 2 (starting
with it, with ``resume``), chained in the STDGS.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from channels.db import database_sync_to_async

from play.lifecycle import start_game
from play.models import Game
from play.store import engines
from play.worker.loop import run_due
from play.worker.rounds import run_sessions
from registry.models import GameRecord
from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True)]


def _leaks(frame: dict) -> list[str]:
    """What in ``frame`` would reveal the sealed turn A2-A3 to its opponent or a spectator."""
    text = json.dumps(frame)
    found = []
    if "A2-A3" in text:
        found.append("the sealed step's text")
    states = [frame.get("state")] if frame.get("state") else []
    for state in states:
        if "sealed" in state:
            found.append("the sealed state")
        if "A3" in state["board"]["I"] or "A2" not in state["board"]["I"]:
            found.append("the board after the sealed step")
        if state["open_turn"]["steps"]:
            found.append("the sealed turn's steps")
    for event in frame.get("events", []):
        if event["kind"] == "step" and event["data"].get("to") == "A3":
            found.append("the sealed step event")
    return found


async def _drain(comm, frames: list, timeout: float = 0.5) -> None:
    """Every frame ``comm`` has received until it falls quiet (those ``receive`` held back
    first)."""
    pending = comm.__dict__.setdefault("talu_pending", [])
    frames.extend(pending)
    pending.clear()
    while not await comm.receive_nothing(timeout=timeout):
        frames.append(await comm.receive_json_from())


async def _send(comm, msg: dict) -> dict:
    await comm.send_json_to(msg)
    reply = await receive(comm, "ack", "rejected")
    assert reply["type"] == "ack", reply
    return reply


@pytest.mark.asyncio
async def test_sealed_turn_hidden_then_two_sessions_verify(players, cookies, tmp_path):
    alice, bob, _carol = players
    engines.forget()
    game = await database_sync_to_async(start_game)(alice, bob, time_control="fischer 600+0")
    ck = {u.username: await database_sync_to_async(cookies)(u) for u in players}
    comm_i, _, _ = await connect(game, ck["alice"])
    comm_o, _, _ = await connect(game, ck["bob"])
    comm_s, _, _ = await connect(game, ck["carol"])

    version = 0
    for comm, frm, to in ((comm_i, "A1", "B1"), (comm_o, "A8", "B8")):
        for msg in ({"type": "step", "step": {"kind": "move", "from": frm, "to": to}},
                    {"type": "end"}):
            ack = await _send(comm, {**msg, "version": version, "seq": f"s{version}"})
            version = ack["version"]
    # An offer during a turn is refused, nothing changes.
    ack = await _send(comm_i, {"type": "step", "version": version, "seq": "x",
                               "step": {"kind": "move", "from": "C1", "to": "D1"}})
    await comm_i.send_json_to({"type": "adjourn", "seq": "early"})
    refused = await receive(comm_i, "rejected")
    assert "between turns" in refused["reason"]
    version = (await _send(comm_i, {"type": "end", "version": ack["version"], "seq": "x2"})
               )["version"]
    await _send(comm_o, {"type": "step", "version": version, "seq": "o2",
                         "step": {"kind": "move", "from": "C8", "to": "D8"}})
    version = (await _send(comm_o, {"type": "end", "version": version + 1, "seq": "o3"})
               )["version"]

    seen = {"bob": [], "carol": []}
    await _drain(comm_o, seen["bob"])
    await _drain(comm_s, seen["carol"])
    seen = {"bob": [], "carol": []}
    await _send(comm_i, {"type": "adjourn", "seq": "adj1", "reason": "dinner"})
    await _send(comm_o, {"type": "adjourn", "seq": "adj2"})
    # alice seals A2-A3 and ends the turn.
    update = await receive(comm_i, "update")
    while update["version"] < version + 2:
        update = await receive(comm_i, "update")
    assert update["state"]["adjournment"]["sealing"] == "I"
    v = update["version"]
    ack = await _send(comm_i, {"type": "step", "version": v, "seq": "seal1",
                               "step": {"kind": "move", "from": "A2", "to": "A3"}})
    await _send(comm_i, {"type": "end", "version": ack["version"], "seq": "seal2"})
    own = await receive(comm_i, "update")
    while not own["state"].get("adjournment", {}).get("adjourned"):
        own = await receive(comm_i, "update")
    assert "A3" in own["state"]["board"]["I"]  # alice sees her sealed turn
    await _drain(comm_o, seen["bob"])
    await _drain(comm_s, seen["carol"])
    for who, frames in seen.items():
        updates = [f for f in frames if f["type"] == "update"]
        assert updates, who
        assert updates[-1]["state"]["adjournment"]["adjourned"], who
        hidden = [e for f in updates for e in f["events"] if e["kind"] == "hidden"]
        assert len(hidden) == 2, (who, hidden)  # the sealed step and end, as placeholders
        for f in frames:
            assert not _leaks(f), (who, _leaks(f), f)
    row = await Game.objects.aget(pk=game.pk)
    assert "A2-A3" not in row.stgn and row.deadline is None and row.is_live
    # The session has ended: its entry is written, signed and chained now (R38), once.
    await database_sync_to_async(run_sessions)()
    await database_sync_to_async(run_sessions)()
    first = [r async for r in GameRecord.objects.filter(game__live=game, kind="STSE")]
    assert [r.session for r in first] == [1] and "A2-A3" not in first[0].content

    # A restart: no process holds the game any more; everyone reconnects.
    for comm in (comm_i, comm_o, comm_s):
        await comm.disconnect()
    engines.forget()
    comm_o, _, first_o = await connect(game, ck["bob"])
    comm_s, _, first_s = await connect(game, ck["carol"], query="last_version=0")
    comm_i, _, first_i = await connect(game, ck["alice"])
    assert not _leaks(first_o) and not _leaks(first_s)
    assert "A3" in first_i["state"]["board"]["I"]
    # Play is refused while adjourned; a spectator cannot resume.
    await comm_o.send_json_to({"type": "step", "version": first_o["version"], "seq": "no",
                               "step": {"kind": "move", "from": "A7", "to": "A6"}})
    assert "adjourned" in (await receive(comm_o, "rejected"))["reason"]
    await comm_s.send_json_to({"type": "resume", "seq": "carol"})
    # from a socket that plays no side, resume is an arbiter's action (R38, R39)
    assert (await receive(comm_s, "rejected"))["code"] == "forbidden"

    await _send(comm_o, {"type": "resume", "seq": "r1"})
    await _send(comm_i, {"type": "resume", "seq": "r2"})
    update = await receive(comm_s, "update")
    while not any(e["kind"] == "resume" for e in update["events"]):
        update = await receive(comm_s, "update")
    assert "A3" in update["state"]["board"]["I"]
    assert next(e for e in update["events"] if e["kind"] == "resume")["data"]["text"].endswith(
        "A2-A3")
    assert update["state"]["clock"]["running"] == "O"
    await _send(comm_i, {"type": "resign", "seq": "bye"})
    for comm in (comm_i, comm_o, comm_s):
        await comm.disconnect()

    await database_sync_to_async(run_due)()
    records = [r async for r in GameRecord.objects.filter(game__live=game).order_by(
        "kind", "session")]
    stse = {r.session: yaml.safe_load(r.content)["session"] for r in records if r.kind == "STSE"}
    assert set(stse) == {1, 2}
    assert next(r.content for r in records if r.kind == "STSE" and r.session == 1) == \
        first[0].content  # the entry written at the adjournment stands
    assert stse[1]["turns"][-1].startswith("002 O") and "A3" not in stse[1]["board"]["I"]
    assert [a["action"] for a in stse[1]["arbiter"]] == ["adjourn"]
    assert stse[2]["turns"][0].endswith("A2-A3") and stse[2]["arbiter"][0]["action"] == "resume"
    assert stse[2]["meta"]["previous_hash"] == stse[1]["tail"]["hash"]
    # R38's record fields: the time control, and each side's time left at a session's end
    assert all(0 < stse[1]["clocks"][side] <= 600 for side in "IO")
    stge = yaml.safe_load(next(r.content for r in records if r.kind == "STGE"))
    assert stge["game"]["time_control"] == "fischer 600+0"
    slip = yaml.safe_load(next(r.content for r in records if r.kind == "STDGS"))
    assert len(slip["sessions"]) == 2
    assert slip["game"]["time_control"] == "fischer 600+0" and slip["sessions"][0]["clocks"]

    # talu verify accepts the whole chain; stock gpg accepts every signature.
    files = []
    for r in records:
        if r.kind in ("STGE", "STSE", "STDGS"):
            path = tmp_path / f"{r.kind}-{r.session}.yaml"
            path.write_text(r.content, encoding="utf-8")
            files.append(path)
    keyring = os.environ["TALU_KEYRING"]
    talu = shutil.which("talu", path=str(Path(sys.executable).parent)) or "talu"
    out = subprocess.run([talu, "verify", "--keyring", keyring, *map(str, files)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    for n, session in stse.items():
        tail = session["tail"]
        sig = tmp_path / f"s{n}.sig"
        data = tmp_path / f"s{n}.txt"
        sig.write_bytes(base64.b64decode(tail["signatures"]["affiliated_body"]["signature"]))
        data.write_bytes(tail["hash"].encode())
        gpg = subprocess.run(["gpg", "--homedir", keyring, "--batch", "--verify", str(sig),
                              str(data)], capture_output=True, text=True, timeout=60)
        assert gpg.returncode == 0, gpg.stderr


def test_arbiter_adjourns_and_resumes_through_the_command_path(players):
    """The arbiter tools (issue 26) send ``Adjourn``/``Resume`` as an arbiter actor down the one
    command path (R39, R40): stored and announced like any command; a resume before the seal,
    or by a player alone, changes nothing."""
    from play.commands.path import execute
    from play.commands.submission import Submission
    from play.games.protocol import Adjourn, PlayStep, Resume, arbiter, player

    alice, bob, _ = players
    engines.forget()
    game = start_game(alice, bob)
    out = execute(Submission(game.uuid, arbiter("ann"), Adjourn("the hall closes")))
    assert out.ok and out.events[0]["kind"] == "adjourn" and out.events[0]["actor"] == "arbiter"
    early = execute(Submission(game.uuid, arbiter("ann"), Resume()))
    assert not early.ok and "has not sealed" in early.reason
    assert execute(Submission(game.uuid, player("I"), PlayStep({"kind": "pass"}), 1)).ok
    row = Game.objects.get(pk=game.pk)
    assert row.to_move == "" and row.is_live  # adjourned: nobody to move
    offer = execute(Submission(game.uuid, player("O"), Resume()))
    assert offer.ok and offer.events[0]["kind"] == "offer"
    out = execute(Submission(game.uuid, arbiter("ann"), Resume("next morning")))
    assert out.ok and out.events[0]["kind"] == "resume"
    assert Game.objects.get(pk=game.pk).to_move == "O"
