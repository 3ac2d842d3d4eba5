"""An event's automatic arbiter policy reaches its games (R39, R41), and its arbiters arbitrate
them.

An event fixes ``auto_arbiter`` before round 1: ``warn`` (a game flagged for non-engagement,
R14, warns both players automatically, as casual games do) or ``off`` (nothing automatic: the
flag shows on the event arbiter's console and only the arbiter acts). The event's arbiters act
on its games (R39); site staff, who arbitrate games outside any event, do not.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from play.commands import arbiter as arbiter_commands
from play.models import Game, GameEvent
from registry import arbiters
from registry.events.models import Event, Pairing
from registry.models import AffiliatedBody
from tests.site.pairing import run_pairing
from tests.site.test_arbiters import _play

pytestmark = pytest.mark.django_db(transaction=True)

#: Three quiet turns a side on the home rows: no capture, no new threat, no progress (R14).
#: After the sixth the game is flagged.
SHUFFLE = ("A1-B1", "A8-B8", "C1-D1", "C8-D8", "E1-F1", "E8-F8")


def _api(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def _event_game(make_user, policy: str):
    """A two-player online round robin with policy ``policy``, round 1 started: its game,
    white's and black's accounts and the event's arbiter."""
    body = AffiliatedBody.objects.create(registrar_id="CLUB-POLICY", name="Policy club")
    arbiter = make_user("arb")
    body.registrars.add(arbiter)
    r = _api(arbiter).post("/api/v1/events/", {
        "body": body.registrar_id, "name": f"Policy {policy}", "system": "round_robin",
        "venue": "online", "rated": False, "auto_arbiter": policy}, format="json")
    assert r.status_code == 201, r.json()
    event = Event.objects.get(pk=r.json()["id"])
    assert event.auto_arbiter == policy
    for name in ("wendy", "bruno"):
        r = _api(make_user(name)).post(f"/api/v1/events/{event.pk}/entries/", {},
                                       format="json")
        assert r.status_code == 201, r.json()
    assert _api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {},
                              format="json").status_code == 202
    run_pairing(event)
    assert _api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/start/",
                              format="json").status_code == 200
    pairing = Pairing.objects.select_related(
        "game", "white__player__user", "black__player__user").get(round__event=event,
                                                                  black__isnull=False)
    return pairing.game, pairing.white.player.user, pairing.black.player.user, arbiter


def _shuffle(game, white, black) -> None:
    for n, move in enumerate(SHUFFLE):
        _play(game, white if n % 2 == 0 else black, move, "end")


def _warnings(game) -> list[tuple[str, str]]:
    return [(e.actor, e.data["side"]) for e in
            GameEvent.objects.filter(game=game, kind="warn").order_by("version")]


def _console(user) -> dict:
    c = Client()
    c.force_login(user)
    return {g["id"]: g for g in c.get("/arbiter/state.json").json()["games"]}


def test_policy_warn_warns_both_players_of_a_flagged_event_game(make_user):
    game, white, black, _ = _event_game(make_user, "warn")
    assert game.auto_warn
    _shuffle(game, white, black)
    assert _warnings(game) == [("system", "I"), ("system", "O")]  # R39 warn, R14


def test_policy_off_leaves_the_flag_to_the_events_arbiter(make_user):
    game, white, black, arbiter = _event_game(make_user, "off")
    assert not Game.objects.get(pk=game.pk).auto_warn
    _shuffle(game, white, black)
    assert _warnings(game) == []  # nothing automatic
    # the event's arbiter sees the flag on the console (R14, R39) ...
    row = _console(arbiter)[str(game.uuid)]
    assert row["signs"]["flagged"] and row["signs"]["warned"] == []
    assert row["signs"]["non_engaging_run"] == {"I": 3, "O": 3}
    # ... and decides: a warning through the one command path
    response = _api(arbiter).post(f"/api/v1/games/{game.uuid}/arbiter/", {
        "action": "warn", "side": "O", "reason": "non-engagement"}, format="json")
    assert response.status_code == 200, response.json()
    assert _warnings(game) == [("arbiter", "O")]
    assert _console(arbiter)[str(game.uuid)]["signs"]["warned"] == ["O"]


