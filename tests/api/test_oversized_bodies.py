"""Oversized and over-many-field request bodies, and text a database cannot hold, are a 4xx with
a JSON message, never a server error (issue 27, findings 1 and 2). The API suite runs again on
PostgreSQL (the services lane of ``tests/lanes.py``), where a lone surrogate or a NUL is refused
by the database itself, so these matter most there.

Before the fix each of these answered 500 (``RequestDataTooBig``, ``TooManyFieldsSent``,
``TooManyFilesSent``, ``UnicodeEncodeError``) with a traceback in the log."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import encode_multipart
from rest_framework.test import APIClient

from tests.api import helpers

MB = 1024 * 1024




def _json(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return response.json()


def _form_body(size: int) -> str:
    return "display_name=" + "x" * size


def test_big_form_without_csrf_token_is_413(db, no_error_logs):
    """A logged-in staff member with a CSRF cookie posts a 3 MB form with no CSRF token: the
    CSRF check reads the form first; its size is what is wrong, and the answer says so."""
    user = get_user_model().objects.create_user("staffer", password="pw-staffer-x1",
                                                is_staff=True)
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    client.cookies["csrftoken"] = "k" * 32  # a visitor of any page has one
    response = client.generic("POST", "/api/v1/players/", _form_body(3 * MB),
                              content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert "large" in _json(response)["detail"].lower()


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/players/"])
def test_big_json_is_413(body_client, path, no_error_logs):
    payload = json.dumps({"stge": "x" * (5 * MB), "stse": ["x"], "display_name": "y" * MB})
    before = helpers.registry_state()
    response = body_client.generic("POST", path, payload, content_type="application/json")
    assert response.status_code == 413
    assert "large" in _json(response)["detail"].lower()
    assert helpers.registry_state() == before


def test_big_json_to_correct_is_413(body_client, body_a, pair, no_error_logs):
    game = helpers.add_game(body_a, *pair)
    payload = json.dumps({"reason": "typo", "stse": ["x" * (3 * MB)]})
    before = helpers.registry_state()
    response = body_client.generic("POST", f"/api/v1/games/{game.game_id}/correct/", payload,
                                   content_type="application/json")
    assert response.status_code == 413
    assert helpers.registry_state() == before


def test_big_form_with_token_is_413(body_client, no_error_logs):
    response = body_client.generic("POST", "/api/v1/games/", "stge=" + "x" * (3 * MB),
                                   content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert _json(response)["detail"]


def test_too_many_form_fields_is_400(body_client, no_error_logs):
    body = "&".join(f"f{n}=1" for n in range(3000))
    response = body_client.generic("POST", "/api/v1/games/", body,
                                   content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "fields" in _json(response)["detail"].lower()


def test_too_many_uploaded_files_is_400(body_client, no_error_logs):
    files = [SimpleUploadedFile(f"s{n}.yaml", b"x", "application/yaml") for n in range(2000)]
    boundary = "talu-boundary"
    body = encode_multipart(boundary, {"stge": SimpleUploadedFile("g.yaml", b"x"),
                                       "stse": files})
    response = body_client.generic("POST", "/api/v1/games/", body,
                                   content_type=f"multipart/form-data; boundary={boundary}")
    assert response.status_code == 400
    assert "files" in _json(response)["detail"].lower()


def test_the_most_sessions_a_game_may_have_still_upload(body_client, no_error_logs):
    """The limit on uploaded files leaves room for a game's STGE and every STSE it may have:
    such an upload reaches the registry's own checks (here: not valid records, 422)."""
    from registry.submission import MAX_SESSIONS

    files = [SimpleUploadedFile(f"s{n}.yaml", b"x: 1\n", "application/yaml")
             for n in range(MAX_SESSIONS)]
    response = body_client.post("/api/v1/games/", {
        "stge": SimpleUploadedFile("g.yaml", b"x: 1\n"), "stse": files}, format="multipart")
    assert response.status_code == 422, response.content[:300]


@pytest.mark.parametrize("where", ["stge", "stse"])
def test_lone_surrogate_in_submitted_record_is_400(body_client, where, no_error_logs):
    payload = {"stge": "\ud800", "stse": ["x"]} if where == "stge" else {
        "stge": "x", "stse": ["ok", "a\udfffb"]}
    before = helpers.registry_state()
    response = body_client.generic("POST", "/api/v1/games/", json.dumps(payload),
                                   content_type="application/json")
    assert response.status_code == 400, response.content
    assert where in _json(response)["errors"]
    assert helpers.registry_state() == before


def test_lone_surrogate_in_correction_is_400(body_client, body_a, pair, no_error_logs):
    game = helpers.add_game(body_a, *pair)
    before = helpers.registry_state()
    for payload in ({"reason": "typo", "stse": ["\ud800"]},
                    {"reason": "ty\ud800po", "stse": ["x"]}):
        response = body_client.generic("POST", f"/api/v1/games/{game.game_id}/correct/",
                                       json.dumps(payload), content_type="application/json")
        assert response.status_code == 400, response.content
        assert _json(response)["errors"]
    response = body_client.generic("POST", f"/api/v1/games/{game.game_id}/annul/",
                                   json.dumps({"reason": "\udc00"}),
                                   content_type="application/json")
    assert response.status_code == 400
    assert helpers.registry_state() == before


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/players/"])
def test_json_nested_too_deeply_is_400(body_client, path, no_error_logs):
    """A small body of 5,000 nested arrays took Python's JSON decoder past its recursion limit:
    a RecursionError, not the ValueError the parser turns into a 400, so a 500."""
    before = helpers.registry_state()
    response = body_client.generic("POST", path, "[" * 5000 + "]" * 5000,
                                   content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert "JSON" in _json(response)["detail"]
    assert helpers.registry_state() == before
