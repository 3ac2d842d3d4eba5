"""An event's game whose side does not complete its opening turn in time (R36, R37, R41).

R36 aborts a game whose side does not complete its opening turn in time, R37 says what an
aborted game is (no result, no rating); R41 makes the event's game the exception: it is an
unplayed game lost by that side, 1 to the present side and 0 to the absent one, not rated.
Checked through the whole path: the event's round creates its games with the event's time
control; the worker's clock flags the game at the opening turn's deadline with nobody
connected; the game ends as a decision with cause ``unplayed``; the "game finished"
subscription gives the pairing ``+-``/``-+``; the standings count it; no rating moves; the
pages say why. A casual game's opening turn missed still aborts (``test_clocks.py``), and so
does a game the same players start outside the event, checked here beside it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from play.commands.path import store
from play.commands.submission import Submission
from play.games.protocol import PlayStep, player
from play.lifecycle import start_game
from play.models import Game
from play.store import engines
from play.worker import clocks
from play.worker.loop import run_due
from registry.events import standings
from registry.events.models import Event, Pairing
from registry.models import AffiliatedBody, GameRecord, RatingChange, RegistryGame
from tests.site.pairing import run_pairing

pytestmark = pytest.mark.django_db(transaction=True)


def api(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def _event_game(make_user, time_control: str = "fischer 180+2") -> tuple[Event, Pairing]:
    """A two-player round robin with ``time_control``, round 1 started: its one pairing."""
    body = AffiliatedBody.objects.create(registrar_id="CLUB-CLOCKS", name="Clock club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    r = api(arbiter).post("/api/v1/events/", {
        "body": body.registrar_id, "name": "Blitz night", "system": "round_robin",
        "venue": "online", "rated": True, "scoring_model": "S1",
        "time_control": time_control}, format="json")
    assert r.status_code == 201, r.json()
    event = Event.objects.get(pk=r.json()["id"])
    for name in ("ann", "ben"):
        user = make_user(name)
        assert api(user).post(f"/api/v1/events/{event.pk}/entries/", {},
                              format="json").status_code == 201
    assert api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {},
                             format="json").status_code == 202
    run_pairing(event)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/start/", format="json")
    assert r.status_code == 200, r.json()
    pairing = Pairing.objects.select_related("game", "white__player__user",
                                             "black__player__user").get(round__event=event)
    return event, pairing


def _age(game: Game, seconds: float) -> Game:
    """The game as if created ``seconds`` ago: its first clock started then."""
    created = timezone.now() - timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(created=created,
                                           deadline=created + timedelta(seconds=30))
    engines.forget()
    return Game.objects.get(pk=game.pk)


def _points(event: Event) -> dict[str, float]:
    return {row.key: row.points for row in standings.ranked(event)}


@pytest.mark.parametrize("late", ["I", "O"])
def test_missed_opening_turn_is_an_unplayed_loss_in_the_standings(make_user, late):
    event, pairing = _event_game(make_user)
    game = pairing.game
    assert (game.time_control, game.in_event, game.rated) == ("fischer 180+2", True, True)
    assert game.deadline is not None  # the event's clock runs from the round's start
    game = _age(game, 45 if late == "I" else 40)
    if late == "O":  # light completes its opening turn 5 s in; dark never moves
        at = game.created + timedelta(seconds=5)
        for raw in ({"kind": "move", "from": "A1", "to": "B1"}, {"kind": "end"}):
            version = Game.objects.get(pk=game.pk).version
            assert store(Submission(game.uuid, player("I"), PlayStep(raw), version), at).ok
    flagged = clocks.flag_due()
    assert [u for u, _ in flagged] == [game.uuid]
    winner = "O" if late == "I" else "I"
    row = Game.objects.get(pk=game.pk)
    assert (row.status, row.winner, row.reason, row.cause) == ("finished", winner, "decision",
                                                               "unplayed")
    update = flagged[0][1].update()
    assert update["game"]["result"]["cause"] == "unplayed"
    assert update["state"]["outcome"]["winner"] == winner
    run_due()  # the "game finished" subscribers: the archive, then the event's results
    pairing.refresh_from_db()
    assert (pairing.result, pairing.decided_by) == ("-+" if late == "I" else "+-", "game")
    assert "did not complete the opening turn" in pairing.note
    absent = pairing.white.key if late == "I" else pairing.black.key
    present = pairing.black.key if late == "I" else pairing.white.key
    assert _points(event) == {present: 1.0, absent: 0.0}  # R41: 1 to the present side
    table = APIClient().get(f"/api/v1/events/{event.pk}/standings/").json()
    cells = {r["key"]: r["rounds"][0]["result"] for r in table["crosstable"]}
    assert cells == {present: "+", absent: "-"}
    archived = RegistryGame.objects.get(live=game)  # decided, kept, and not rated (R41)
    assert (archived.status, archived.winner, archived.rated) == ("finished", winner, False)
    assert GameRecord.objects.filter(game=archived, kind="STSE").exists()
    assert not RatingChange.objects.filter(game=archived).exists()
    assert not Game.objects.get(pk=game.pk).rated
    # the pages say why, in the same words as the board (play/templatetags/talu_words.py)
    page = Client().get(reverse("profile", args=[absent])).content.decode()
    loser, won = ("light", "Dark") if late == "I" else ("dark", "Light")
    assert (f"{won} won: {loser} did not complete the opening turn in time (unplayed, not "
            "rated)") in page


def test_the_same_players_casual_game_still_aborts(make_user):
    """Outside the event the same miss aborts the game (R36, R37): no result at all."""
    _event, pairing = _event_game(make_user)
    casual = start_game(pairing.white.player.user, pairing.black.player.user,
                        time_control="fischer 180+2")
    assert not casual.in_event
    _age(casual, 45)
    _age(pairing.game, 5)  # the event's game is not due
    assert [u for u, _ in clocks.flag_due()] == [casual.uuid]
    row = Game.objects.get(pk=casual.pk)
    assert (row.status, row.winner, row.reason) == ("finished", "", "aborted")
    run_due()
    assert RegistryGame.objects.get(live=casual).status == RegistryGame.ANNULLED
    pairing.refresh_from_db()
    assert pairing.result == "" and Game.objects.get(pk=pairing.game_id).is_live


def test_an_event_time_control_out_of_range_is_refused(make_user):
    body = AffiliatedBody.objects.create(registrar_id="CLUB-BAD", name="Bad club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    before = Event.objects.count()
    r = api(arbiter).post("/api/v1/events/", {
        "body": body.registrar_id, "name": "Too slow", "system": "round_robin",
        "venue": "online", "time_control": "correspondence 30d"}, format="json")
    assert r.status_code == 400 and "from 1 to 14 days" in str(r.json())
    assert Event.objects.count() == before
