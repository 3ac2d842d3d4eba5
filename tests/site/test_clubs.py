"""Clubs online (issue 38, registry.clubs): a club applies, the federation (staff) approves,
refuses or suspends it, and the club's registrars run its people on the site; the pages answer
a person who may not with a 403 in words, never a 500. Every action is in the audit."""

from __future__ import annotations

import pytest
from django.test import Client

from registry.clubs import keys as body_keys
from registry.clubs import services
from registry.clubs.models import BodyApplication, PlayerClaim
from registry.events.models import Event
from registry.models import AffiliatedBody, AuditEntry, BodyKey, BodyToken, Player
from registry.tokens import issue_token

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _staff(make_user, name="fed"):
    user = make_user(name)
    user.is_staff = True
    user.save()
    return user


def _apply(user, name="Szeged Talu Club", place="HU Szeged", stratum="1"):
    r = _client(user).post("/clubs/apply/", {"name": name, "place": place,
                                             "contact": "club@example.org", "stratum": stratum})
    return r


def _approved_body(make_user, applicant_name="ana", club="Szeged Talu Club"):
    applicant = make_user(applicant_name)
    assert _apply(applicant, club).status_code == 302
    application = BodyApplication.objects.get(applicant=applicant)
    body = services.approve(_staff(make_user, applicant_name + "-fed"), application.pk)
    return body, applicant


def test_apply_approve_then_the_applicant_is_registrar_and_announces_an_event(make_user):
    ana, fed = make_user("ana"), _staff(make_user)
    r = _apply(ana)
    assert r.status_code == 302
    page = _client(ana).get("/clubs/apply/").content.decode()
    assert "pending: the federation has not decided yet" in page
    assert "A new application" not in page  # one pending application a person
    application = BodyApplication.objects.get(applicant=ana)
    assert application.stratum == 1 and application.place == "HU Szeged"

    r = _client(fed).post("/clubs/federation/act/", {"action": "approve",
                                                     "application": application.pk})
    assert r.status_code == 302
    body = AffiliatedBody.objects.get(name="Szeged Talu Club")
    # the federation's form of id (book 5.3.3: GTF-HU-SZEGED-01), made by registry.jobs.new_body
    assert body.registrar_id == "GTF-HU-SZEGED-TALU-CLUB-01"
    assert body.stratum == 1 and body.place == "HU Szeged" and body.suspended is None
    assert list(body.registrars.all()) == [ana]
    page = _client(ana).get("/clubs/apply/").content.decode()
    assert "approved" in page and body.registrar_id in page and "you are its registrar" in page
    assert "Szeged Talu Club" in _client().get("/clubs/").content.decode()

    r = _client(ana).post("/events/new/", {"body": body.registrar_id, "name": "Club night",
                                           "system": "swiss", "rounds": "3",
                                           "scoring_model": "S1", "venue": "online"})
    assert r.status_code == 302
    event = Event.objects.get(name="Club night")
    assert event.body == body
    # the body's page lists its event, and the event links back to its body
    assert "Club night" in _client().get(f"/clubs/{body.registrar_id}/").content.decode()
    assert f'href="/clubs/{body.registrar_id}/"' in _client().get(
        f"/events/{event.pk}/").content.decode()
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert AuditEntry.APPLY in actions and AuditEntry.APPROVE in actions


def test_a_second_club_of_the_same_name_gets_its_own_id(make_user):
    first, _ = _approved_body(make_user, "ana", "Pecs Club")
    assert first.registrar_id == "GTF-HU-SZEGED-PECS-CLUB-01"
    # a name taken is refused in words at the application
    r = _apply(make_user("bea"), "pecs club")
    assert r.status_code == 400
    assert "exists or has applied already" in r.content.decode()
    assert services.registrar_id_for("Pecs Club", "HU Szeged") == "GTF-HU-SZEGED-PECS-CLUB-02"


