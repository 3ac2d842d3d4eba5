"""Arbiters on the site (R39, R40, R34): who may act, over the REST API and the websocket, and
what each action does to a live game, its broadcast, its records and the audit trail.

The permission matrix: anonymous, the player, the opponent, a spectator, another body's
arbiter, a body token, this game's arbiter and staff, for every action (warn, count_as_pass,
forfeit, null, add_time, annul). Only the last two may act; everybody else is refused with
words and nothing changes (no event, no audit entry). ``add_time`` (R39, R36) in a timed game:
the clock and the worker's flag deadline move, the records keep the item and verify.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import yaml
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from play.commands import arbiter as arbiter_commands
from play.commands.player import submit_as
from play.games.talu import read_stgn
from play.lifecycle import start_game
from play.models import Game, GameEvent, Seat
from play.worker import clocks
from registry import arbiters, archiving, services
from registry.models import AffiliatedBody, AuditEntry, GameRecord, RegistryGame
from registry.records.verify import check_game_docs
from talu_cli.main import main as talu
from tests.site.wsutil import connect, receive

ACTIONS = {
    "warn": {"action": "warn", "side": "I", "reason": "non-engagement"},
    "count_as_pass": {"action": "count_as_pass", "turn": "001 I", "reason": "a sham move"},
    "forfeit": {"action": "forfeit", "side": "O", "reason": "left the venue"},
    "null": {"action": "null", "reason": "the clock broke"},
    "add_time": {"action": "add_time", "side": "I", "seconds": 120,
                 "reason": "the hall's lights failed"},
    "annul": {"action": "annul", "reason": "played by the wrong players"},
}
REFUSED = ("anonymous", "player", "opponent", "spectator", "other_body_arbiter", "body_token",
           "dismissed_arbiter")


@pytest.fixture
def cast(players, make_user, game):
    """Everyone of the matrix: alice (I), bob (O), carol (spectator), dave (this game's
    arbiter, appointed by its body), erin (an arbiter of another body's game), frank (staff),
    gina (appointed, then removed)."""
    alice, bob, carol = players
    dave, erin, gina = make_user("dave"), make_user("erin"), make_user("gina")
    frank = make_user("frank")
    frank.is_staff = True
    frank.save()
    archived = RegistryGame.objects.get(live=game)
    arbiters.appoint(archived, dave, by_user=frank, reason="club night")
    arbiters.appoint(archived, gina, by_user=frank)
    arbiters.dismiss(archived, gina, by_user=frank, reason="went home")
    other = AffiliatedBody.objects.create(registrar_id="GTF-OTHER-01", name="Another club")
    other_game = start_game(carol, gina, variant="standard", rated=False)
    other_archived = RegistryGame.objects.get(live=other_game)
    other_archived.body = other
    other_archived.save()
    arbiters.appoint(other_archived, erin, reason="their event")
    return {"player": alice, "opponent": bob, "spectator": carol, "arbiter": dave,
            "other_body_arbiter": erin, "staff": frank, "dismissed_arbiter": gina,
            "other_body": other}


def _client(cast, role) -> APIClient:
    client = APIClient()
    if role == "body_token":
        from registry.tokens import issue_token

        key = issue_token(services.site_body(), label="test")
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    elif role != "anonymous":
        client.force_authenticate(cast[role])
    return client


def _play(game, user, *steps):
    for s in steps:
        row = Game.objects.get(pk=game.pk)
        raw = {"kind": s} if s in ("end", "pass") else {"kind": "move", "from": s[:2],
                                                        "to": s[3:]}
        out = submit_as(game.uuid, user, "step", step=raw, version=row.version, seq=None)
        assert out.ok, out.reason


def _post(client, game, data):
    return client.post(f"/api/v1/games/{game.uuid}/arbiter/", data, format="json")


def _facts(game):
    row = Game.objects.get(pk=game.pk)
    return (row.version, row.status, GameEvent.objects.filter(game=row).count(),
            AuditEntry.objects.filter(action=AuditEntry.ARBITRATE).count(),
            RegistryGame.objects.get(live=row).status)


# --- the matrix, REST ---------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", REFUSED)
def test_nobody_but_the_arbiter_or_staff_acts_over_rest(role, cast, game):
    _play(game, cast["player"], "A2-A3", "end")
    before = _facts(game)
    client = _client(cast, role)
    for name, data in ACTIONS.items():
        response = _post(client, game, data)
        expected = 401 if role == "anonymous" else 403
        assert response.status_code == expected, (name, response.json())
        assert response.json()["detail"]
    assert _facts(game) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["arbiter", "staff"])
@pytest.mark.parametrize("name", ["warn", "count_as_pass", "forfeit", "null"])
def test_the_arbiter_and_staff_act_over_rest(role, name, cast, game):
    _play(game, cast["player"], "A2-A3", "end")
    response = _post(_client(cast, role), game, ACTIONS[name])
    assert response.status_code == 200, response.json()
    body = response.json()
    [event] = body["events"]
    assert event["actor"] == "arbiter" and event["data"]["by"] == cast[role].username
    assert event["data"]["reason"] == ACTIONS[name]["reason"]
    row = Game.objects.get(pk=game.pk)
    assert row.version == body["version"] == 3
    entry = AuditEntry.objects.get(action=AuditEntry.ARBITRATE)
    assert entry.actor_user == cast[role] and entry.after["type"] == name
    assert entry.game == RegistryGame.objects.get(live=game)
    if name in ("forfeit", "null"):
        assert row.status == Game.FINISHED
        assert (row.winner, row.reason) == (("I", "forfeit") if name == "forfeit"
                                            else ("-", "null"))
    else:
        assert row.is_live


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["arbiter", "staff"])
def test_annul_after_the_game_through_the_cascade(role, cast, game):
    _play(game, cast["player"], "A2-A3", "end")
    client = _client(cast, role)
    response = _post(client, game, ACTIONS["annul"])
    assert response.status_code == 409 and "still in play" in response.json()["detail"]
    assert _post(client, game, ACTIONS["forfeit"]).status_code == 200
    archiving.archive(Game.objects.get(pk=game.pk))
    archived = RegistryGame.objects.get(live=game)
    assert archived.status == RegistryGame.FINISHED
    # In play only: the game is over.
    late = _post(client, game, ACTIONS["warn"])
    assert late.status_code == 409 and "over" in late.json()["detail"]
    response = _post(client, game, ACTIONS["annul"])
    assert response.status_code == 200, response.json()
    archived.refresh_from_db()
    assert archived.status == RegistryGame.ANNULLED
    entry = AuditEntry.objects.get(action=AuditEntry.ANNUL)
    assert entry.actor_user == cast[role] and entry.reason == ACTIONS["annul"]["reason"]
    again = _post(client, game, ACTIONS["annul"])
    assert again.status_code == 409


# --- bad input ----------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("data, status, words", [
    ({"action": "warn", "side": "I", "reason": ""}, 400, "reason"),
    ({"action": "warn", "side": "I", "reason": "   "}, 400, "reason"),
    ({"action": "warn", "side": "X", "reason": "r"}, 400, "side"),
    ({"action": "forfeit", "reason": "r"}, 400, "side"),
    ({"action": "count_as_pass", "turn": "007 O", "reason": "r"}, 409, "no turn 007 O"),
    ({"action": "count_as_pass", "turn": "001 O", "reason": "r"}, 409, "still in progress"),
    ({"action": "count_as_pass", "turn": "001 I", "side": "O", "reason": "r"}, 409,
     "played by I, not by O"),
    ({"action": "count_as_pass", "reason": "r"}, 400, "turn"),
    ({"action": "adjourn", "reason": "r"}, 409, "turn"),  # R38: between turns only
    ({"action": "launch", "reason": "r"}, 400, "action"),
])
def test_bad_input_is_refused_with_words_and_changes_nothing(data, status, words, cast, game):
    _play(game, cast["player"], "A2-A3", "end")
    _play(game, cast["opponent"], "A7-A6")  # 001 O in progress
    before = _facts(game)
    response = _post(_client(cast, "arbiter"), game, data)
    assert response.status_code == status, response.json()
    assert words in str(response.json())
    assert _facts(game) == before


@pytest.mark.django_db(transaction=True)
def test_no_such_game_and_a_finished_game(cast, game):
    client = _client(cast, "staff")
    missing = client.post("/api/v1/games/00000000-0000-4000-8000-000000000000/arbiter/",
                          ACTIONS["warn"], format="json")
    assert missing.status_code == 404
    submit_as(game.uuid, cast["player"], "resign")
    before = _facts(game)
    for name in ("warn", "count_as_pass", "forfeit", "null"):
        response = _post(client, game, ACTIONS[name])
        assert response.status_code == 409 and "over" in response.json()["detail"], name
    assert _facts(game) == before


# --- appointments -------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_appointments_by_the_body_or_staff_only_and_audited(cast, game):
    url = f"/api/v1/games/{game.uuid}/arbiters/"
    assert [a["arbiter"] for a in APIClient().get(url).json()] == ["dave"]
    for role in ("anonymous", "player", "spectator", "arbiter", "other_body_arbiter"):
        response = _client(cast, role).post(url, {"arbiter": "carol"}, format="json")
        assert response.status_code in (401, 403), role
    token = _client(cast, "body_token")
    assert token.post(url, {"arbiter": "alice"}, format="json").status_code == 400  # a player
    assert token.post(url, {"arbiter": "nobody"}, format="json").status_code == 400
    made = token.post(url, {"arbiter": "carol", "reason": "second arbiter"}, format="json")
    assert made.status_code == 201 and made.json()["arbiter"] == "carol"
    assert token.post(url, {"arbiter": "carol"}, format="json").status_code == 409
    assert arbiter_commands.may_arbitrate(game, cast["spectator"])
    appoint = AuditEntry.objects.filter(action=AuditEntry.APPOINT).last()
    assert appoint.after["arbiter"] == "carol" and appoint.actor_body is not None
    gone = _client(cast, "staff").delete(url + "carol/")
    assert gone.status_code == 204
    assert not arbiter_commands.may_arbitrate(game, cast["spectator"])
    assert AuditEntry.objects.filter(action=AuditEntry.DISMISS).last().before["arbiter"] == \
        "carol"
    assert _client(cast, "staff").delete(url + "carol/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_an_appointment_by_another_body_for_this_game_gives_no_power(cast, game):
    from registry.models import ArbiterAppointment

    erin = cast["other_body_arbiter"]
    ArbiterAppointment.objects.create(body=cast["other_body"], user=erin,
                                      game=RegistryGame.objects.get(live=game))
    assert not arbiter_commands.may_arbitrate(game, erin)


# --- records: an arbitrated game verifies and replays to the site's result ------------------------

@pytest.mark.django_db(transaction=True)
def test_records_of_an_arbitrated_game_replay_to_the_same_result(cast, game, tmp_path, capsys,
                                                                    settings):
    alice, bob = cast["player"], cast["opponent"]
    # I passes twice, then moves; the arbiter counts the move as a pass: I forfeits (R12).
    _play(game, alice, "pass")
    _play(game, bob, "A7-A6", "end")
    _play(game, alice, "pass")
    _play(game, bob, "B7-B6", "end")
    _play(game, alice, "A2-A3", "end")
    client = _client(cast, "arbiter")
    assert _post(client, game, {"action": "warn", "side": "O",
                                "reason": "non-engagement"}).status_code == 200
    response = _post(client, game, {"action": "count_as_pass", "turn": "003 I",
                                    "reason": "a sham move"})
    assert response.status_code == 200 and response.json()["outcome"]["reason"] == "forfeit"
    row = Game.objects.get(pk=game.pk)
    assert (row.winner, row.reason) == ("O", "forfeit")
    archiving.archive(row)
    records = {r.kind: r.content for r in GameRecord.objects.filter(game__live=game)}
    session = yaml.safe_load(records["STSE"])["session"]
    assert session["arbiter"] == [
        {"turn": "003 I", "action": "warn", "side": "O", "reason": "non-engagement"},
        {"turn": "003 I", "action": "count_as_pass", "side": "I", "reason": "a sham move"}]
    paths = {}
    for kind, text in records.items():
        paths[kind] = tmp_path / f"game.{kind.lower()}"
        paths[kind].write_text(text)
    keyring = str(settings.TALU_KEYRING)
    # `talu verify`: hashes, signatures, and the turns replayed with the arbiter's items
    assert talu(["verify", "--keyring", keyring, str(paths["STGE"]), str(paths["STSE"])]) == 0
    stge, stse = yaml.safe_load(records["STGE"]), yaml.safe_load(records["STSE"])
    check = check_game_docs(stge, [stse], check_signatures=False)
    assert not check.faults, check.faults
    assert (check.game.outcome.winner.value, check.game.outcome.reason.value) == (
        "O", "forfeit")
    # `talu replay` of the site's STGN file: a decision off the board, same winner (R15)
    capsys.readouterr()
    assert talu(["replay", str(paths["STGN"]), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["result"] == {"finished": True, "winner": "O", "reason": "decision"}
    plain = read_stgn(records["STGN"])
    assert plain.outcome.winner.value == "O"
    # a tampered arbiter item is detected (the hash covers the list, R34)
    paths["STSE"].write_text(records["STSE"].replace("turn: 003 I\n    action: count_as_pass",
                                                     "turn: 002 I\n    action: count_as_pass")
                             .replace("turn: '003 I'\n    action: count_as_pass",
                                      "turn: '002 I'\n    action: count_as_pass"))
    assert paths["STSE"].read_text() != records["STSE"]
    assert talu(["verify", "--keyring", keyring, str(paths["STGE"]), str(paths["STSE"])]) == 1
    assert "hash" in capsys.readouterr().out


# --- the websocket ------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("role", ["anonymous", "player", "opponent", "spectator",
                                  "other_body_arbiter", "dismissed_arbiter"])
async def test_nobody_but_the_arbiter_or_staff_acts_over_the_websocket(role, cast, game,
                                                                        cookies):
    user = None if role == "anonymous" else cast[role]
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(user))
    for n, (name, data) in enumerate(ACTIONS.items()):
        if name == "annul":
            continue  # after the game, over the API only
        msg = {k: v for k, v in data.items() if k != "action"}
        await comm.send_json_to({"type": name, "seq": f"a{n}", **msg})
        reply = await receive(comm, "rejected", "ack")
        assert reply["type"] == "rejected" and reply["code"] == "forbidden", reply
        assert "R39" in reply["reason"] or "log in" in reply["reason"]
    assert await database_sync_to_async(_facts)(game) == (0, "live", 0, 0, RegistryGame.PLAYING)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("role", ["arbiter", "staff"])
async def test_an_arbiters_warning_mid_turn_reaches_both_players(role, cast, game, cookies):
    cookie = database_sync_to_async(cookies)
    comms = {name: (await connect(game, await cookie(cast[name])))[0]
             for name in ("player", "opponent", role)}
    # alice (I) is mid-turn: one step played, the turn not ended
    await comms["player"].send_json_to({"type": "step", "version": 0, "seq": "s1",
                                        "step": {"kind": "move", "from": "A2", "to": "A3"}})
    assert (await receive(comms["player"], "ack"))["version"] == 1
    for comm in comms.values():
        assert (await receive(comm, "update"))["version"] == 1
    await comms[role].send_json_to({"type": "warn", "side": "I", "reason": "non-engagement",
                                    "seq": "w1"})
    ack = await receive(comms[role], "ack", "rejected")
    assert ack["type"] == "ack" and ack["version"] == 2 and ack["seq"] == "w1"
    for comm in comms.values():
        update = await receive(comm, "update")
        [event] = update["events"]
        assert event["kind"] == "warn" and event["actor"] == "arbiter"
        assert event["data"] == {"side": "I", "reason": "non-engagement",
                                 "by": cast[role].username}
        assert update["state"]["warned"] == ["I"]
        assert update["state"]["open_turn"]["text"] == "A2-A3"  # the turn in progress stands
    # alice finishes her turn at the new version
    await comms["player"].send_json_to({"type": "end", "version": 2, "seq": "e1"})
    assert (await receive(comms["player"], "ack", "rejected"))["type"] == "ack"
    for comm in comms.values():
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_forfeit_over_the_websocket_ends_the_game_for_everyone(cast, game, cookies,
                                                                       worker):
    cookie = database_sync_to_async(cookies)
    comms = {name: (await connect(game, await cookie(cast[name])))[0]
             for name in ("player", "opponent", "arbiter")}
    await comms["arbiter"].send_json_to({"type": "forfeit", "side": "O", "reason": "absent"})
    assert (await receive(comms["arbiter"], "ack", "rejected"))["type"] == "ack"
    for comm in comms.values():
        update = await receive(comm, "update")
        assert update["state"]["outcome"]["winner"] == "I"
        assert update["game"]["result"]["winner"] == "I"
    for comm in comms.values():
        await comm.disconnect()
@pytest.mark.django_db(transaction=True)
def test_the_console_and_the_game_page_show_the_arbiters_tools(cast, game, client):
    _play(game, cast["player"], "A2-A3", "end")
    client.force_login(cast["arbiter"])
    page = client.get("/arbiter/")
    assert page.status_code == 200 and str(game.uuid) in page.content.decode()
    board = client.get(f"/games/{game.uuid}/").content.decode()
    assert 'id="arbiter-tools"' in board
    client.force_login(cast["spectator"])
    assert 'id="arbiter-tools"' not in client.get(f"/games/{game.uuid}/").content.decode()
    assert str(game.uuid) not in client.get("/arbiter/").content.decode()
    client.logout()
    assert client.get("/arbiter/").status_code == 302  # to the login page


@pytest.mark.django_db(transaction=True)
def test_the_sites_stgn_of_a_game_ended_after_the_automatic_warnings_replays(cast, game,
                                                                              tmp_path, capsys):
    """The found bug (issue 26): the STGN download of a game that ended because the automatic
    arbiter's warnings made turns count as passes was refused by `talu replay` (' !' on a turn
    the rules alone do not decide). It is now a decision off the board (R15)."""
    alice, bob = cast["player"], cast["opponent"]
    for mover, move in [(alice, "A1-B1"), (bob, "A8-B8"), (alice, "C1-D1"), (bob, "C8-D8"),
                        (alice, "E1-F1"), (bob, "E8-F8"), (alice, "G1-H1"), (bob, "A7-A6"),
                        (alice, "B1-A1"), (bob, "B7-B6"), (alice, "D1-C1")]:
        _play(game, mover, move, "end")
    row = Game.objects.get(pk=game.pk)
    assert (row.winner, row.reason) == ("O", "forfeit")
    archiving.archive(row)
    stgn = GameRecord.objects.get(game__live=game, kind=GameRecord.STGN).content
    assert stgn.splitlines()[-2:] == ["006 I: D1-C1", "!: O"]
    path = tmp_path / "game.stgn"
    path.write_text(stgn)
    capsys.readouterr()
    assert talu(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["winner"] == "O"
    session = yaml.safe_load(GameRecord.objects.get(game__live=game, kind="STSE").content)
    assert [a["action"] for a in session["session"]["arbiter"]] == ["warn", "warn"]
    assert session["session"]["turns"][-2:] == ["006 I: D1-C1 !", "!: O"]  # exact, with R34


@pytest.mark.django_db(transaction=True)
def test_a_body_token_acts_only_for_an_arbiter_that_body_appointed(cast, game):
    from registry.tokens import issue_token

    _play(game, cast["player"], "A2-A3", "end")
    own = APIClient()
    own.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(services.site_body())}")
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(cast['other_body'])}")
    before = _facts(game)
    for client, name in ((own, None), (own, "frank"), (own, "erin"), (own, "alice"),
                         (other, "dave"), (other, "erin")):
        data = {**ACTIONS["warn"], **({"arbiter": name} if name else {})}
        response = _post(client, game, data)
        assert response.status_code == 403, (name, response.json())
    assert _facts(game) == before
    response = _post(own, game, {**ACTIONS["warn"], "arbiter": "dave"})
    assert response.status_code == 200, response.json()
    assert response.json()["events"][0]["data"]["by"] == "dave"
    entry = AuditEntry.objects.get(action=AuditEntry.ARBITRATE)
    assert entry.actor_user == cast["arbiter"] and entry.actor_body == services.site_body()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("role", ["arbiter", "staff"])
@pytest.mark.parametrize("name", ["count_as_pass", "forfeit", "null"])
async def test_the_arbiter_and_staff_act_over_the_websocket(role, name, cast, game, cookies):
    await database_sync_to_async(_play)(game, cast["player"], "A2-A3", "end")
    comm, _, first = await connect(game, await database_sync_to_async(cookies)(cast[role]))
    assert first["version"] == 2
    msg = {k: v for k, v in ACTIONS[name].items() if k != "action"}
    await comm.send_json_to({"type": name, "seq": "x1", **msg})
    ack = await receive(comm, "ack", "rejected")
    assert ack["type"] == "ack" and ack["version"] == 3, ack
    update = await receive(comm, "update")
    [event] = update["events"]
    assert event["actor"] == "arbiter" and event["data"]["by"] == cast[role].username
    outcome = update["state"]["outcome"]
    if name == "count_as_pass":
        assert outcome is None and update["state"]["pass_turns"] == ["001 I"]
    else:
        assert outcome["reason"] == name and outcome["detail"] == "arbiter"
    entry = await AuditEntry.objects.select_related("actor_user").aget(
        action=AuditEntry.ARBITRATE)
    assert entry.actor_user.username == cast[role].username
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
def test_the_arbiter_adjourns_and_resumes_over_rest_players_cannot(cast, game):
    """R38 by an arbiter (R39): ``adjourn`` at once between turns (the side to move then seals
    its turn), ``resume`` once it is sealed; each audited with the arbiter's name. The same
    actions by a player or a spectator over the arbiter's route are refused and change
    nothing (a player's adjourn is an offer, over the game's socket)."""
    _play(game, cast["player"], "A2-A3", "end")
    before = _facts(game)
    for role in ("player", "opponent", "spectator"):
        response = _post(_client(cast, role), game, {"action": "adjourn", "reason": "dinner"})
        assert response.status_code == 403, response.json()
    assert _facts(game) == before
    arbiter_client = _client(cast, "arbiter")
    response = _post(arbiter_client, game, {"action": "adjourn", "reason": "the hall closes"})
    assert response.status_code == 200, response.json()
    [event] = response.json()["events"]
    assert (event["kind"], event["actor"]) == ("adjourn", "arbiter")
    early = _post(arbiter_client, game, {"action": "resume", "reason": "too soon"})
    assert early.status_code in (400, 409) and "sealed" in early.json()["detail"]
    _play(game, cast["opponent"], "A7-A6", "end")  # dark's sealed turn
    response = _post(arbiter_client, game, {"action": "resume", "reason": "next morning"})
    assert response.status_code == 200, response.json()
    assert response.json()["events"][0]["kind"] == "resume"
    assert [e.after["type"] for e in AuditEntry.objects.filter(action=AuditEntry.ARBITRATE)
            .order_by("pk")] == ["adjourn", "resume"]
    assert Game.objects.get(pk=game.pk).is_live


# --- add_time (R39, R36): timed games ------------------------------------------------------------

def _timed(cast, control: str = "fischer 180+2"):
    """A timed game alice (I) - bob (O) that dave arbitrates, both opening turns played (R36:
    their own 30 s limit is fixed): light's main clock runs."""
    alice, bob = cast["player"], cast["opponent"]
    game = start_game(alice, bob, variant="standard", rated=False, time_control=control)
    arbiters.appoint(RegistryGame.objects.get(live=game), cast["arbiter"], by_user=cast["staff"])
    _play(game, alice, "A2-A3", "end")
    _play(game, bob, "A7-A6", "end")
    return Game.objects.get(pk=game.pk)


