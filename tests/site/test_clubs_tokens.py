"""A club's API tokens on its keys page (issue 38, ``registry.clubs.tokens``): created and shown
once (only the SHA-256 kept, ``registry.tokens``), listed with label, creation and last use,
rotated (the old token stops working at once, the new one shown once) and revoked, each asked
again first where it cannot be undone, audited, and only by the club's registrars and staff."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from registry import jobs
from registry.models import AuditEntry, BodyToken
from registry.tokens import hash_token, issue_token

pytestmark = pytest.mark.django_db

RID = "GTF-HU-TOKENS-01"


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def club(make_user):
    body = jobs.new_body(RID, name="Token Talu Club", stratum=1)
    registrar = make_user("reg")
    body.registrars.add(registrar)
    return body, _client(registrar)


def _act(client, **data):
    return client.post(f"/clubs/{RID}/keys/act/", data)


def _shown(response) -> str:
    m = re.search(r'data-testid="token">(talu_[^<]+)<', response.content.decode())
    assert m, response.content.decode()[:800]
    return m.group(1)


def _api(token: str) -> int:
    """The submission endpoint with this token: 422 (authenticated, the junk records refused)
    or 401 (the token does not work)."""
    r = Client().post("/api/v1/games/", {"stge": "x: 1", "stse": ["y: 2"]},
                      HTTP_AUTHORIZATION=f"Token {token}", content_type="application/json")
    return r.status_code


def test_create_shows_the_token_once_and_keeps_only_its_hash(club):
    body, reg = club
    r = _act(reg, action="new-token", label="Club laptop")
    assert r.status_code == 200 and "shown this once" in r.content.decode()
    assert "no-cache" in r["Cache-Control"] or "no-store" in r["Cache-Control"]
    plain = _shown(r)
    token = BodyToken.objects.get(body=body)
    assert token.label == "Club laptop" and token.key_hash == hash_token(plain)
    assert plain not in str(list(BodyToken.objects.values()))
    page = reg.get(f"/clubs/{RID}/keys/").content.decode()
    assert "Club laptop" in page and plain not in page and "never" in page
    assert _api(plain) == 422
    page = reg.get(f"/clubs/{RID}/keys/").content.decode()
    assert "never" not in page.split('data-testid="tokens"')[1].split("</table>")[0]
    assert AuditEntry.objects.get(action=AuditEntry.TOKEN).after["change"] == "create"


def test_rotate_asks_first_then_the_old_token_stops_at_once(club):
    body, reg = club
    old = issue_token(body, "Club laptop")
    pk = BodyToken.objects.get().pk
    r = _act(reg, action="rotate-token", token=pk)
    assert r.status_code == 200 and 'data-testid="confirm"' in r.content.decode()
    assert _api(old) == 422  # nothing changed before the answer
    r = _act(reg, action="rotate-token", token=pk, confirm="1")
    assert r.status_code == 200 and "stopped working just now" in r.content.decode()
    new = _shown(r)
    assert _api(old) == 401 and _api(new) == 422
    assert BodyToken.objects.get(pk=pk).revoked
    assert BodyToken.objects.get(key_hash=hash_token(new)).label == "Club laptop"
    audit = AuditEntry.objects.get(action=AuditEntry.TOKEN)
    assert audit.after["change"] == "rotate" and audit.after["old"] == pk
    # a revoked token cannot be rotated again
    r = _act(reg, action="rotate-token", token=pk, confirm="1")
    assert r.status_code == 404 and BodyToken.objects.count() == 2


def test_revoke_asks_first_then_the_token_stops(club):
    body, reg = club
    plain = issue_token(body, "Old script")
    pk = BodyToken.objects.get().pk
    assert 'data-testid="confirm"' in _act(reg, action="revoke-token", token=pk).content.decode()
    assert not BodyToken.objects.get().revoked
    assert _act(reg, action="revoke-token", token=pk, confirm="1").status_code == 302
    assert BodyToken.objects.get().revoked and _api(plain) == 401
    page = reg.get(f"/clubs/{RID}/keys/").content.decode()
    assert f'data-testid="revoke-token-{pk}"' not in page and "revoked" in page
    assert AuditEntry.objects.get(action=AuditEntry.TOKEN).after["change"] == "revoke"


def test_another_clubs_token_is_out_of_reach(club):
    reg = club[1]
    other = jobs.new_body("GTF-HU-OTHER-01", name="Other Club", stratum=1)
    plain = issue_token(other, "theirs")
    pk = BodyToken.objects.get(body=other).pk
    for action in ("rotate-token", "revoke-token"):
        r = _act(reg, action=action, token=pk, confirm="1")
        assert r.status_code == 404
    assert not BodyToken.objects.get(pk=pk).revoked and _api(plain) == 422
    assert not AuditEntry.objects.filter(action=AuditEntry.TOKEN).exists()


@pytest.mark.parametrize("label, words", [("bad\x07label", "The token's label"),
                                          ("x" * 101, "The token's label")])
def test_a_bad_label_is_refused_in_words(club, label, words):
    reg = club[1]
    r = _act(reg, action="new-token", label=label)
    assert r.status_code == 400 and words in html.unescape(r.content.decode())
    assert not BodyToken.objects.exists()


def test_an_empty_label_gets_a_plain_one(club):
    reg = club[1]
    _shown(_act(reg, action="new-token", label=""))
    assert BodyToken.objects.get().label == "API token"
