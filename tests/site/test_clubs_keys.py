"""A club's signing keys on the site (issue 38, ``registry.clubs.keys``): upload a public key
made with ``talu keygen``, generate one (the secret key shown once, never kept), rotate (the
old key still verifies what it signed before), revoke with a reason (R31-R35 are silent: a
revoked key's records are refused from then on, the games accepted stay), and submissions
checked against the key each record names (R33 ``key_id``). Bad keys are refused in words,
nothing written. The keys are made once for the module (GnuPG is the slow part)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from registry import jobs
from registry.models import AffiliatedBody, AuditEntry, BodyKey, GameRecord, RegistryGame
from registry.records import keys
from registry.records.signing import Signer
from registry.tokens import issue_token
from talu_cli.main import main
from tests.registry.helpers import I_WINS, O_WINS, make_player, records

pytestmark = pytest.mark.django_db

RID = "GTF-HU-KEYS-01"
GPG = ["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", ""]


@dataclass(frozen=True)
class ClubKeys:
    ring: Path  # the club's own keyring: keys A and B (talu keygen, then --rotate)
    a: keys.KeyInfo
    b: keys.KeyInfo
    a_public: str
    b_public: str
    a_secret: str
    other_body: str  # a key marked for another registrar
    expired: str
    revoked: str
    cert_only: str  # a key that cannot sign
    stranger: keys.KeyInfo  # a key of nobody's, in ``ring``
    sub_ring: Path  # a key whose primary only certifies and whose subkey signs
    sub: keys.KeyInfo

    def signer(self, which: str) -> Signer:
        return Signer(self.ring, getattr(self, which).fingerprint, registrar_id=RID)


def _gpg(home: Path, *args: str) -> None:
    subprocess.run([*GPG, "--homedir", str(home), *args], check=True, capture_output=True,
                   timeout=60)


@pytest.fixture(scope="module")
def club_keys(tmp_path_factory) -> ClubKeys:
    base = tmp_path_factory.mktemp("club-keys")
    ring = base / "club"
    # the club makes its key as the book's body does, with the talu command (CLI contract)
    assert main(["keygen", "--keyring", str(ring), "--registrar-id", RID, "--name",
                 "Keys Talu Club", "--public-key", str(base / "a.asc")]) == 0
    a = keys.find_body_key(ring, RID)
    assert main(["keygen", "--keyring", str(ring), "--registrar-id", RID, "--name",
                 "Keys Talu Club", "--public-key", str(base / "b.asc"), "--rotate"]) == 0
    b = next(k for k in keys.Keyring(ring).list_keys(secret=True)
             if RID in k.registrars and k.fingerprint != a.fingerprint)
    stranger = keys.create_key(ring, name="Mallory Other")
    other = base / "other"
    other_info = keys.create_body_key(other, registrar_id="GTF-OTHER-01", name="Other")
    odd = base / "odd"
    odd.mkdir(mode=0o700)
    _gpg(odd, "--faked-system-time", "20200101T000000!", "--quick-gen-key", "Old <o@x.org>",
         "ed25519", "sign", "1d")
    _gpg(odd, "--quick-gen-key", "Gone <g@x.org>", "ed25519", "sign", "never")
    _gpg(odd, "--quick-gen-key", "Certify <c@x.org>", "ed25519", "cert", "never")
    ring_odd = keys.Keyring(odd)
    by_uid = {k.uids[0].split()[0]: k.fingerprint for k in ring_odd.list_keys()}
    rev = (odd / "openpgp-revocs.d" / f"{by_uid['Gone']}.rev").read_text()
    ring_odd.gpg.import_keys(rev.replace(":-----BEGIN", "-----BEGIN"))
    sub_ring = base / "sub"
    sub_ring.mkdir(mode=0o700)
    _gpg(sub_ring, "--quick-gen-key", f"Sub Club (talu-registrar:{RID})", "ed25519", "cert",
         "never")
    sub = keys.Keyring(sub_ring).list_keys()[0]
    _gpg(sub_ring, "--quick-add-key", sub.fingerprint, "ed25519", "sign", "never")
    sub = keys.Keyring(sub_ring).list_keys()[0]
    secret = str(keys.Keyring(ring).gpg.export_keys(a.fingerprint, secret=True, passphrase="",
                                                    expect_passphrase=False))
    yield ClubKeys(ring, a, b, (base / "a.asc").read_text(), (base / "b.asc").read_text(),
                   secret, keys.export_public_key(other, other_info.fingerprint),
                   keys.export_public_key(ring_odd, by_uid["Old"]),
                   keys.export_public_key(ring_odd, by_uid["Gone"]),
                   keys.export_public_key(ring_odd, by_uid["Certify"]), stranger, sub_ring, sub)
    for home in (ring, other, odd, sub_ring):
        keys.stop_agent(home)


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def club(make_user):
    body = jobs.new_body(RID, name="Keys Talu Club", stratum=1, place="HU")
    registrar = make_user("reg")
    body.registrars.add(registrar)
    return body, _client(registrar)


def _act(client, data, **files):
    return client.post(f"/clubs/{RID}/keys/act/", {**data, **files})


def _upload(client, text: str, *, confirm: bool = False, as_file: bool = True):
    data = {"action": "upload", **({"confirm": "1"} if confirm else {})}
    if as_file:
        return _act(client, data, file=SimpleUploadedFile("club.asc", text.encode()))
    return _act(client, {**data, "key": text})


def _current(body) -> str:
    return AffiliatedBody.objects.get(pk=body.pk).key_id


def _submit(body, signer: Signer, name: str = I_WINS, start=None):
    """A game of the club's two players signed by ``signer``, sent with its API token."""
    from tests.registry.helpers import T0

    pair = (make_player(f"P{RegistryGame.objects.count()}a", body=body),
            make_player(f"P{RegistryGame.objects.count()}b", body=body))
    stge, stses = records(signer, pair, name, start=start or T0)
    token = issue_token(body, "test")
    r = Client().post("/api/v1/games/", {"stge": stge, "stse": stses},
                      HTTP_AUTHORIZATION=f"Token {token}", content_type="application/json")
    return r, stge, stses


