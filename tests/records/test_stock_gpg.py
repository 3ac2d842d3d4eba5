"""The signatures are plain OpenPGP: stock ``gpg --verify`` accepts them (R33)."""

from __future__ import annotations

import base64
import subprocess

import pytest

from registry.records import hashing


def gpg_verify(home, sig_bytes: bytes, data: bytes, tmp_path) -> subprocess.CompletedProcess:
    sig = tmp_path / "hash.sig"
    txt = tmp_path / "hash.txt"
    sig.write_bytes(sig_bytes)
    txt.write_bytes(data)
    return subprocess.run(
        ["gpg", "--homedir", str(home), "--batch", "--status-fd", "1", "--verify", str(sig),
         str(txt)],
        capture_output=True, text=True, timeout=60, check=False,
    )


def tails(real_game):
    yield real_game.game_doc["tail"]
    for doc in real_game.session_docs:
        yield doc["session"]["tail"]


def test_stock_gpg_verifies_every_signature(real_game, gpg_keys, tmp_path):
    for tail in tails(real_game):
        block = tail["signatures"]["affiliated_body"]
        raw = base64.b64decode(block["signature"])
        out = gpg_verify(gpg_keys.verifying, raw, tail["hash"].encode("utf-8"), tmp_path)
        assert out.returncode == 0, out.stderr
        assert f"VALIDSIG {gpg_keys.body.fingerprint}" in out.stdout
        assert gpg_keys.body.fingerprint.endswith(block["key_id"][2:])


def test_the_signed_bytes_are_the_hash_text_exactly(real_game, gpg_keys, tmp_path):
    tail = real_game.game_doc["tail"]
    raw = base64.b64decode(tail["signatures"]["affiliated_body"]["signature"])
    # with a trailing newline it is other data: gpg refuses
    out = gpg_verify(gpg_keys.verifying, raw, (tail["hash"] + "\n").encode(), tmp_path)
    assert out.returncode != 0
    assert "BADSIG" in out.stdout


def test_the_hash_gpg_checks_is_the_content_hash(real_game):
    assert real_game.game_doc["tail"]["hash"] == hashing.game_entry_hash(real_game.game_doc)


@pytest.mark.parametrize("index", [0, 1])
def test_signature_is_binary_not_armored(real_game, index):
    raw = base64.b64decode(
        real_game.session_docs[index]["session"]["tail"]["signatures"]["affiliated_body"]
        ["signature"])
    assert not raw.startswith(b"-----BEGIN")
    assert raw[0] & 0x80  # an OpenPGP packet header