def _clock_facts(game):
    row = Game.objects.get(pk=game.pk)
    return (*_facts(game), row.deadline)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["arbiter", "staff"])
@pytest.mark.parametrize("side", ["I", "O"])
def test_the_arbiter_and_staff_add_time_over_rest_and_the_deadline_moves(role, side, cast):
    timed = _timed(cast)
    before = timed.deadline
    flag_at = before + timedelta(seconds=1)
    assert timed.uuid in clocks.due(flag_at)  # light would be flagged then ...
    response = _post(_client(cast, role), timed, {**ACTIONS["add_time"], "side": side})
    assert response.status_code == 200, response.json()
    [event] = response.json()["events"]
    assert (event["kind"], event["actor"]) == ("addtime", "arbiter")
    assert event["data"]["by"] == cast[role].username and event["data"]["seconds"] == 120
    row = Game.objects.get(pk=timed.pk)
    assert row.version == timed.version + 1 and row.is_live
    if side == "I":  # ... and no longer: its running clock holds two more minutes (R37)
        assert row.deadline - before == timedelta(seconds=120)
        assert timed.uuid not in clocks.due(flag_at)
        assert timed.uuid in clocks.due(row.deadline + timedelta(seconds=1))
    else:  # dark's clock is not running: the deadline stays, dark's time grows
        assert row.deadline == before
    entry = AuditEntry.objects.get(action=AuditEntry.ARBITRATE)
    assert entry.actor_user == cast[role]
    assert (entry.after["type"], entry.after["side"], entry.after["seconds"]) == (
        "add_time", side, 120)
    assert entry.reason == ACTIONS["add_time"]["reason"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("data, status, words", [
    ({"seconds": 0}, 400, "1 to 3600"),
    ({"seconds": -60}, 400, "1 to 3600"),
    ({"seconds": 10**9}, 400, "1 to 3600"),
    ({"seconds": "soon"}, 400, "seconds"),
    ({"seconds": None}, 400, "seconds"),
    ({"reason": ""}, 400, "reason"),
    ({"reason": "   "}, 400, "reason"),
    ({"side": "X"}, 400, "side"),
    ({"side": None}, 400, "side"),
])
def test_add_time_bad_input_is_refused_with_words_and_changes_nothing(data, status, words,
                                                                        cast):
    timed = _timed(cast)
    message = {k: v for k, v in {**ACTIONS["add_time"], **data}.items() if v is not None}
    before = _clock_facts(timed)
    response = _post(_client(cast, "arbiter"), timed, message)
    assert response.status_code == status, response.json()
    assert words in str(response.json())
    assert _clock_facts(timed) == before


@pytest.mark.django_db(transaction=True)
def test_add_time_on_an_untimed_or_finished_game_is_refused(cast, game):
    client = _client(cast, "arbiter")
    before = _clock_facts(game)
    response = _post(client, game, ACTIONS["add_time"])
    assert response.status_code == 409 and "untimed" in response.json()["detail"]
    assert _clock_facts(game) == before
    timed = _timed(cast)
    submit_as(timed.uuid, cast["player"], "resign")
    before = _clock_facts(timed)
    response = _post(client, timed, ACTIONS["add_time"])
    assert response.status_code == 409 and "over" in response.json()["detail"]
    assert _clock_facts(timed) == before


@pytest.mark.django_db(transaction=True)
def test_time_added_in_an_opening_turn_is_refused(cast):
    """R36: an opening turn has its own fixed limit; the arbiter adds time once it is played."""
    game = start_game(cast["player"], cast["opponent"], rated=False,
                      time_control="fischer 180+2")
    before = _clock_facts(game)
    response = _post(_client(cast, "staff"), game, ACTIONS["add_time"])
    assert response.status_code == 409 and "opening turn" in response.json()["detail"]
    assert _clock_facts(game) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("role", ["arbiter", "staff"])
async def test_time_added_over_the_websocket_reaches_both_boards(role, cast, cookies):
    timed = await database_sync_to_async(_timed)(cast)
    cookie = database_sync_to_async(cookies)
    comms = {name: (await connect(timed, await cookie(cast[name])))[0]
             for name in ("player", "opponent", "spectator", role)}
    await comms[role].send_json_to({"type": "add_time", "side": "O", "seconds": 90,
                                    "reason": "a noisy neighbour", "seq": "t1"})
    ack = await receive(comms[role], "ack", "rejected")
    assert ack["type"] == "ack" and ack["version"] == timed.version + 1, ack
    for comm in comms.values():
        update = await receive(comm, "update")
        [event] = update["events"]
        assert event["kind"] == "addtime" and event["data"]["side"] == "O"
        clock = update["state"]["clock"]
        assert clock["remaining"]["O"] == 270_000  # 180 s + 90 s, on every board
        assert update["state"]["arbiter"][-1] == {
            "turn": "001 O", "action": "add_time", "side": "O",
            "reason": "a noisy neighbour", "seconds": 90}
    # a player cannot add time to their own clock (R39), nothing changes
    await comms["opponent"].send_json_to({"type": "add_time", "side": "O", "seconds": 90,
                                          "reason": "please", "seq": "t2"})
    refused = await receive(comms["opponent"], "rejected", "ack")
    assert refused["type"] == "rejected" and refused["code"] == "forbidden"
    row = await Game.objects.aget(pk=timed.pk)
    assert row.version == timed.version + 1
    for comm in comms.values():
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
def test_records_of_a_game_with_time_added_verify(cast, tmp_path, settings):
    """R34/R39: the add_time item is in the session entry's ``arbiter`` list, covered by its
    hash and signature; ``talu verify`` replays the turns with it to the site's result."""
    timed = _timed(cast)
    client = _client(cast, "arbiter")
    assert _post(client, timed, {**ACTIONS["add_time"], "side": "O"}).status_code == 200
    assert _post(client, timed, ACTIONS["forfeit"]).status_code == 200
    row = Game.objects.get(pk=timed.pk)
    assert (row.winner, row.reason) == ("I", "forfeit")
    archiving.archive(row)
    records = {r.kind: r.content for r in GameRecord.objects.filter(game__live=timed)}
    stse = yaml.safe_load(records["STSE"])
    assert stse["session"]["arbiter"][0] == {
        "turn": "001 O", "action": "add_time", "side": "O",
        "reason": "the hall's lights failed", "seconds": 120}
    assert stse["session"]["clocks"]["O"] == 300  # 180 s + 120 s (R38: seconds left)
    check = check_game_docs(yaml.safe_load(records["STGE"]), [stse], check_signatures=False)
    assert not check.faults, check.faults
    paths = []
    for kind in ("STGE", "STSE"):
        path = tmp_path / f"game.{kind.lower()}"
        path.write_text(records[kind])
        paths.append(str(path))
    assert talu(["verify", "--keyring", str(settings.TALU_KEYRING), *paths]) == 0
    tampered = records["STSE"].replace("seconds: 120", "seconds: 1200")
    assert tampered != records["STSE"]
    (tmp_path / "game.stse").write_text(tampered)
    assert talu(["verify", "--keyring", str(settings.TALU_KEYRING), *paths]) == 1


@pytest.mark.django_db(transaction=True)
def test_the_console_shows_clocks_and_absences(cast, client, game):
    """R36/R37 on the console: each side's time left (the running one marked), who has left
    the game and for how long, and when the opponent may claim it; time added shows at once."""
    from django.utils import timezone

    from play.models import Watcher

    timed = _timed(cast)
    Watcher.objects.create(game=timed, channel_name="alice-socket", role="player", side="I")
    Seat.objects.filter(game_id=timed.pk, seat="O").update(
        away=timezone.now() - timedelta(seconds=60))
    client.force_login(cast["arbiter"])

    def row():
        [found] = [g for g in client.get("/arbiter/state.json").json()["games"]
                   if g["id"] == str(timed.uuid)]
        return found

    first = row()
    clock = first["clock"]
    assert (clock["label"], clock["running"], clock["opening"]) == ("3+2", "I", [])
    assert clock["left"]["O"] == 180_000 and 170_000 < clock["left"]["I"] <= 180_000
    absence = first["absence"]
    assert absence["I"] == {"gone": None, "limit": 43_000, "claimable": False}  # connected
    assert absence["O"]["gone"] >= 60_000 and absence["O"]["claimable"]  # R37: 43 s passed
    assert _post(_client(cast, "arbiter"), timed, {**ACTIONS["add_time"],
                                                   "side": "O"}).status_code == 200
    assert row()["clock"]["left"]["O"] == 300_000
    page = client.get("/arbiter/").content.decode()
    assert "Clocks (R36)" in page and "Absence (R37)" in page
    # the game page's panel offers add time in a timed game only
    assert 'data-action="add_time"' in client.get(f"/games/{timed.uuid}/").content.decode()
    assert 'data-action="add_time"' not in client.get(f"/games/{game.uuid}/").content.decode()