# --- upload -----------------------------------------------------------------------------------


def test_upload_a_public_key_made_with_talu_keygen(club, club_keys):
    body, reg = club
    r = _upload(reg, club_keys.a_public)
    assert r.status_code == 302, r.content.decode()[:500]
    key = BodyKey.objects.get(body=body)
    assert (key.fingerprint, key.key_id, key.state, key.origin) == (
        club_keys.a.fingerprint, club_keys.a.key_id, "current", "uploaded")
    assert key.added_by.username == "reg" and _current(body) == club_keys.a.key_id
    assert "PRIVATE" not in key.public_key
    for page in (f"/clubs/{RID}/", f"/clubs/{RID}/keys/"):
        assert club_keys.a.fingerprint in reg.get(page).content.decode()
    audit = AuditEntry.objects.get(action=AuditEntry.KEY)
    assert audit.after["change"] == "add" and audit.after["key"] == club_keys.a.key_id
    # the same key again is refused: a rotation needs a new key
    r = _upload(reg, club_keys.a_public, confirm=True, as_file=False)
    assert r.status_code == 400 and "already" in r.content.decode()
    assert BodyKey.objects.count() == 1


BAD_KEYS = {
    "empty": (lambda k: "", "no public key given"),
    "not OpenPGP": (lambda k: "ssh-ed25519 AAAAC3Nza me@host", "not an ASCII-armoured OpenPGP"),
    "damaged": (lambda k: k.a_public.replace("m", "Q", 5), "not a readable OpenPGP public key"),
    "secret key": (lambda k: k.a_secret, "this is a SECRET key"),
    "expired": (lambda k: k.expired, "expired on 2020-01-02"),
    "revoked": (lambda k: k.revoked, "is revoked"),
    "cannot sign": (lambda k: k.cert_only, "cannot sign"),
    "two keys": (lambda k: k.a_public + k.b_public, "holds 2 keys"),
    "another body's": (lambda k: k.other_body, "marked for registrar GTF-OTHER-01"),
}


