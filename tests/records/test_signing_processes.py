"""What signing a record costs in gpg processes, and that the shortcuts behind it keep its errors.

A live game signs a record when it starts (STGE) and when it ends (STSE), on the server that is
playing it; each gpg process is a fork, an exec and a keyring read. A signature is two: the
signature and its check. The keyring's python-gnupg wrapper and the key to sign with are
looked up once per process (``keys.shared_keyring``, ``signing._signing_key``), and a key that
has gone since is still named in the error (BENCHMARKS.md, issue 7).
"""

from __future__ import annotations

import subprocess

import pytest

from registry.records import keys
from registry.records.signing import Signer, sign_hash, verify_hash_signature


@pytest.fixture
def gpg_runs(monkeypatch) -> list[list[str]]:
    """The gpg command lines started from now on."""
    runs: list[list[str]] = []
    real_init = subprocess.Popen.__init__

    def counting_init(self, args, *rest, **kwargs):
        argv = [args] if isinstance(args, str) else [str(a) for a in args]
        if argv and argv[0].rsplit("/", 1)[-1].startswith("gpg"):
            runs.append(argv)
        real_init(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", counting_init)
    return runs


def test_a_signature_is_two_gpg_processes_the_signature_and_its_check(gpg_keys, gpg_runs):
    signer = Signer(gpg_keys.signing, gpg_keys.body.fingerprint, registrar_id="GTF-HU-SZEGED-01")
    sign_hash(signer, "ab" * 32)  # the first may look the key up
    gpg_runs.clear()
    key_id, signature = sign_hash(signer, "cd" * 32)
    assert len(gpg_runs) == 2, gpg_runs
    assert any("--detach-sign" in run for run in gpg_runs)
    assert any("--verify" in run for run in gpg_runs)
    ring = keys.Keyring(gpg_keys.verifying)
    assert verify_hash_signature(ring, "cd" * 32, key_id, signature).ok


def test_one_keyring_wrapper_per_directory(gpg_keys, gpg_runs):
    first = keys.shared_keyring(gpg_keys.signing)
    gpg_runs.clear()
    assert keys.shared_keyring(str(gpg_keys.signing)) is first
    assert gpg_runs == []  # no second ``gpg --version``


def test_a_missing_directory_is_refused_and_not_remembered(tmp_path):
    with pytest.raises(keys.KeyringError, match="not found"):
        keys.shared_keyring(tmp_path / "later")
    keys.Keyring(tmp_path / "later", create=True)
    assert keys.shared_keyring(tmp_path / "later").path == tmp_path / "later"


def test_a_key_deleted_after_it_signed_is_named_in_the_error(tmp_path):
    home = tmp_path / "ring"
    info = keys.create_key(home, name="Short Lived")
    try:
        signer = Signer(home, info.fingerprint)
        sign_hash(signer, "ab" * 32)  # looked up and remembered
        ring = keys.Keyring(home)
        deleted = ring.gpg.delete_keys(info.fingerprint, secret=True, expect_passphrase=False)
        assert str(deleted) == "ok", deleted.stderr
        with pytest.raises(keys.KeyringError, match=f"no secret key {info.fingerprint}"):
            sign_hash(signer, "cd" * 32)
    finally:
        keys.stop_agent(home)