def test_refusal_with_reason_is_shown_to_the_applicant(make_user):
    bea, fed = make_user("bea"), _staff(make_user)
    _apply(bea, "Garage Club")
    application = BodyApplication.objects.get(applicant=bea)
    r = _client(fed).post("/clubs/federation/act/", {"action": "refuse",
                                                     "application": application.pk,
                                                     "reason": ""})
    assert r.status_code == 302  # refused without a reason: nothing changes
    assert BodyApplication.objects.get(pk=application.pk).status == "pending"
    _client(fed).post("/clubs/federation/act/", {
        "action": "refuse", "application": application.pk,
        "reason": "No venue is named: tell us where the club plays."})
    page = _client(bea).get("/clubs/apply/").content.decode()
    assert "refused: " in page and "No venue is named: tell us where the club plays." in page
    assert not AffiliatedBody.objects.filter(name="Garage Club").exists()
    # decided: the person may apply again
    assert _apply(bea, "Garage Club", "HU Pecs").status_code == 302
    # and a decided application is not decided twice
    r = _client(fed).post("/clubs/federation/act/", {"action": "approve",
                                                     "application": application.pk})
    assert "was refused already" in str(list(r.wsgi_request._messages))


def test_application_form_errors_keep_the_values(make_user):
    ana = make_user("ana")
    r = _client(ana).post("/clubs/apply/", {"name": "Club\x07Bell", "place": "",
                                            "contact": "me@example.org", "stratum": "7"})
    assert r.status_code == 400
    page = r.content.decode()
    assert "The club&#x27;s name must not contain" in page
    assert "The country or place must not be empty" in page
    assert "Choose the stratum S1, S2 or S3." in page
    assert 'value="me@example.org"' in page  # kept as typed
    assert not BodyApplication.objects.exists()
    # one pending application a person
    assert _apply(ana).status_code == 302
    r = _apply(ana, "Another Club")
    assert r.status_code == 409 and "waiting already" in r.content.decode()
    assert BodyApplication.objects.filter(applicant=ana).count() == 1


def test_stratum_words_of_r41_on_the_form(make_user):
    page = _client(make_user("ana")).get("/clubs/apply/").content.decode()
    assert "S2: your events score with S2 or S3, never the lower S1 (book 6.4)" in page
    assert "R41" in page


def test_suspension_blocks_events_submissions_and_registering(make_user):
    body, ana = _approved_body(make_user)
    fed = _staff(make_user, "fed2")
    r = _client(fed).post("/clubs/federation/act/", {"action": "suspend", "body": body.pk,
                                                     "reason": "Unpaid dues"})
    assert r.status_code == 302
    body.refresh_from_db()
    assert body.suspended is not None and body.suspended_reason == "Unpaid dues"
    page = _client().get(f"/clubs/{body.registrar_id}/").content.decode()
    assert "Suspended by the federation" in page and "Unpaid dues" in page

    r = _client(ana).post("/events/new/", {"body": body.registrar_id, "name": "Night",
                                           "system": "swiss", "rounds": "3",
                                           "scoring_model": "S1", "venue": "online"})
    assert r.status_code == 400
    assert "is suspended by the federation" in r.content.decode()
    assert not Event.objects.filter(name="Night").exists()

    # a record submitted with the body's token is rejected in words (422), nothing stored
    token = issue_token(body, "t")
    r = _client().post("/api/v1/games/", {"stge": "x: 1", "stse": ["y: 2"]},
                       HTTP_AUTHORIZATION=f"Token {token}",
                       content_type="application/json")
    assert r.status_code == 422, r.json()
    assert any("suspended" in reason for reason in r.json()["reasons"])

    r = _client(ana).post(f"/clubs/{body.registrar_id}/people/act/",
                          {"action": "new", "name": "Walk In"})
    assert not Player.objects.filter(display_name="Walk In").exists()

    _client(fed).post("/clubs/federation/act/", {"action": "reinstate", "body": body.pk})
    body.refresh_from_db()
    assert body.suspended is None
    r = _client(ana).post("/events/new/", {"body": body.registrar_id, "name": "Night",
                                           "system": "swiss", "rounds": "3",
                                           "scoring_model": "S1", "venue": "online"})
    assert r.status_code == 302
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {AuditEntry.SUSPEND, AuditEntry.REINSTATE} <= actions


def _confirm(client, body, action, role, user):
    url = f"/clubs/{body.registrar_id}/people/act/"
    asked = client.post(url, {"action": action, "role": role, "user": user.pk})
    assert asked.status_code == 200 and 'data-testid="confirm"' in asked.content.decode()
    return asked, client.post(url, {"action": action, "role": role, "user": user.pk,
                                    "confirm": "1"})


