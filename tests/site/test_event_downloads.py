"""An event's standings and a round's pairings as CSV (issue 38), and a page that prints
clean: the rows are the page's own; a name a spreadsheet would run as a formula is quoted."""

from __future__ import annotations

import csv
import io

import pytest

from registry.events import rounds, services
from registry.events.models import Event
from registry.models import AffiliatedBody
from tests.site.pairing import run_pairing

pytestmark = pytest.mark.django_db


def _rows(response) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_standings_and_pairings_download_as_csv(make_user, client):
    body = AffiliatedBody.objects.create(registrar_id="CLUB-CSV", name="CSV club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Sheet night", system="round_robin",
                                  venue="board")
    for name in ("=HYPERLINK(1)", "ana", "ben", "cyd"):
        services.enter_player(arbiter, event, name, 1500, "")
    rounds.request_pairing(arbiter, event)
    run_pairing(event)
    event = Event.objects.get(pk=event.pk)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="standings-csv"' in page and 'data-testid="pairings-csv-1"' in page
    standings = _rows(client.get(f"/events/{event.pk}/standings.csv"))
    assert standings[0][:3] == ["rank", "player", "points"] and len(standings) == 5
    names = {row[1] for row in standings[1:]}
    assert "'=HYPERLINK(1)" in names and "ana" in names  # the formula is only text
    pairings = _rows(client.get(f"/events/{event.pk}/rounds/1/pairings.csv"))
    assert pairings[0] == ["board", "white", "black", "result"] and len(pairings) == 3
    assert client.get(f"/events/{event.pk}/rounds/9/pairings.csv").status_code == 404
    assert client.get("/events/999/standings.csv").status_code == 404
