"""OpenPGP detached signatures over an entry's hash (R33).

What is signed: the UTF-8 bytes of ``tail.hash`` (64 lower-case hex characters, no newline).
What is stored: ``signature`` = base64 of the *binary* detached signature, ``key_id`` = "0x" +
the last 8 hex digits of the signing key's fingerprint, upper-case. Anyone can check a
signature with stock GnuPG::

    printf %s "$HASH" > hash.txt; base64 -d <<<"$SIG" > hash.sig
    gpg --verify hash.sig hash.txt

Why stock ``gpg`` through ``python-gnupg``:

* GnuPG is *the* reference verifier R33 names ("stock ``gpg --verify``"); signing with the same
  program removes any doubt that what we write is what verifiers accept, and keyrings are plain
  GnuPG home directories that operators already know how to back up, export and revoke.
* ``python-gnupg`` (Vinay Sajip) is a thin, pure-Python, dependency-free wrapper, maintained
  and released regularly (0.5.x); it shells out, so the cryptography is GnuPG's, security fixes
  arrive with the distribution's gnupg package.
* ``PGPy`` has had no release since 2023 and breaks with current ``cryptography`` releases: an
  unmaintained OpenPGP implementation is a liability for a signature format.
* ``pysequoia`` (Sequoia-PGP bindings) is well engineered, but is young, ships a Rust extension
  wheel per platform, and manages keys in its own way; it would add a second OpenPGP stack
  next to the ``gpg`` the verifiers use. Worth revisiting if gpg subprocesses become a cost.

Every call runs gpg in batch mode with loopback pinentry (see :mod:`registry.records.keys`),
so nothing prompts.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import tempfile
import threading
from dataclasses import dataclass

from .keys import KeyInfo, Keyring, KeyringError, key_id_of, shared_keyring

_NEWSIG = re.compile(r"^\[GNUPG:\] NEWSIG\b", re.M)


@dataclass(frozen=True)
class Signer:
    """Who signs: a keyring, a key in it (fingerprint or "0x" key_id) and, for an affiliated
    body, its ``registrar_id``."""

    keyring: str | os.PathLike[str] | Keyring
    key: str
    registrar_id: str | None = None

    def ring(self) -> Keyring:
        return (self.keyring if isinstance(self.keyring, Keyring)
                else shared_keyring(self.keyring))


@dataclass(frozen=True)
class SignatureCheck:
    """Result of checking one signature: ``ok``, and otherwise ``problem`` in words."""

    ok: bool
    problem: str = ""
    fingerprint: str | None = None  # the signing key's primary fingerprint when known


_signing_keys: dict[tuple[str, str], KeyInfo] = {}  # (keyring, key as named) -> the key
_signing_keys_lock = threading.Lock()


def _signing_key(ring: Keyring, key: str) -> KeyInfo:
    """The secret key ``key`` names in ``ring``, looked up once per process: listing the secret
    keys is a gpg process of its own, and the site signs with one key for every game's records
    (BENCHMARKS.md, issue 7). ``sign_hash`` forgets it when signing with it fails."""
    name = (str(ring.path), key)
    with _signing_keys_lock:
        info = _signing_keys.get(name)
    if info is None:
        info = ring.find(key, secret=True)
        with _signing_keys_lock:
            _signing_keys[name] = info
    return info


def sign_hash(signer: Signer, hash_text: str) -> tuple[str, str]:
    """Sign the UTF-8 bytes of ``hash_text``; return ``(key_id, base64 signature)``.

    Raises :class:`~registry.records.keys.KeyringError` when the key is missing or gpg fails.
    The new signature is checked before it is returned.

    Two gpg processes: the signature and its check (the keyring's wrapper and the key are the
    process's, ``shared_keyring`` and ``_signing_key``).
    """
    ring = signer.ring()
    info = _signing_key(ring, signer.key)
    data = hash_text.encode("utf-8")
    # --local-user fails when the key is missing (--default-key would fall back to another key).
    result = ring.gpg.sign(data, keyid=None, detach=True, binary=True, clearsign=False,
                           extra_args=["--local-user", info.fingerprint])
    raw = bytes(result.data or b"")
    if not raw or not getattr(result, "fingerprint", None):
        with _signing_keys_lock:  # the key may have gone since it was looked up: look again,
            _signing_keys.pop((str(ring.path), signer.key), None)  # and say so if it has
        ring.find(signer.key, secret=True)
        detail = (getattr(result, "stderr", "") or "").strip().splitlines()[-1:] or ["no detail"]
        raise KeyringError(f"gpg could not sign with {info.key_id}: {detail[0]}")
    check = verify_bytes(ring, data, raw)
    if not check.ok or check.fingerprint != info.fingerprint:
        raise KeyringError(f"the new signature by {info.key_id} does not verify: {check.problem}")
    return key_id_of(result.fingerprint), base64.b64encode(raw).decode("ascii")


def verify_bytes(ring: Keyring, data: bytes, signature: bytes) -> SignatureCheck:
    """Check a binary (or armored) detached ``signature`` over ``data`` against ``ring``."""
    fd, sig_path = tempfile.mkstemp(prefix="talu-sig-", suffix=".sig")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(signature)
        result = ring.gpg.verify_data(sig_path, data)
    finally:
        os.unlink(sig_path)
    status_text = getattr(result, "stderr", "") or ""
    count = len(_NEWSIG.findall(status_text))
    if count > 1:
        return SignatureCheck(False, f"holds {count} signatures; exactly one is expected")
    if result.valid and result.fingerprint:
        primary = getattr(result, "pubkey_fingerprint", None) or result.fingerprint
        return SignatureCheck(True, "", primary)
    status = result.status or "no signature found"
    if status == "no public key":
        short = key_id_of(result.key_id) if result.key_id else "unknown key"
        return SignatureCheck(False, f"made by key {short}, which is not in the keyring")
    if status == "signature bad":
        return SignatureCheck(False, "does not match the hash (bad signature)")
    if status in ("signature expected but not found", "unexpected data"):
        return SignatureCheck(False, "is not an OpenPGP signature")
    return SignatureCheck(False, f"is not valid ({status})")


def verify_hash_signature(
    ring: Keyring, hash_text: str, key_id: str, signature_b64: str
) -> SignatureCheck:
    """Check an R33 signature block: valid over ``hash_text``, by a key whose id is ``key_id``."""
    try:
        raw = base64.b64decode(signature_b64, validate=True)
    except (binascii.Error, ValueError):
        return SignatureCheck(False, "is not valid base64")
    check = verify_bytes(ring, hash_text.encode("utf-8"), raw)
    if not check.ok:
        return check
    try:
        info = ring.find(check.fingerprint or "")
    except KeyringError:
        return SignatureCheck(False, "made by a key that is not in the keyring")
    if not info.matches_key_id(key_id):
        return SignatureCheck(False, f"was made by key {info.key_id}, not by {key_id} as key_id "
                              "says", info.fingerprint)
    return SignatureCheck(True, "", info.fingerprint)