def test_registrar_adds_and_removes_an_arbiter_and_a_registrar_with_confirmation(make_user):
    body, ana = _approved_body(make_user)
    ref, reg2 = make_user("referee"), make_user("second")
    c = _client(ana)
    found = c.get(f"/clubs/{body.registrar_id}/people/?q=refer").content.decode()
    assert 'data-testid="found-referee"' in found

    asked = c.post(f"/clubs/{body.registrar_id}/people/act/",
                   {"action": "add", "role": "arbiter", "user": ref.pk})
    assert "Make referee an arbiter of Szeged Talu Club?" in asked.content.decode()
    assert not body.arbiter_users.exists()  # asked, not yet done
    _, done = _confirm(c, body, "add", "arbiter", ref)
    assert done.status_code == 302
    assert list(body.arbiter_users.all()) == [ref]
    _, done = _confirm(c, body, "add", "registrar", reg2)
    assert set(body.registrars.all()) == {ana, reg2}
    page = _client().get(f"/clubs/{body.registrar_id}/").content.decode()
    assert "referee" in page and "second" in page

    # the body's arbiters are offered when its event's arbiters are chosen
    event = services_event(ana, body)
    assert "referee" in _client(ana).get(f"/events/{event.pk}/").content.decode()

    _confirm(c, body, "remove", "arbiter", ref)
    assert not body.arbiter_users.exists()
    _confirm(_client(reg2), body, "remove", "registrar", ana)
    assert list(body.registrars.all()) == [reg2]
    # the last registrar stays: nobody could run the club
    _, done = _confirm(_client(reg2), body, "remove", "registrar", reg2)
    assert list(body.registrars.all()) == [reg2]
    entries = AuditEntry.objects.filter(action__in=[AuditEntry.ADD_PERSON,
                                                    AuditEntry.DROP_PERSON])
    assert entries.count() == 4
    assert {e.after["person"] for e in entries} == {"referee", "second", "ana"}


def services_event(user, body):
    from registry.events import services as event_services

    return event_services.create_event(user, body, name="Open", system="round_robin")


def test_a_non_registrar_gets_403_in_words(make_user):
    body, _ana = _approved_body(make_user)
    stranger, victim = make_user("stranger"), make_user("victim")
    c = _client(stranger)
    r = c.get(f"/clubs/{body.registrar_id}/people/")
    assert r.status_code == 403 and "Only a registrar of Szeged Talu Club" in r.content.decode()
    for data in ({"action": "add", "role": "registrar", "user": stranger.pk},
                 {"action": "add", "role": "registrar", "user": stranger.pk, "confirm": "1"},
                 {"action": "register", "user": victim.pk},
                 {"action": "new", "name": "Ghost"}):
        r = c.post(f"/clubs/{body.registrar_id}/people/act/", data)
        assert r.status_code == 403, data
        assert "Only a registrar" in r.content.decode()
    assert not body.registrars.filter(pk=stranger.pk).exists()
    assert not Player.objects.filter(display_name="Ghost").exists()
    r = c.get("/clubs/federation/")
    assert r.status_code == 403 and "federation" in r.content.decode()
    r = c.post("/clubs/federation/act/", {"action": "suspend", "body": body.pk,
                                          "reason": "x"})
    assert r.status_code == 403
    assert AffiliatedBody.objects.get(pk=body.pk).suspended is None
    # nonsense is a word, not a 500
    r = _client(_ana).post(f"/clubs/{body.registrar_id}/people/act/",
                           {"action": "add", "role": "king", "user": "x"})
    assert r.status_code == 302


