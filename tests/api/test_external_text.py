"""Names and reasons through the body API are checked as every external string is
(``play.games.text``, issue 27 finding 9): a right-to-left override or a newline in a display
name is refused (it reversed text on the profile page, and the record builder then refused the
player); a name is stored normalised."""

from __future__ import annotations

import json

import pytest

from tests.api import helpers


@pytest.mark.parametrize("name", ["evil\u202egnp.exe", "two\nlines", "\u2067x", "a\x1bb",
                                  "\ud800", "   "])
def test_a_misleading_name_is_refused(body_client, name):
    before = helpers.registry_state()
    body = json.dumps({"display_name": name})  # ASCII, with a lone surrogate as \ud800
    response = body_client.generic("POST", "/api/v1/players/", body,
                                   content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]["display_name"]
    assert helpers.registry_state() == before


def test_a_name_is_stored_normalised(body_client):
    response = body_client.post("/api/v1/players/", {"display_name": "  Zo\u0308e   Smith "},
                                format="json")
    assert response.status_code == 201
    assert response.json()["name"] == "Z\u00f6e Smith"


def test_the_records_of_an_api_registered_player_can_be_built(body_client, body_keys):
    """What the API accepts as a name, the record builder takes (a refused player was the
    symptom of finding 9)."""
    from registry.models import Player

    ids = [body_client.post("/api/v1/players/", {"display_name": n}, format="json")
           .json()["player_id"] for n in ("  Ann\u00a0 Lee ", "B\u00e9la  Kiss")]
    pair = tuple(Player.objects.get(player_id=i) for i in ids)
    stge, stses = helpers.records(body_keys.signer(), pair)
    response = body_client.post("/api/v1/games/", {"stge": stge, "stse": stses}, format="json")
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("query", ["q=a%E2%80%AEb", "q=x%0Ay", "body=%00"])
def test_bad_query_parameters_are_400(client, db, query):
    response = client.get(f"/api/v1/players/?{query}")
    assert response.status_code == 400 and response.json()["errors"]


def test_a_reason_with_a_bidi_control_is_refused(body_client, body_a, pair):
    game = helpers.add_game(body_a, *pair)
    before = helpers.registry_state()
    response = body_client.post(f"/api/v1/games/{game.game_id}/annul/",
                                {"reason": "cheat\u202eing"}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["reason"]
    assert helpers.registry_state() == before


FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # man, ZWJ, woman, ZWJ, girl
RAINBOW = "\U0001F3F3\ufe0f\u200d\U0001F308"  # white flag, U+FE0F, ZWJ, rainbow


@pytest.mark.parametrize("name", [f"The {FAMILY} Smiths", f"Ann {RAINBOW}"])
def test_a_name_with_emoji_joined_by_zwj_is_taken_as_written(body_client, name):
    """Issue 41, finding 11: these were refused as control characters; they are text."""
    response = body_client.post("/api/v1/players/", {"display_name": name}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == name


def test_a_name_hiding_a_joiner_between_letters_is_still_refused(body_client):
    before = helpers.registry_state()
    response = body_client.post("/api/v1/players/", {"display_name": "ad\u200dmin"},
                                format="json")
    assert response.status_code == 400
    assert "U+200D" in response.json()["errors"]["display_name"][0]
    assert helpers.registry_state() == before


def test_a_reason_with_emoji_joined_by_zwj_is_taken(body_client, body_a, pair):
    from registry.models import AuditEntry

    game = helpers.add_game(body_a, *pair)
    reason = f"entered twice {FAMILY}"
    response = body_client.post(f"/api/v1/games/{game.game_id}/annul/", {"reason": reason},
                                format="json")
    assert response.status_code == 200, response.content
    assert AuditEntry.objects.get(action="annul").reason == reason
