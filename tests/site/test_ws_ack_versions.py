"""One message, one answer: the ack of a step names the game's version right after everything
the step caused (its own event and the automatic arbiter's warnings, R14), and a resend of the
same message is acknowledged with that same version; a ``seq`` the log cannot keep (a NUL, which
PostgreSQL's text refuses; a lone surrogate) is a malformed step (``bad_step``), not ``busy``,
so a client following the protocol does not resend it forever. On SQLite and on PostgreSQL
(the services lane, ``tests/lanes.py`` runs this module again there)."""

import pytest
from channels.db import database_sync_to_async

from play.models import GameEvent
from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# Sideways moves on the home rows: after three such turns each the game is flagged (R14) and
# the end of O's third turn carries both warnings.
QUIET = [("I", "A1", "B1"), ("O", "A8", "B8"), ("I", "C1", "D1"), ("O", "C8", "D8"),
         ("I", "E1", "F1"), ("O", "E8", "F8")]


async def test_a_resent_step_is_acknowledged_with_the_version_of_its_first_ack(game, players,
                                                                              cookies):
    alice, bob, _ = players
    comms = {"I": (await connect(game, await database_sync_to_async(cookies)(alice)))[0],
             "O": (await connect(game, await database_sync_to_async(cookies)(bob)))[0]}
    version = 0
    try:
        for n, (side, frm, to) in enumerate(QUIET):
            comm = comms[side]
            await comm.send_json_to(step(frm, to, version, f"q{n}"))
            version = (await receive(comm, "ack"))["version"]
            end = {"type": "end", "version": version, "seq": f"e{n}"}
            await comm.send_json_to(end)
            ack = await receive(comm, "ack")
            version = ack["version"]
        # The last end carried two warnings: its ack names the last of them.
        kinds = await database_sync_to_async(lambda: list(
            GameEvent.objects.filter(game=game, version__gt=ack["version"] - 3)
            .order_by("version").values_list("kind", "seq", "caused_by")))()
        assert [k for k, _, _ in kinds] == ["step", "warn", "warn"]
        step_version = ack["version"] - 2
        assert [c for _, _, c in kinds] == [None, step_version, step_version]
        await comms["O"].send_json_to(end)  # the same message again
        again = await receive(comms["O"], "ack")
        assert again == {"type": "ack", "seq": end["seq"], "version": ack["version"],
                         "duplicate": True}
    finally:
        for comm in comms.values():
            await comm.disconnect()


@pytest.mark.parametrize("seq", ["nul\x00inside", "\x00", "line\nbreak"])
async def test_a_seq_the_log_cannot_keep_is_a_malformed_step(game, players, cookies, seq):
    alice = players[0]
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    try:
        await comm.send_json_to(step("A2", "A3", 0, seq))
        answer = await receive(comm, "ack", "rejected")
        assert answer["type"] == "rejected" and answer["code"] == "bad_step", answer
        assert "seq" in answer["reason"]
        await comm.send_json_to(step("A2", "A3", 0, "fine"))
        assert (await receive(comm, "ack", "rejected"))["version"] == 1  # nothing was stored
    finally:
        await comm.disconnect()
    assert await database_sync_to_async(GameEvent.objects.filter(game=game).count)() == 1