def test_claim_code_flow(make_user):
    body, ana = _approved_body(make_user)
    r = _client(ana).post(f"/clubs/{body.registrar_id}/people/act/",
                          {"action": "new", "name": "Zoltan Kiss", "rating": "300"})
    assert r.status_code == 200
    page = r.content.decode()
    assert "shown this once" in page and "no-store" in r.get("Cache-Control", "")
    code = page.split('data-testid="claim-code">')[1].split("<")[0]
    assert len(code) == 11 and code[5] == "-"
    player = Player.objects.get(display_name="Zoltan Kiss")
    assert player.user is None and player.body == body and player.rating == 300
    assert code.replace("-", "") not in PlayerClaim.objects.get(player=player).code_hash

    zoli = make_user("zoli")
    own = Player.objects.get(user=zoli)  # the account's own player, empty, gives way
    r = _client(zoli).post("/clubs/claim/", {"code": "AAAAA-AAAAA"})
    assert r.status_code == 404 and "No player has this code" in r.content.decode()
    r = _client(zoli).post("/clubs/claim/", {"code": " " + code.lower().replace("-", " ")})
    assert r.status_code == 302 and r["Location"] == f"/players/{player.player_id}/"
    player.refresh_from_db()
    assert player.user == zoli and not Player.objects.filter(pk=own.pk).exists()
    assert AuditEntry.objects.filter(action=AuditEntry.CLAIM,
                                     after__player=player.player_id).exists()
    # used once: a second use is told so, and changes nothing
    other = make_user("other")
    r = _client(other).post("/clubs/claim/", {"code": code})
    assert r.status_code == 409 and "has been used already" in r.content.decode()
    player.refresh_from_db()
    assert player.user == zoli
    # anonymous: sign in first
    assert _client().post("/clubs/claim/", {"code": code}).status_code == 302
    # a second player's code: the account's club player is kept, not replaced
    second, second_code = services.register_unclaimed(ana, body, "Zoltan K. (again)")
    r = _client(zoli).post("/clubs/claim/", {"code": second_code})
    assert r.status_code == 409 and "is the registered player" in r.content.decode()
    assert Player.objects.get(user=zoli) == player
    assert Player.objects.get(pk=second.pk).user is None


def test_claim_refused_when_the_account_has_its_own_games(make_user):
    body, ana = _approved_body(make_user)
    player, code = services.register_unclaimed(ana, body, "Otto")
    otto = make_user("otto")
    Player.objects.filter(user=otto).update(games=3)
    r = _client(otto).post("/clubs/claim/", {"code": code})
    assert r.status_code == 409 and "write to the federation" in r.content.decode()
    player.refresh_from_db()
    assert player.user is None


def test_register_an_existing_account_found_by_name(make_user):
    body, ana = _approved_body(make_user)
    eve = make_user("eve")
    found = _client(ana).get(f"/clubs/{body.registrar_id}/people/?q=ev").content.decode()
    assert 'data-testid="register-eve"' in found
    r = _client(ana).post(f"/clubs/{body.registrar_id}/people/act/",
                          {"action": "register", "user": eve.pk})
    assert r.status_code == 302
    assert Player.objects.get(user=eve).body == body
    r = _client(ana).post(f"/clubs/{body.registrar_id}/people/act/",
                          {"action": "register", "user": eve.pk})
    assert "registered with Szeged Talu Club already" in str(list(r.wsgi_request._messages))
    assert "eve" in _client().get(f"/clubs/{body.registrar_id}/").content.decode()


# --- the permission matrix ---------------------------------------------------------------------

ROLES = ("anonymous", "stranger", "member", "arbiter", "registrar", "staff")
#: page or action -> the status each role gets (302: to the log-in page, or done and back)
MATRIX = {
    "list": (200, 200, 200, 200, 200, 200),
    "body": (200, 200, 200, 200, 200, 200),
    "apply": (302, 200, 200, 200, 200, 200),
    "claim": (302, 200, 200, 200, 200, 200),
    "people": (302, 403, 403, 403, 200, 200),
    "import": (302, 403, 403, 403, 200, 200),
    "add-arbiter": (302, 403, 403, 403, 200, 200),
    "new-player": (302, 403, 403, 403, 200, 200),
    "federation": (302, 403, 403, 403, 403, 200),
    "suspend": (302, 403, 403, 403, 403, 302),
    # a body's keys and tokens (registry.clubs.keys, .tokens): its registrars and staff only;
    # its public keys are everyone's (to verify its records)
    "keys": (302, 403, 403, 403, 200, 200),
    "public-keys": (200, 200, 200, 200, 200, 200),
    "generate-key": (302, 403, 403, 403, 200, 200),
    "revoke-key": (302, 403, 403, 403, 302, 302),
    "new-token": (302, 403, 403, 403, 200, 200),
    "rotate-token": (302, 403, 403, 403, 200, 200),
    "revoke-token": (302, 403, 403, 403, 302, 302),
}


