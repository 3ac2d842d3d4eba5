"""Registering players from a CSV file (issue 38, registry.clubs.csv_import): the preview shows
every row's problem and writes nothing; the confirm writes every valid row in one transaction,
checked again; a file that cannot be read is refused whole, in words."""

from __future__ import annotations

import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from registry.clubs import csv_import, services
from registry.clubs.models import PlayerClaim
from registry.models import AffiliatedBody, AuditEntry, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user):
    registrar = make_user("reg")
    body = AffiliatedBody.objects.create(registrar_id="GTF-HU-PECS-01", name="Pecs Club")
    body.registrars.add(registrar)
    c = Client()
    c.force_login(registrar)
    return body, registrar, c


def _upload(c, body, text: str | bytes):
    data = text.encode() if isinstance(text, str) else text
    return c.post(f"/clubs/{body.registrar_id}/people/import/",
                  {"file": SimpleUploadedFile("players.csv", data, "text/csv")})


BAD_ROWS = (
    "name,username,rating\n"
    "Anna Nagy,,300\n"          # 2: fine, a claim code
    "Bela Kovacs,,lots\n"       # 3: bad rating
    "anna nagy,,\n"             # 4: duplicate of line 2
    ",,250\n"                   # 5: missing name
    "Csilla\x07Bell,,\n"        # 6: a control character (play/games/text.py)
    "Dora,dora,\n"              # 7: fine, an existing account
    "Emil,nobody,\n"            # 8: no such account
    "Dora again,DORA,\n"        # 9: the same account twice
    "Ferenc,,0\n"               # 10: a rating is positive
)


def test_preview_shows_every_rows_problem_and_writes_nothing(club, make_user):
    body, _registrar, c = club
    dora = make_user("dora")
    players_before = Player.objects.count()
    r = _upload(c, body, BAD_ROWS)
    assert r.status_code == 200
    page = r.content.decode()
    preview = r.context["preview"]
    errors = {row.line: row.error for row in preview.rows}
    assert errors[2] == "" and errors[7] == ""
    assert "The rating 'lots' is not a whole number" in errors[3]
    assert errors[4] == "anna nagy is on line 2 already."
    assert errors[5] == "The name must not be empty."
    assert "The name must not contain" in errors[6] and "control" in errors[6]
    assert "No account 'nobody'" in errors[8]
    assert errors[9] == "DORA is on line 7 already."
    assert "not a whole number from 1" in errors[10]
    assert "2 of 9 rows can be registered" in page
    assert "not imported:" in page
    # nothing written by the preview
    assert Player.objects.count() == players_before
    assert not PlayerClaim.objects.exists()
    assert Player.objects.get(user=dora).body is None
    assert not AuditEntry.objects.filter(action=AuditEntry.IMPORT).exists()

    # confirmed: the valid rows, in one transaction, with claim codes printed once
    r = c.post(f"/clubs/{body.registrar_id}/people/import/",
               {"confirm": "1", "text": r.context["text"]})
    assert r.status_code == 200
    assert r.content.decode().count('data-testid="claim-code"') == 1
    assert list(body.players.order_by("display_name").values_list(
        "display_name", "rating")) == [("", 250), ("Anna Nagy", 300)]
    assert Player.objects.get(user=dora).body == body
    assert PlayerClaim.objects.filter(player__display_name="Anna Nagy").exists()
    entry = AuditEntry.objects.get(action=AuditEntry.IMPORT)
    assert entry.after == {"body": body.registrar_id, "registered": 2, "skipped": 7}

    # the same file again: every row is now registered, nothing is written twice
    r = c.post(f"/clubs/{body.registrar_id}/people/import/",
               {"confirm": "1", "text": BAD_ROWS})
    assert r.status_code == 400 and "No row of the file can be imported" in r.content.decode()
    assert body.players.count() == 2


def test_a_confirm_writes_all_or_nothing(club, monkeypatch):
    """One transaction: a failure on the third row leaves the first two unwritten."""
    body, registrar, _c = club
    made = []
    real = services.create_unclaimed

    def failing(user, body, name, rating=None):
        if len(made) == 2:
            raise RuntimeError("disk full")
        made.append(name)
        return real(user, body, name, rating)

    monkeypatch.setattr(services, "create_unclaimed", failing)
    with pytest.raises(RuntimeError):
        csv_import.commit(registrar, body, "name\nA One\nB Two\nC Three\n")
    assert body.players.count() == 0 and not PlayerClaim.objects.exists()


@pytest.mark.parametrize(("text", "words"), [
    ("nom,rating\nAnna,300\n", "Unknown column 'nom'"),
    ("username,rating\nanna,\n", "with a 'name' column"),
    ("name,name\nA,B\n", "named twice"),
    ("", "The file is empty"),
    ("name,club\nAnna,X\n", "Unknown column 'club'"),
    ("name\n" + "".join(f"P{i}\n" for i in range(csv_import.MAX_ROWS + 1)), "at most 1000"),
    (b"name\n\xff\xfe\n", "not UTF-8"),
    (b"name\nA\x00B\n", "NUL"),
])
def test_a_file_that_cannot_be_read_is_refused_whole(club, text, words):
    body, _registrar, c = club
    r = _upload(c, body, text)
    assert r.status_code == 400
    assert words in html.unescape(r.content.decode())
    assert body.players.count() == 0


def test_too_large_a_file_is_refused(club):
    body, _registrar, c = club
    r = _upload(c, body, "name\n" + "x" * (csv_import.MAX_BYTES + 10))
    assert r.status_code == 400 and "larger than" in r.content.decode()


def test_a_row_of_an_existing_member_and_a_rating_with_an_account(club, make_user):
    body, registrar, _c = club
    services.register_unclaimed(registrar, body, "Anna Nagy")
    make_user("gabor")
    preview = csv_import.read(body, "name,username,rating\nANNA NAGY,,\nGabor,gabor,400\n")
    assert [r.error for r in preview.rows] == [
        "ANNA NAGY is registered with Pecs Club already.",
        "An account's player keeps their rating on the site: leave the rating empty for a "
        "row with a username."]
