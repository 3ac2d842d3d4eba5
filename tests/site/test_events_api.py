"""Events through the REST API (R39, R41-R43): who may do what (only the event's arbiters
manage it), bad input refused with words naming what is wrong and nothing changed, and a whole
over-the-board Swiss and round robin entered by their arbiter."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from registry.events import pairer
from registry.events.models import Entry, Event, Pairing, PairingRequest
from registry.events.pairing import trf
from registry.models import AffiliatedBody
from registry.services import player_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _rates(settings):
    from django.core.cache import cache

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "anon": "100000/minute", "user": "100000/minute", "body": "100000/minute"}}
    cache.clear()


@pytest.fixture
def club(make_user):
    body = AffiliatedBody.objects.create(registrar_id="CLUB-SZ", name="Szeged talu club")
    registrar = make_user("reggie")
    body.registrars.add(registrar)
    return body, registrar


def api(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def new_event(club, arbiter, **settings):
    body, registrar = club
    data = {"body": body.registrar_id, "name": "Tuesday Swiss", "system": "swiss",
            "rounds": 3, "venue": "board", "arbiters": [arbiter.username], **settings}
    r = api(registrar).post("/api/v1/events/", data, format="json")
    assert r.status_code == 201, r.json()
    return Event.objects.get(pk=r.json()["id"])


def guests(event, arbiter, n):
    for i in range(n):
        r = api(arbiter).post(f"/api/v1/events/{event.pk}/entries/",
                              {"name": f"Guest {i}", "rating": 1500 - 10 * i}, format="json")
        assert r.status_code == 201, r.json()


def pair(arbiter, event, body=None):
    """Ask for the next round (202: the worker pairs it, issue 40), and run the worker's
    pairing job as a worker would; the answer to the request."""
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", body or {}, format="json")
    if r.status_code == 202:
        pairer.run_due()
    return r


def finish_round(event, arbiter, number, results=("1-0", "0-1", "=")):
    rnd = event.event_rounds.get(number=number)
    for i, p in enumerate(rnd.pairings.filter(black__isnull=False).order_by("board")):
        r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/{number}/results/",
                              {"pairing": p.pk, "result": results[i % len(results)]},
                              format="json")
        assert r.status_code == 200, r.json()


def snapshot(event) -> tuple:
    event.refresh_from_db()
    return (event.status, event.name, event.rounds, event.system, event.initial_colour,
            list(Entry.objects.filter(event=event).values_list("key", "withdrawn_after")),
            list(Pairing.objects.filter(round__event=event).values_list(
                "pk", "result", "decided_by")),
            list(event.event_rounds.values_list("number", "state")),
            list(PairingRequest.objects.filter(event=event).values_list("number", "state")))


# --- the permission matrix ---------------------------------------------------------------------

ACTIONS = {
    "settings": ("patch", "", {"name": "Renamed"}),
    "enter a guest": ("post", "entries/", {"name": "Walk-in", "rating": 1200}),
    "pair": ("post", "rounds/", {}),
    "start": ("post", "rounds/1/start/", None),
    "result": ("post", "rounds/1/results/", "PAIRING"),
    "withdraw another": ("post", "entries/KEY/withdraw/", None),
    "close": ("post", "close/", None),
}


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("who, allowed", [("anonymous", False), ("a player", False),
                                          ("the body's registrar", False),
                                          ("another event's arbiter", False),
                                          ("the arbiter", True)])
def test_only_the_events_arbiters_manage_it(club, make_user, action, who, allowed):
    arbiter = make_user("arbi")
    other = make_user("otto")
    event = new_event(club, arbiter)
    new_event(club, other, name="Other event")
    guests(event, arbiter, 4)
    if action in ("start", "result", "close"):
        assert pair(arbiter, event).status_code == 202
    if action == "close":
        finish_round(event, arbiter, 1)
    user = {"anonymous": None, "a player": make_user("pat"),
            "the body's registrar": club[1], "another event's arbiter": other,
            "the arbiter": arbiter}[who]
    method, path, data = ACTIONS[action]
    if data == "PAIRING":
        data = {"pairing": Pairing.objects.filter(round__event=event,
                                                  black__isnull=False).first().pk,
                "result": "1-0"}
    path = path.replace("KEY", event.entries.first().key)
    before = snapshot(event)
    r = getattr(api(user), method)(f"/api/v1/events/{event.pk}/{path}", data, format="json")
    if allowed:
        assert r.status_code in (200, 201, 202), r.json()
        assert snapshot(event) != before
    else:
        assert r.status_code in (401, 403), r.json()
        assert "detail" in r.json()
        assert snapshot(event) == before


def test_anyone_reads_an_event_its_standings_and_trf(club, make_user):
    arbiter = make_user("arbi")
    event = new_event(club, arbiter)
    guests(event, arbiter, 5)
    pair(arbiter, event)
    anon = api()
    detail = anon.get(f"/api/v1/events/{event.pk}/").json()
    assert detail["settings"]["system"] == "swiss" and len(detail["players"]) == 5
    assert len(detail["rounds"][0]["pairings"]) == 3  # two boards and the bye
    table = anon.get(f"/api/v1/events/{event.pk}/standings/").json()
    assert table["standings"][0]["rank"] == 1
    text = anon.get(f"/api/v1/events/{event.pk}/trf/").content.decode()
    assert text.count("\n001 ") + text.startswith("001 ") == 5 and "XXR 3" in text


# --- bad input ----------------------------------------------------------------------------------

def test_settings_are_fixed_once_round_one_is_paired(club, make_user):
    arbiter = make_user("arbi")
    event = new_event(club, arbiter)
    assert api(arbiter).patch(f"/api/v1/events/{event.pk}/", {"rounds": 5},
                              format="json").status_code == 200
    guests(event, arbiter, 4)
    pair(arbiter, event)
    before = snapshot(event)
    r = api(arbiter).patch(f"/api/v1/events/{event.pk}/", {"rounds": 7, "name": "X"},
                           format="json")
    assert r.status_code == 409
    assert "fixed" in r.json()["detail"] and "round 1" in r.json()["detail"]
    assert snapshot(event) == before and event.rounds == 5


def test_pairing_before_the_previous_round_is_complete_needs_force(club, make_user):
    arbiter = make_user("arbi")
    event = new_event(club, arbiter)
    guests(event, arbiter, 6)
    pair(arbiter, event)
    before = snapshot(event)
    r = pair(arbiter, event)
    assert r.status_code == 409 and "round 1 is not complete" in r.json()["detail"]
    assert snapshot(event) == before
    assert pair(arbiter, event, {"force": True}).status_code == 202
    r = api().get(f"/api/v1/events/{event.pk}/")
    assert r.json()["rounds"][1]["forced"] is True
    # the games still on are not paired again
    one = {frozenset((p["white"]["key"], p["black"]["key"]))
           for p in r.json()["rounds"][0]["pairings"]}
    two = {frozenset((p["white"]["key"], p["black"]["key"]))
           for p in r.json()["rounds"][1]["pairings"] if p["black"]}
    assert not one & two


def test_a_result_for_a_game_not_in_the_round_is_refused(club, make_user):
    arbiter = make_user("arbi")
    event = new_event(club, arbiter)
    guests(event, arbiter, 4)
    pair(arbiter, event)
    finish_round(event, arbiter, 1)
    pair(arbiter, event)
    round_two = Pairing.objects.filter(round__event=event, round__number=2,
                                       black__isnull=False).first()
    other = new_event(club, arbiter, name="Another")
    guests(other, arbiter, 2)
    pair(arbiter, other)
    foreign = Pairing.objects.filter(round__event=other).first()
    before = snapshot(event)
    for pairing, words in ((round_two.pk, f"game {round_two.pk} is not in round 1"),
                           (foreign.pk, f"game {foreign.pk} is not in round 1"),
                           ("x", "game 'x' is not in round 1")):
        r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/results/",
                              {"pairing": pairing, "result": "1-0"}, format="json")
        assert r.status_code == 400 and words in r.json()["detail"], r.json()
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/2/results/",
                          {"pairing": round_two.pk, "result": "2-0"}, format="json")
    assert r.status_code == 400 and "unknown result '2-0'" in r.json()["detail"]
    assert snapshot(event) == before


def test_a_bad_trf_names_its_line_and_creates_nothing(club):
    body, registrar = club
    bad = ("012 Imported\n"
           "001    1      A                                 1800                             "
           "1.0    1  0002 w 1\n"
           "001    2      B                                 1700                             "
           "0.0    2  0001 q 0\n")
    r = api(registrar).post("/api/v1/events/import/", {"body": body.registrar_id, "trf": bad},
                            format="json")
    assert r.status_code == 400
    assert "line 3: round 1: colour 'q' is not w, b or -" in r.json()["detail"]
    assert not Event.objects.exists()


def test_scoring_model_below_the_bodys_stratum_and_entry_conditions(club, make_user):
    body, registrar = club
    body.stratum = 2
    body.save()
    r = api(registrar).post("/api/v1/events/", {"body": body.registrar_id, "name": "E",
                                                "rounds": 3, "scoring_model": "S1"},
                            format="json")
    assert r.status_code == 400 and "lower-stratum model S1" in r.json()["detail"]
    event = new_event(club, registrar, scoring_model="S2", venue="online", min_rating=300)
    low = make_user("lowly")
    r = api(low).post(f"/api/v1/events/{event.pk}/entries/", {}, format="json")
    assert r.status_code == 409 and "at least 300" in r.json()["detail"]
    assert not event.entries.exists()


# --- whole events -------------------------------------------------------------------------------

def test_an_over_the_board_swiss_from_entries_to_closing(club, make_user):
    arbiter = make_user("arbi")
    event = new_event(club, arbiter)
    guests(event, arbiter, 7)
    member = make_user("mia")
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/entries/",
                          {"player_id": player_of(member).player_id}, format="json")
    assert r.status_code == 201
    for number in (1, 2):
        assert pair(arbiter, event).status_code == 202
        finish_round(event, arbiter, number)
    # a late entry before round 3 and a withdrawal after round 2
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/entries/",
                          {"name": "Latecomer", "rating": 1450}, format="json")
    assert r.json()["joined_round"] == 3
    gone = event.entries.get(name="Guest 6")
    assert api(arbiter).post(f"/api/v1/events/{event.pk}/entries/{gone.key}/withdraw/",
                             format="json").json()["withdrawn_after"] == 2
    r = pair(arbiter, event, {"absent": {event.entries.get(name="Guest 0").key: "H"}})
    assert r.status_code == 202
    third = api().get(f"/api/v1/events/{event.pk}/").json()["rounds"][2]["pairings"]
    keys = {p["white"]["key"] for p in third} | {p["black"]["key"] for p in third if p["black"]}
    assert gone.key not in keys
    assert any(p["bye"] == "H" and p["white"]["name"] == "Guest 0" for p in third)
    finish_round(event, arbiter, 3)
    # the TRF read back is the event
    text = api().get(f"/api/v1/events/{event.pk}/trf/").content.decode()
    back = trf.parse(text)
    assert len(back.rounds) == 3 and {e.key for e in back.entrants} == set(
        event.entries.values_list("key", flat=True))
    assert back.scores() == {r["key"]: r["points"] for r in api().get(
        f"/api/v1/events/{event.pk}/standings/").json()["standings"]}
    # a correction before closing, none after
    p = Pairing.objects.filter(round__event=event, round__number=3, black__isnull=False).first()
    assert api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/3/results/",
                             {"pairing": p.pk, "result": "="}, format="json").status_code == 200
    assert api(arbiter).post(f"/api/v1/events/{event.pk}/close/").status_code == 200
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/3/results/",
                          {"pairing": p.pk, "result": "1-0"}, format="json")
    assert r.status_code == 409 and "final" in r.json()["detail"]
    # and the TRF can start the same tournament elsewhere
    r = api(club[1]).post("/api/v1/events/import/", {"body": club[0].registrar_id,
                                                     "trf": text}, format="json")
    assert r.status_code == 201 and len(r.json()["rounds"]) == 3


def test_a_double_round_robin_by_the_arbiter(club, make_user):
    arbiter = make_user("arbi")
    event = new_event(club, arbiter, system="double_round_robin", rounds=0)
    guests(event, arbiter, 4)
    for number in range(1, 7):
        assert pair(arbiter, event).status_code == 202
        finish_round(event, arbiter, number, results=("1-0",))
    r = pair(arbiter, event)
    assert r.status_code == 409 and "6 rounds, all paired" in r.json()["detail"]
    table = api().get(f"/api/v1/events/{event.pk}/standings/").json()["standings"]
    assert sum(row["points"] for row in table) == 12
    assert set(table[0]["tiebreaks"]) >= {"direct_encounter", "wins", "sonneborn_berger"}


def test_submitted_records_are_matched_to_their_pairing(club, make_user):
    from django.utils import timezone

    from registry.models import RegistryGame

    arbiter = make_user("arbi")
    event = new_event(club, arbiter)
    members = [player_of(make_user(n)) for n in ("mia", "max", "moe", "meg")]
    for p in members:
        assert api(arbiter).post(f"/api/v1/events/{event.pk}/entries/",
                                 {"player_id": p.player_id}, format="json").status_code == 201
    pair(arbiter, event)
    first, second = Pairing.objects.filter(round__event=event).order_by("board")
    by_key = {p.player_id: p for p in members}

    def archived(i, o, winner):
        return RegistryGame.objects.create(
            body=club[0], source=RegistryGame.SUBMITTED, status=RegistryGame.FINISHED,
            player_i=by_key[i], player_o=by_key[o], winner=winner, played_at=timezone.now())

    game = archived(first.white.key, first.black.key, "O")
    wrong = archived(first.black.key, first.white.key, "I")  # sides swapped
    before = snapshot(event)
    for game_id, words in ((wrong.game_id, "not by this pairing's"),
                           ("00000000-0000-0000-0000-000000000000", "no registry game")):
        r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/results/",
                              {"pairing": first.pk, "game_id": str(game_id)}, format="json")
        assert r.status_code == 400 and words in r.json()["detail"], r.json()
    assert snapshot(event) == before
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/results/",
                          {"pairing": first.pk, "game_id": str(game.game_id)}, format="json")
    assert r.status_code == 200 and r.json()["result"] == "0-1"
    assert str(game.game_id) in r.json()["note"]
    second.refresh_from_db()
    assert second.result == ""


# --- issue 41: an arbiter does not play in their event; a body is an object --------------------

def test_an_arbiter_does_not_enter_their_own_event(club, make_user):
    """R39: an event's arbiters arbitrate its games and its players never do; an arbiter who
    entered their own event (themselves, or entered by a fellow arbiter) would arbitrate their
    opponents' games. Refused in words, nothing written; nor is a player of the event made
    one of its arbiters."""
    arbiter, fellow = make_user("arbi"), make_user("fella")
    event = new_event(club, arbiter, venue="online", arbiters=["arbi", "fella"])
    before = snapshot(event)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/entries/", {}, format="json")
    assert r.status_code == 409, r.json()
    assert "you are an arbiter of this event" in r.json()["detail"]
    r = api(fellow).post(f"/api/v1/events/{event.pk}/entries/",
                         {"player_id": player_of(arbiter).player_id}, format="json")
    assert r.status_code == 409 and "an arbiter does not play" in r.json()["detail"]
    assert snapshot(event) == before
    # the page's button answers the same words
    from django.test import Client

    page = Client()
    page.force_login(arbiter)
    r = page.post(f"/events/{event.pk}/act/", {"action": "register"}, follow=True)
    assert "an arbiter of this event" in r.content.decode()
    assert snapshot(event) == before
    # and a player of the event is not named its arbiter
    player = make_user("pia")
    assert api(player).post(f"/api/v1/events/{event.pk}/entries/", {},
                            format="json").status_code == 201
    r = api(arbiter).patch(f"/api/v1/events/{event.pk}/", {"arbiters": ["arbi", "pia"]},
                           format="json")
    assert r.status_code == 409 and "pia plays in this event" in r.json()["detail"]
    assert sorted(event.arbiters.values_list("username", flat=True)) == ["arbi", "fella"]


@pytest.mark.parametrize("body", ["[]", "[{}]", '["enter me"]', '"me"', "1", "null"])
def test_an_entry_body_that_is_not_an_object_is_refused(club, make_user, body):
    """A JSON list (or a string, a number, null) was read as an empty body: "enter me"."""
    arbiter, someone = make_user("arbi"), make_user("sam")
    event = new_event(club, arbiter, venue="online")
    for user in (someone, arbiter):
        r = api(user).post(f"/api/v1/events/{event.pk}/entries/", body,
                           content_type="application/json")
        assert r.status_code == 400, r.content
        assert "JSON object" in r.json()["detail"]
    assert not event.entries.exists()


# Every write of the events API, as its arbiter, on an event whose round 1 is paired and
# complete: an empty object would withdraw, pair round 2, start round 1, close the event.
WRITES = {
    "announce": ("post", "/api/v1/events/"),
    "settings": ("patch", "EVENT/"),
    "enter": ("post", "EVENT/entries/"),
    "withdraw": ("post", "EVENT/entries/KEY/withdraw/"),
    "pair": ("post", "EVENT/rounds/"),
    "start": ("post", "EVENT/rounds/1/start/"),
    "schedule": ("post", "EVENT/rounds/1/schedule/"),
    "result": ("post", "EVENT/rounds/1/results/"),
    "close": ("post", "EVENT/close/"),
    "import": ("post", "/api/v1/events/import/"),
}


@pytest.mark.parametrize("write", WRITES)
def test_every_write_refuses_a_body_that_is_not_an_object(club, make_user, write):
    """Issue 41: the pairing, result and close endpoints read a list, a string, a number or
    null as an empty object (a list paired the next round, or closed the event). Every write
    now answers 400 in words, and nothing changes; no body at all is still an empty one."""
    arbiter = make_user("arbi")
    event = new_event(club, arbiter)
    guests(event, arbiter, 4)
    assert pair(arbiter, event).status_code == 202
    finish_round(event, arbiter, 1)
    method, path = WRITES[write]
    path = path.replace("EVENT", f"/api/v1/events/{event.pk}").replace(
        "KEY", event.entries.first().key)

    def state():
        return (snapshot(event), Event.objects.count(),
                list(event.event_rounds.values_list("number", "scheduled", "started")))

    before = state()
    for body in ("[]", '[{"force": true, "pairing": 1, "result": "1-0"}]', '"close"', "1",
                 "true", "null"):
        r = getattr(api(arbiter), method)(path, body, content_type="application/json")
        assert r.status_code == 400, (body, r.content)
        assert "JSON object" in r.json()["detail"], r.json()
        assert state() == before
    if write in ("withdraw", "start", "close"):  # no body is an empty object, as before
        assert getattr(api(arbiter), method)(path).status_code == 200


def test_an_event_built_on_the_site_holds_at_most_the_trf_cap_of_players(club, make_user):
    """Issue 41: an imported event holds at most ``trf.MAX_PLAYERS`` players, but entries on
    the site (a player entering themselves, an arbiter's guests and players) were never
    limited. The same cap now holds: the next entry is refused in words, nothing written."""
    arbiter, lena = make_user("arbi"), make_user("lena")
    event = new_event(club, arbiter)
    Entry.objects.bulk_create([Entry(event=event, key=f"BOARD-{i:05d}", name=f"Guest {i}",
                                     rating=1000) for i in range(trf.MAX_PLAYERS - 1)])
    entries = f"/api/v1/events/{event.pk}/entries/"
    r = api(arbiter).post(entries, {"name": "Last place", "rating": 1200}, format="json")
    assert r.status_code == 201, r.json()  # the cap itself is let in
    before = snapshot(event)
    full = f"at most {trf.MAX_PLAYERS:,} players"
    for user, data in ((arbiter, {"name": "One too many", "rating": 1200}),
                       (arbiter, {"player_id": player_of(lena).player_id}),
                       (lena, {})):
        r = api(user).post(entries, data, format="json")
        assert r.status_code == 409, r.json()
        assert "the event is full" in r.json()["detail"] and full in r.json()["detail"]
    from django.test import Client

    page = Client()
    page.force_login(lena)
    r = page.post(f"/events/{event.pk}/act/", {"action": "register"}, follow=True)
    assert "the event is full" in r.content.decode()
    assert snapshot(event) == before
    # a withdrawal before round 1 frees its place
    r = api(arbiter).post(f"{entries}BOARD-00000/withdraw/", format="json")
    assert r.status_code == 200, r.json()
    assert api(lena).post(entries, {}, format="json").status_code == 201
    assert event.entries.count() == trf.MAX_PLAYERS