@pytest.mark.parametrize("case", sorted(BAD_KEYS))
def test_a_bad_public_key_is_refused_in_words_and_nothing_written(club, club_keys, case):
    body, reg = club
    make, words = BAD_KEYS[case]
    r = _upload(reg, make(club_keys), as_file=case not in ("empty", "secret key"))
    page = r.content.decode()
    assert r.status_code == 400
    assert words in page, page[page.find("key-error") - 100:][:600]
    assert 'data-testid="key-error"' in page and "Traceback" not in page
    assert not BodyKey.objects.exists() and _current(body) == ""
    assert not AuditEntry.objects.filter(action=AuditEntry.KEY).exists()
    assert "PRIVATE KEY" not in page  # a secret key pasted by mistake is not shown back


def test_a_key_that_signs_with_its_subkey(club, club_keys):
    """R33's ``key_id`` is the *signing* key's: a record signed by a signing subkey names the
    subkey, and is checked against the body's key that holds it."""
    body, reg = club
    assert _upload(reg, keys.export_public_key(club_keys.sub_ring,
                                               club_keys.sub.fingerprint)).status_code == 302
    key = BodyKey.objects.get()
    subkey_id = keys.key_id_of(club_keys.sub.subkey_fingerprints[0])
    assert key.key_id == club_keys.sub.key_id and key.subkey_ids == subkey_id
    signer = Signer(club_keys.sub_ring, club_keys.sub.fingerprint, registrar_id=RID)
    r, stge, _ = _submit(body, signer)
    assert r.status_code == 201, r.content
    assert subkey_id in stge


def test_a_file_that_is_not_text_is_refused(club):
    r = _act(club[1], {"action": "upload"}, file=SimpleUploadedFile("k.gpg", b"\x99\x01\xff"))
    assert r.status_code == 400 and "not text" in r.content.decode()
    assert not BodyKey.objects.exists()


# --- generate -----------------------------------------------------------------------------------


def test_generate_shows_the_secret_key_once_and_keeps_only_the_public_key(club, tmp_path):
    body, reg = club
    r = _act(reg, {"action": "generate"})
    page = r.content.decode()
    assert r.status_code == 200 and "shown this once" in page
    assert "no-cache" in r["Cache-Control"] or "no-store" in r["Cache-Control"]
    key = BodyKey.objects.get(body=body)
    assert key.origin == "generated" and _current(body) == key.key_id
    assert keys.PRIVATE_BEGIN in page and keys.PRIVATE_BEGIN not in key.public_key
    # the site kept no secret key: neither its own keyring nor the table has it
    site_ring = keys.Keyring(settings.TALU_KEYRING, create=True)
    assert key.fingerprint not in {k.fingerprint for k in site_ring.list_keys(secret=True)}
    # the club imports the secret key and signs a game with it: the site accepts the game
    start = page.index(keys.PRIVATE_BEGIN)
    secret = page[start:page.index("-----END PGP PRIVATE KEY BLOCK-----") + 35]
    home = tmp_path / "club"
    ring = keys.Keyring(home, create=True)
    try:
        assert ring.gpg.import_keys(secret).fingerprints
        r, _, _ = _submit(body, Signer(home, key.fingerprint, registrar_id=RID))
        assert r.status_code == 201, r.content
    finally:
        keys.stop_agent(home)
    # shown once: the keys page has no secret
    assert keys.PRIVATE_BEGIN not in reg.get(f"/clubs/{RID}/keys/").content.decode()


# --- rotate, verify, revoke ---------------------------------------------------------------------


