"""Keyrings and keys (R33 key_id, the affiliated body's key, configuration)."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry.records import keys
from registry.records.signing import Signer, sign_hash, verify_hash_signature


def test_key_id_is_the_last_8_hex_digits_upper_case():
    assert keys.key_id_of("d460e5d6fabce8947d1c6e2466f609a66921f46c") == "0x6921F46C"


def test_default_keyring(monkeypatch):
    monkeypatch.delenv("TALU_KEYRING", raising=False)
    assert keys.default_keyring() == Path("var/keyring")
    monkeypatch.setenv("TALU_KEYRING", "/srv/talu/keyring")
    assert keys.default_keyring() == Path("/srv/talu/keyring")
    monkeypatch.setenv("TALU_KEYRING", "  ")
    assert keys.default_keyring() == Path("var/keyring")


def test_a_keyring_path_that_cannot_be_one_is_refused(monkeypatch, tmp_path):
    """One reading of ``TALU_KEYRING`` for the ``talu`` command (here, when it needs a keyring)
    and the site (its settings, at start: tests/site/test_settings_at_start.py)."""
    a_file = tmp_path / "keyring"
    a_file.write_text("")
    monkeypatch.setenv("TALU_KEYRING", str(a_file))
    with pytest.raises(keys.KeyringError, match=r"TALU_KEYRING=.* is not a directory"):
        keys.default_keyring()
    with pytest.raises(ValueError, match="control character"):
        keys.keyring_from("var/key\nring")
    assert keys.keyring_from(" /srv/talu/keyring ", Path("x")) == Path("/srv/talu/keyring")
    assert keys.keyring_from(None, Path("x")) == Path("x")


def test_body_key_is_marked_with_its_registrar(gpg_keys):
    assert gpg_keys.body.registrars == ("GTF-HU-SZEGED-01",)
    assert gpg_keys.other.registrars == ()
    assert keys.find_body_key(gpg_keys.signing, "GTF-HU-SZEGED-01") == gpg_keys.body
    with pytest.raises(keys.KeyringError, match="no key for registrar GTF-NONE"):
        keys.find_body_key(gpg_keys.signing, "GTF-NONE")


def test_body_key_has_no_passphrase_and_signs_unattended(gpg_keys):
    """%no-protection + loopback pinentry: signing never prompts (this would hang otherwise)."""
    key_id, sig = sign_hash(Signer(gpg_keys.signing, gpg_keys.body.key_id), "ab" * 32)
    assert key_id == gpg_keys.body.key_id
    ring = keys.Keyring(gpg_keys.verifying)
    assert verify_hash_signature(ring, "ab" * 32, key_id, sig).ok


def test_find_by_key_id_or_fingerprint(gpg_keys):
    ring = keys.Keyring(gpg_keys.signing)
    body = gpg_keys.body
    assert ring.find(body.key_id) == ring.find(body.fingerprint.lower()) == body
    assert ring.find(body.key_id[2:].lower()) == ring.find(body.fingerprint[-16:]) == body
    with pytest.raises(keys.KeyringError, match="no key 0x00000000"):
        ring.find("0x00000000")
    with pytest.raises(keys.KeyringError, match="no key Szeged"):
        ring.find("Szeged")  # names are not key ids


def test_the_verifying_keyring_holds_public_keys_only(gpg_keys):
    ring = keys.Keyring(gpg_keys.verifying)
    assert [k.fingerprint for k in ring.list_keys()] == [gpg_keys.body.fingerprint]
    assert ring.list_keys(secret=True) == []
    with pytest.raises(keys.KeyringError, match="no secret key"):
        sign_hash(Signer(ring, gpg_keys.body.fingerprint), "ab" * 32)


def test_a_missing_keyring_is_not_created_by_reading(tmp_path):
    with pytest.raises(keys.KeyringError, match="not found"):
        keys.Keyring(tmp_path / "absent")
    assert not (tmp_path / "absent").exists()


def test_created_keyring_is_private(tmp_path):
    ring = keys.Keyring(tmp_path / "new", create=True)
    assert ring.path.stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("kwargs, fragment", [
    ({"name": ""}, "name must not be empty"),
    ({"name": "A\nKey-Type: RSA"}, "name must be one line"),
    ({"name": "Ok", "email": "a@b\n%commit"}, "not an e-mail"),
    ({"name": "Ok", "algorithm": "dsa"}, "unknown key algorithm"),
])
def test_key_parameters_are_checked(tmp_path, kwargs, fragment):
    with pytest.raises(keys.KeyringError, match=fragment):
        keys.create_key(tmp_path / "ring", **kwargs)


def test_import_of_garbage_fails(tmp_path):
    with pytest.raises(keys.KeyringError, match="no key could be imported"):
        keys.import_public_keys(tmp_path / "ring", "not a key")