def test_only_the_events_arbiters_arbitrate_its_games(make_user):
    """R39: an arbiter of the game's event, or staff for games outside any event; staff are not
    an event's arbiters, and neither are its players."""
    game, white, black, arbiter = _event_game(make_user, "off")
    staff = make_user("stella")
    staff.is_staff = True
    staff.save()
    outsider = make_user("otto")
    assert arbiter_commands.may_arbitrate(game, arbiter)
    for user in (staff, outsider, white, black):
        assert not arbiter_commands.may_arbitrate(game, user), user
        assert str(game.uuid) not in _console(user)
    before = Game.objects.get(pk=game.pk).version
    response = _api(staff).post(f"/api/v1/games/{game.uuid}/arbiter/", {
        "action": "warn", "side": "I", "reason": "non-engagement"}, format="json")
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).version == before
    # the arbiter's console lists the event's game, with its clocks and absences (R36, R37)
    row = _console(arbiter)[str(game.uuid)]
    assert row["clock"] is None  # the event's games are untimed here
    assert set(row["absence"]) == {"I", "O"}
    assert list(arbiters.arbitrated_games(arbiter)) == [Game.objects.get(pk=game.pk)]


def test_an_events_game_takes_no_arbiter_appointed_for_it_alone(make_user):
    """Issue 41: staff appointed an account arbiter of one game of an event (201) and the
    appointee adjourned it. R39: an event's games are its arbiters'. Appointing for one of
    them is refused in words, by staff and by the body's token, and writes nothing; an
    appointment made before that rule lets its holder do nothing (alone or through the body's
    token); the event's arbiter still acts."""
    from registry.models import ArbiterAppointment, AuditEntry, RegistryGame
    from registry.tokens import issue_token

    game, white, _black, arbiter = _event_game(make_user, "off")
    staff = make_user("stella")
    staff.is_staff = True
    staff.save()
    mole = make_user("mole")
    archived = RegistryGame.objects.get(live=game)
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(archived.body, label='t')}")
    before = (ArbiterAppointment.objects.count(), AuditEntry.objects.count())
    for client in (_api(staff), token):
        r = client.post(f"/api/v1/games/{game.uuid}/arbiters/",
                        {"arbiter": "mole", "reason": "help out"}, format="json")
        assert r.status_code == 409, r.json()
        assert "its arbiters are the event's" in r.json()["detail"]
    assert (ArbiterAppointment.objects.count(), AuditEntry.objects.count()) == before
    assert _api(staff).get(f"/api/v1/games/{game.uuid}/arbiters/").json() == []

    ArbiterAppointment.objects.create(body=archived.body, user=mole, game=archived)
    _play(game, white, "A2-A3", "end")  # between turns: an adjournment could be made
    version = Game.objects.get(pk=game.pk).version
    adjourn = {"action": "adjourn", "reason": "tea break"}
    r = _api(mole).post(f"/api/v1/games/{game.uuid}/arbiter/", adjourn, format="json")
    assert r.status_code == 403, r.json()
    r = token.post(f"/api/v1/games/{game.uuid}/arbiter/", {**adjourn, "arbiter": "mole"},
                   format="json")
    assert r.status_code == 403, r.json()
    assert Game.objects.get(pk=game.pk).version == version
    assert not arbiter_commands.may_arbitrate(game, mole)
    assert str(game.uuid) not in _console(mole)
    assert list(arbiters.arbitrated_games(mole)) == []
    r = _api(arbiter).post(f"/api/v1/games/{game.uuid}/arbiter/", adjourn, format="json")
    assert r.status_code == 200, r.json()
