"""The challenge form offers time controls (R36): presets, a custom one checked with words,
and the game started by the challenge carries it (lobby, game page, frames)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from play.models import Challenge, Game

pytestmark = pytest.mark.django_db


def _challenge(client, user, **fields):
    client.force_login(user)
    data = {"variant": "standard", "rated": "1", "side": "I", "opponent": "", **fields}
    return client.post(reverse("challenge_new"), data, follow=True)


def test_preset_reaches_the_game_and_its_page(client, players):
    alice, bob, _ = players
    page = client.get(reverse("lobby")).content.decode()
    client.force_login(alice)
    page = client.get(reverse("lobby")).content.decode()
    for label in ("3+2 blitz", "10+5 rapid", "30+20 classical", "1 day per turn",
                  "3 days per turn", "7 days per turn", "custom"):
        assert label in page
    _challenge(client, alice, time="fischer 180+2")
    client.force_login(bob)
    state = client.get(reverse("lobby_state")).json()
    assert state["challenges"][0]["time"] == "3+2"
    client.post(reverse("challenge_accept", args=[state["challenges"][0]["id"]]))
    game = Game.objects.get()
    assert game.time_control == "fischer 180+2" and game.deadline is not None
    html = client.get(reverse("game", args=[game.uuid])).content.decode()
    assert "3+2" in html and '"control": "fischer 180+2"' in html


def test_custom_time_control(client, players):
    alice, _, _ = players
    _challenge(client, alice, time="custom", custom_time="byoyomi 300 5x30")
    assert Challenge.objects.get().time_control == "byoyomi 300 5x30"


@pytest.mark.parametrize("custom, words", [
    ("correspondence 30d", "from 1 to 14 days"),
    ("fischer 180+999", "the increment must be"),
    ("rapid please", "is not a time control"),
    ("", "Write the custom time control"),
])
def test_bad_custom_time_control_is_refused_with_words(client, players, custom, words):
    alice, _, _ = players
    r = _challenge(client, alice, time="custom", custom_time=custom)
    assert r.status_code == 200
    assert words in r.content.decode()
    assert not Challenge.objects.exists()


def test_no_time_field_means_untimed(client, players):
    alice, _, _ = players
    _challenge(client, alice)
    assert Challenge.objects.get().time_control == "untimed"