def _request(client, what, body, target, role):
    rid = body.registrar_id
    gets = {"list": "/clubs/", "body": f"/clubs/{rid}/", "apply": "/clubs/apply/",
            "claim": "/clubs/claim/", "people": f"/clubs/{rid}/people/",
            "import": f"/clubs/{rid}/people/import/", "federation": "/clubs/federation/",
            "keys": f"/clubs/{rid}/keys/"}
    if what in gets:
        return client.get(gets[what])
    if what == "add-arbiter":
        return client.post(f"/clubs/{rid}/people/act/", {"action": "add", "role": "arbiter",
                                                         "user": target.pk})
    if what == "new-player":
        return client.post(f"/clubs/{rid}/people/act/", {"action": "new",
                                                         "name": f"Matrix {role}"})
    if what == "public-keys":
        if body_keys.current_key(body) is None:
            body_keys.generate(body.registrars.first(), body)
        return client.get(f"/clubs/{rid}/keys.asc")
    keys_act = f"/clubs/{rid}/keys/act/"
    if what == "generate-key":  # confirmed: a rotation when the body has a key already
        return client.post(keys_act, {"action": "generate", "confirm": "1"})
    if what == "revoke-key":  # each role tries to revoke the body's current key
        if body_keys.current_key(body) is None:  # the registrar revoked it: a new one
            body_keys.generate(body.registrars.first(), body)
        return client.post(keys_act, {"action": "revoke-key", "confirm": "1",
                                      "fingerprint": body_keys.current_key(body).fingerprint,
                                      "reason": f"matrix {role}"})
    if what == "new-token":
        return client.post(keys_act, {"action": "new-token", "label": f"matrix {role}"})
    if what in ("rotate-token", "revoke-token"):
        issue_token(body, f"matrix {role}")
        token = BodyToken.objects.filter(body=body, label=f"matrix {role}").get()
        return client.post(keys_act, {"action": what, "confirm": "1", "token": token.pk})
    return client.post("/clubs/federation/act/", {"action": "suspend", "body": body.pk,
                                                  "reason": "matrix"})


@pytest.mark.parametrize("what", sorted(MATRIX))
def test_permission_matrix(make_user, what):
    body, registrar = _approved_body(make_user)
    member, arbiter, target = make_user("member"), make_user("arbi"), make_user("target")
    services.register_account(registrar, body, member)
    body.arbiter_users.add(arbiter)
    people = {"anonymous": None, "stranger": make_user("stranger"), "member": member,
              "arbiter": arbiter, "registrar": registrar, "staff": _staff(make_user, "boss")}
    for role, expected in zip(ROLES, MATRIX[what], strict=True):
        r = _request(_client(people[role]), what, body, target, role)
        assert r.status_code == expected, (what, role, r.status_code)
        if expected == 403:
            assert b"Only" in r.content or b"only" in r.content, (what, role)
        if expected == 302 and role == "anonymous":
            assert "/accounts/login/" in r["Location"]
    body.refresh_from_db()
    if what == "suspend":
        assert body.suspended is not None  # staff only
    if what == "new-player":  # the registrar and staff made one each, nobody else
        assert set(Player.objects.filter(display_name__startswith="Matrix").values_list(
            "display_name", flat=True)) == {"Matrix registrar", "Matrix staff"}
    if what == "generate-key":  # the registrar's key, then staff's rotation
        assert [k.state for k in BodyKey.objects.filter(body=body).order_by("id")] == [
            "retired", "current"]
    if what == "revoke-key":
        assert set(BodyKey.objects.exclude(revoked=None).values_list(
            "revoked_reason", flat=True)) == {"matrix registrar", "matrix staff"}
    if what == "new-token":
        assert set(BodyToken.objects.values_list("label", flat=True)) == {
            "matrix registrar", "matrix staff"}
    if what in ("rotate-token", "revoke-token"):  # only the registrar's and staff's went
        assert set(BodyToken.objects.filter(revoked=True).values_list("label", flat=True)) \
            == {"matrix registrar", "matrix staff"}


def test_the_sites_own_body_cannot_be_suspended(make_user):
    from registry.services import site_body

    body = site_body()
    r = _client(_staff(make_user)).post("/clubs/federation/act/", {
        "action": "suspend", "body": body.pk, "reason": "by mistake"})
    assert "cannot be suspended" in str(list(r.wsgi_request._messages))
    assert AffiliatedBody.objects.get(pk=body.pk).suspended is None
