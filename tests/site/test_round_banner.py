"""A player learns on any page that their event round has started (issue 38, finding 3).

The bell's poll (``notifications/unread.json``) says ``fast`` for a player entered in an
event announced or running (the page then asks every few seconds) and, once their round has
started, ``round``: the game waiting, which the page shows as the banner with a sound
(static/notices/bell.js; the browser side is ``test_round_banner_browser.py``). On the game's
own page the server's banner is left out, on any other game's page it is shown."""

from __future__ import annotations

import pytest

from registry.events import rounds, services
from registry.events.models import Pairing
from registry.models import AffiliatedBody

pytestmark = pytest.mark.django_db


def _event(make_user):
    arbiter = make_user("rb-arbiter")
    body = AffiliatedBody.objects.create(registrar_id="RB-CLUB", name="Round bell club")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Bell night", rounds=1, venue="online")
    ann, ben = make_user("rb-ann"), make_user("rb-ben")
    for user in (ann, ben):
        services.register(user, event)
    return arbiter, event, ann, ben


def test_the_poll_says_fast_for_an_entrant_and_names_the_game_once_started(make_user, client):
    arbiter, event, ann, _ = _event(make_user)
    outsider = make_user("rb-outsider")
    client.force_login(outsider)
    assert client.get("/notifications/unread.json").json()["fast"] is False
    client.force_login(ann)
    polled = client.get("/notifications/unread.json").json()
    assert polled["fast"] is True and polled["round"] is None  # entered; no round yet
    rounds.pair_round(arbiter, event)
    rounds.start_round(arbiter, event)
    game = Pairing.objects.get(round__event=event, black__isnull=False).game
    polled = client.get("/notifications/unread.json").json()
    assert polled["round"] == {"game": str(game.uuid), "url": f"/games/{game.uuid}/",
                               "text": "Bell night, round 1: your game has started."}
    # the server's banner: on other pages, not on the game's own
    assert "your game has started" in client.get("/rules/").content.decode()
    page = client.get(f"/games/{game.uuid}/").content.decode()
    assert "your game has started" not in page and "data-event-entrant" in page
