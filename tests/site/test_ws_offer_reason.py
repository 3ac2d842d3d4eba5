"""A player's offer to adjourn or resume carries a reason (R38) that is shown to the opponent and
kept in the records when the game is adjourned: it is one printable line (issue 27: no NUL,
which PostgreSQL's JSON refuses; no line break or bidirectional control, which the record
builder refuses or which reorder what is shown). Anything else is ``bad_step`` and changes
nothing. Runs again on PostgreSQL and Redis (the services lane, ``tests/lanes.py``)."""

import pytest
from channels.db import database_sync_to_async

from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.mark.parametrize("kind", ["adjourn", "resume"])
@pytest.mark.parametrize("reason", ["nul\x00inside", "two\nlines", "evil\u202egnp", "\x1b[2J"])
async def test_an_offer_with_a_reason_no_one_can_keep_is_refused(game, players, cookies, kind,
                                                                 reason, no_error_logs):
    alice = players[0]
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    try:
        await comm.send_json_to({"type": kind, "seq": "o1", "reason": reason})
        answer = await receive(comm, "ack", "rejected")
        assert answer["type"] == "rejected" and answer["code"] == "bad_step", answer
        assert "reason" in answer["reason"]
        await comm.send_json_to({"type": "adjourn", "seq": "o2", "reason": "dinner"})
        assert (await receive(comm, "ack", "rejected"))["type"] == "ack"  # a fine one is taken
    finally:
        await comm.disconnect()
    events = await database_sync_to_async(lambda: list(game.events.values_list("kind", "data")))()
    assert [(k, d["what"], d["reason"]) for k, d in events] == [("offer", "adjourn", "dinner")]
