"""The event banner on every page (issue 21): a signed-in user with no entry in a running
event is answered by one plain query, no game looked for (the signed-in event page's cost);
the banner shown to a player whose game started is tests/site/test_events_browser.py's."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory

from registry.events import rounds, services
from registry.events.templatetags.events import event_banner
from registry.models import AffiliatedBody


@pytest.mark.django_db
def test_a_user_in_no_running_event_gets_no_banner_in_one_query(django_assert_num_queries):
    users = get_user_model().objects
    arbiter = users.create_user("banner-arbiter", password="x-banner-1")
    viewer = users.create_user("banner-viewer", password="x-banner-2")
    body = AffiliatedBody.objects.create(registrar_id="BANNER-CLUB", name="Banner club")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Club night", rounds=3, venue="board")
    for i in range(4):
        services.enter_player(arbiter, event, f"Player {i}", 1500 + i)
    rounds.pair_round(arbiter, event)
    request = RequestFactory().get("/")
    request.user, request.resolver_match = viewer, None
    with django_assert_num_queries(1):
        shown = event_banner({"request": request})
    assert shown["pairing"] is None and not shown["entrant"]