def test_rotation_keeps_old_records_verifiable_with_talu_verify(club, club_keys, tmp_path):
    body, reg = club
    assert _upload(reg, club_keys.a_public).status_code == 302
    r, _, _ = _submit(body, club_keys.signer("a"))  # a game of March, signed with A
    assert r.status_code == 201, r.content
    old_game = RegistryGame.objects.get()

    # B: asked first (it retires A), nothing changes until confirmed
    r = _upload(reg, club_keys.b_public)
    assert r.status_code == 200 and 'data-testid="confirm"' in r.content.decode()
    assert "retired" in r.content.decode() and _current(body) == club_keys.a.key_id
    assert _upload(reg, club_keys.b_public, confirm=True).status_code == 302
    a, b = (BodyKey.objects.get(key_id=k.key_id) for k in (club_keys.a, club_keys.b))
    assert (a.state, b.state, _current(body)) == ("retired", "current", club_keys.b.key_id)
    assert AuditEntry.objects.filter(action=AuditEntry.KEY).last().after["change"] == "rotate"

    # A still verifies a record it signed before the rotation ...
    r, _, _ = _submit(body, club_keys.signer("a"), O_WINS)
    assert r.status_code == 201, r.content
    # ... but signs nothing made after it
    r, _, _ = _submit(body, club_keys.signer("a"), start=timezone.now() + timedelta(hours=1))
    assert r.status_code == 422
    assert any("retired" in x and club_keys.b.key_id in x for x in r.json()["reasons"])
    # B signs the new ones; a key of nobody's is refused, naming the body's keys
    assert _submit(body, club_keys.signer("b"), start=timezone.now())[0].status_code == 201
    r, _, _ = _submit(body, club_keys.signer("stranger"))
    assert r.status_code == 422
    assert any("is not a key of " + RID in x for x in r.json()["reasons"])

    # talu verify, as anyone outside: the club's published keys, the archived old records
    published = _client().get(f"/clubs/{RID}/keys.asc")
    assert published.status_code == 200
    home = tmp_path / "verifier"
    try:
        fprs = keys.import_public_keys(keys.Keyring(home, create=True),
                                       published.content.decode())
        assert set(fprs) == {club_keys.a.fingerprint, club_keys.b.fingerprint}
        paths = []
        for rec in old_game.records.filter(kind__in=[GameRecord.STGE, GameRecord.STSE]):
            path = tmp_path / rec.filename
            path.write_text(rec.content, encoding="utf-8")
            paths.append(str(path))
        done = subprocess.run([sys.executable, "-m", "talu_cli", "verify", "--keyring",
                               str(home), *paths], capture_output=True, text=True, timeout=120,
                              check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "ok (STGE)" in done.stdout and "ok (STSE)" in done.stdout
    finally:
        keys.stop_agent(home)


def test_revoke_with_a_reason_then_its_records_are_refused(club, club_keys):
    body, reg = club
    _upload(reg, club_keys.a_public)
    assert _submit(body, club_keys.signer("a"))[0].status_code == 201
    _upload(reg, club_keys.b_public, confirm=True)
    fpr = club_keys.a.fingerprint
    # asked first; a reason is required
    r = _act(reg, {"action": "revoke-key", "fingerprint": fpr})
    assert r.status_code == 200 and "cannot be undone" in r.content.decode()
    r = _act(reg, {"action": "revoke-key", "fingerprint": fpr, "confirm": "1", "reason": " "})
    assert "Give a reason" in r.content.decode()
    assert BodyKey.objects.get(fingerprint=fpr).revoked is None
    r = _act(reg, {"action": "revoke-key", "fingerprint": fpr, "confirm": "1",
                   "reason": "Laptop stolen"})
    assert r.status_code == 302
    key = BodyKey.objects.get(fingerprint=fpr)
    assert key.state == "revoked" and key.revoked_reason == "Laptop stolen"
    assert "Laptop stolen" in _client().get(f"/clubs/{RID}/").content.decode()
    # a record signed with it is refused, whatever its date; the accepted game stays
    r, _, _ = _submit(body, club_keys.signer("a"), O_WINS)
    assert r.status_code == 422
    assert any("revoked" in x and "Laptop stolen" in x for x in r.json()["reasons"])
    assert RegistryGame.objects.count() == 1
    # the revoked key is still published, so the accepted game's signatures can be checked
    with keys.scratch_keyring() as ring:
        assert fpr in keys.import_public_keys(
            ring, _client().get(f"/clubs/{RID}/keys.asc").content.decode())
    # revoking the current key leaves the body with none: it submits nothing
    _act(reg, {"action": "revoke-key", "fingerprint": club_keys.b.fingerprint, "confirm": "1",
               "reason": "Club closed its laptop"})
    assert _current(body) == ""
    r, _, _ = _submit(body, club_keys.signer("b"))
    assert r.status_code == 422 and "no public key on file" in str(r.json()["reasons"])
    changes = [a.after["change"] for a in AuditEntry.objects.filter(action=AuditEntry.KEY)]
    assert changes == ["add", "rotate", "revoke", "revoke"]


def test_a_key_on_file_before_the_keys_page_is_kept_and_retired(club, club_keys):
    """A body made with ``manage.py create_body`` has its key in ``AffiliatedBody`` only: the
    keys page records it, so a rotation retires it rather than forgetting it."""
    body, reg = club
    AffiliatedBody.objects.filter(pk=body.pk).update(public_key=club_keys.a_public,
                                                     key_id=club_keys.a.key_id)
    assert _submit(body, club_keys.signer("a"))[0].status_code == 201
    assert club_keys.a.key_id in reg.get(f"/clubs/{RID}/keys/").content.decode()
    assert BodyKey.objects.get().origin == "recorded"
    assert _upload(reg, club_keys.b_public, confirm=True).status_code == 302
    assert {k.key_id: k.state for k in BodyKey.objects.all()} == {
        club_keys.a.key_id: "retired", club_keys.b.key_id: "current"}


def test_a_key_changed_outside_the_page_is_a_rotation(club, club_keys):
    """The admin (or a script) writes a new ``AffiliatedBody.public_key``: the keys page
    records it as current and retires the key it replaced, which still verifies."""
    body, reg = club
    assert _upload(reg, club_keys.a_public).status_code == 302
    AffiliatedBody.objects.filter(pk=body.pk).update(public_key=club_keys.b_public,
                                                     key_id=club_keys.b.key_id)
    assert _submit(body, club_keys.signer("a"))[0].status_code == 201  # both verify meanwhile
    assert reg.get(f"/clubs/{RID}/keys/").status_code == 200
    assert {k.key_id: k.state for k in BodyKey.objects.all()} == {
        club_keys.a.key_id: "retired", club_keys.b.key_id: "current"}


def test_the_sites_own_body_key_is_not_changed_here(make_user):
    from registry.services import site_body

    body = site_body()
    staff = make_user("boss")
    staff.is_staff = True
    staff.save()
    r = _client(staff).post(f"/clubs/{body.registrar_id}/keys/act/", {"action": "generate"})
    assert r.status_code == 409 and "operator" in r.content.decode()
    assert not BodyKey.objects.filter(body=body).exists()


def test_the_migration_moves_a_bodys_current_key_into_its_keys(club, club_keys):
    """registry/migrations/0012: the key on file becomes the body's first ``BodyKey`` (its
    fingerprint read from the armour itself: a migration runs no gpg)."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("registry.migrations.0012_body_keys")
    assert migration._fingerprints(club_keys.a_public) == (club_keys.a.fingerprint, [])
    sub_public = keys.export_public_key(club_keys.sub_ring, club_keys.sub.fingerprint)
    assert migration._fingerprints(sub_public) == (club_keys.sub.fingerprint,
                                                   list(club_keys.sub.subkey_fingerprints))
    assert migration._fingerprints("not a key") is None
    assert migration._fingerprints(keys.PUBLIC_BEGIN + "\n\nmDMEZ\n") is None
    body, _ = club
    AffiliatedBody.objects.filter(pk=body.pk).update(public_key=club_keys.b_public,
                                                     key_id=club_keys.b.key_id)
    migration.move_current_keys(apps, None)
    migration.move_current_keys(apps, None)  # twice: nothing more
    key = BodyKey.objects.get()
    assert (key.fingerprint, key.key_id, key.state, key.origin) == (
        club_keys.b.fingerprint, club_keys.b.key_id, "current", "recorded")



def test_talu_keygen_rotate_signs_with_the_newest_key(club_keys, tmp_path, capsys):
    """``talu keygen --rotate`` keeps the old key beside the new one (what it signed still
    verifies) and the newest signs; ``--public-key`` writes the file the keys page takes, and
    a file it cannot write is an error in words, exit 1."""
    assert keys.find_body_key(club_keys.ring, RID).fingerprint == club_keys.b.fingerprint
    assert keys.read_public_key(club_keys.b_public).fingerprint == club_keys.b.fingerprint
    ring = tmp_path / "ring"
    try:
        code = main(["keygen", "--keyring", str(ring), "--registrar-id", "GTF-X-1", "--name",
                     "X", "--public-key", str(tmp_path / "no" / "such" / "dir.asc")])
        err = capsys.readouterr().err
        assert code == 1 and "could not be written" in err and "Traceback" not in err
    finally:
        keys.stop_agent(ring)
