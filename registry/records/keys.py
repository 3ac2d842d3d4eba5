"""OpenPGP keyrings and the affiliated body's key (R33).

A *keyring* is a GnuPG home directory. Its location is configuration: the ``--keyring`` option
of the ``talu`` command, else the environment variable ``TALU_KEYRING``, else ``./var/keyring``
(:func:`default_keyring`); the Django side passes its own setting to the same functions.

The site's own affiliated-body key is created without a passphrase (``%no-protection``): the
server signs unattended, so a passphrase would have to be stored next to the key anyway, and
the protection of that key is the protection of the keyring directory (mode 0700). Every gpg
call runs with ``--batch`` and ``--pinentry-mode loopback`` so nothing ever prompts. Keys are
ed25519 (fast to make, small signatures, verified by every GnuPG since 2.1); ``rsa3072`` is
available for verifiers stuck on older OpenPGP software.

The key of an affiliated body carries its registrar id in the user id comment,
``Name (talu-registrar:GTF-HU-SZEGED-01) <email>``. That is how :func:`find_body_key` finds the
key to sign with, and how verification notices a body key signing in another body's name.

The OpenPGP implementation is stock GnuPG driven through ``python-gnupg``; see
:mod:`registry.records.signing` for why.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import gnupg

ENV_VAR = "TALU_KEYRING"
DEFAULT_KEYRING = Path("var") / "keyring"
REGISTRAR_MARK = "talu-registrar:"
ALGORITHMS = ("ed25519", "rsa3072")
GPG_OPTIONS = ["--pinentry-mode", "loopback", "--no-auto-key-retrieve", "--no-greeting"]

REGISTRAR_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
EMAIL_RE = re.compile(r"^[^@\s<>()\x00-\x1f]+@[^@\s<>()\x00-\x1f]+$")
_UID_MARK_RE = re.compile(r"\(" + re.escape(REGISTRAR_MARK) + r"([^)]*)\)")


class KeyringError(Exception):
    """A keyring or key problem, in words (missing keyring, unknown key, gpg failure)."""


def keyring_from(value: str | None, default: Path = DEFAULT_KEYRING) -> Path:
    """The keyring a configured value (``TALU_KEYRING``) names: the value trimmed, or
    ``default`` when it is unset or blank. ``ValueError`` when no keyring can be there: a
    control character in the path, or something there that is not a directory.

    The one reading of the variable: the ``talu`` command calls it through
    :func:`default_keyring` when it needs a keyring, and the site's settings when they load
    (``talu_site/settings.py``), so a bad value stops the site at start."""
    value = (value or "").strip()
    if not value:
        return default
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ValueError("has a control character in the path")
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise ValueError("is not a directory")
    return path


def default_keyring() -> Path:
    """``$TALU_KEYRING`` when set and not empty, else ``./var/keyring``; KeyringError when
    it cannot be a keyring (:func:`keyring_from`)."""
    try:
        return keyring_from(os.environ.get(ENV_VAR))
    except ValueError as exc:
        raise KeyringError(f"{ENV_VAR}={os.environ.get(ENV_VAR)!r} {exc}") from None


def key_id_of(fingerprint: str) -> str:
    """R33 ``key_id``: ``"0x"`` + the last 8 hex digits of the fingerprint, upper-case."""
    return "0x" + fingerprint[-8:].upper()


def registrar_of(uid: str) -> str | None:
    """The registrar id marked in a user id, or None."""
    m = _UID_MARK_RE.search(uid)
    return m.group(1) if m else None


@dataclass(frozen=True)
class KeyInfo:
    """A key in a keyring: primary fingerprint, user ids, creation time (unix seconds)."""

    fingerprint: str
    uids: tuple[str, ...] = ()
    created: int = 0
    subkey_fingerprints: tuple[str, ...] = ()

    @property
    def key_id(self) -> str:
        return key_id_of(self.fingerprint)

    @property
    def registrars(self) -> tuple[str, ...]:
        return tuple(r for r in (registrar_of(u) for u in self.uids) if r)

    def matches_key_id(self, key_id: str) -> bool:
        """True when ``key_id`` names the primary key or one of its subkeys."""
        fprs = (self.fingerprint, *self.subkey_fingerprints)
        return any(key_id_of(f) == key_id for f in fprs)


class Keyring:
    """A GnuPG home directory, used through python-gnupg in batch mode."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = False) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            if not create:
                raise KeyringError(
                    f"keyring {self.path} not found (give --keyring DIR or set {ENV_VAR})"
                )
            self.path.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            self.gpg = gnupg.GPG(gnupghome=str(self.path), options=list(GPG_OPTIONS))
        except (OSError, ValueError) as exc:
            raise KeyringError(f"cannot use gpg with keyring {self.path}: {exc}") from None

    def list_keys(self, *, secret: bool = False) -> list[KeyInfo]:
        out = []
        for k in self.gpg.list_keys(secret=secret):
            created = int(k.get("date") or 0)
            subs = tuple(fp for fp in (s[2] if len(s) > 2 else None for s in k.get("subkeys", []))
                         if fp)
            out.append(KeyInfo(k["fingerprint"], tuple(k.get("uids", ())), created, subs))
        return out

    def find(self, key: str, *, secret: bool = False) -> KeyInfo:
        """The key named by a fingerprint, a long key id or an R33 key_id ("0x1234ABCD")."""
        wanted = key.strip().upper()
        wanted = wanted[2:] if wanted.startswith("0X") else wanted
        if len(wanted) in (8, 16, 40, 64) and all(c in "0123456789ABCDEF" for c in wanted):
            for info in self.list_keys(secret=secret):
                fprs = (info.fingerprint, *info.subkey_fingerprints)
                if any(f.upper().endswith(wanted) for f in fprs):
                    return info
        kind = "secret key" if secret else "key"
        raise KeyringError(f"no {kind} {key} in keyring {self.path}")


_shared: dict[str, Keyring] = {}
_shared_lock = threading.Lock()


def shared_keyring(path: str | os.PathLike[str]) -> Keyring:
    """The process's one :class:`Keyring` for an existing directory, made on first use.

    python-gnupg runs ``gpg --version`` whenever a wrapper is made, so a signer that made its
    keyring afresh for every signature ran one gpg process more per record than signing needs
    (a live game's start and end each sign one, BENCHMARKS.md, issue 7). The wrapper holds
    nothing but the directory and gpg's version, and every call starts its own gpg process, so
    threads can share it."""
    key = os.path.abspath(os.fspath(path))
    with _shared_lock:
        ring = _shared.get(key)
    if ring is None:
        ring = Keyring(key)  # raises for a missing directory, which is then not remembered
        with _shared_lock:
            ring = _shared.setdefault(key, ring)
    return ring


def _check_text(value: str, what: str, forbidden: str = "<>()") -> str:
    value = value.strip()
    if not value:
        raise KeyringError(f"{what} must not be empty")
    if any(ord(ch) < 32 or ch in forbidden for ch in value):
        raise KeyringError(f"{what} must be one line without any of {forbidden}")
    return value


def create_key(
    keyring: str | os.PathLike[str] | Keyring,
    *,
    name: str,
    email: str | None = None,
    comment: str | None = None,
    algorithm: str = "ed25519",
) -> KeyInfo:
    """Create a signing key without passphrase in ``keyring`` (created when missing)."""
    ring = keyring if isinstance(keyring, Keyring) else Keyring(keyring, create=True)
    name = _check_text(name, "name")
    lines = []
    if algorithm == "ed25519":
        lines += ["Key-Type: eddsa", "Key-Curve: ed25519"]
    elif algorithm == "rsa3072":
        lines += ["Key-Type: RSA", "Key-Length: 3072"]
    else:
        raise KeyringError(f"unknown key algorithm {algorithm!r} (use {', '.join(ALGORITHMS)})")
    lines += ["Key-Usage: sign", f"Name-Real: {name}"]
    if comment:
        lines.append(f"Name-Comment: {_check_text(comment, 'comment')}")
    if email:
        email = email.strip()
        if not EMAIL_RE.match(email):
            raise KeyringError(f"not an e-mail address: {email!r}")
        lines.append(f"Name-Email: {email}")
    lines += ["Expire-Date: 0", "%no-protection", "%commit", ""]
    result = ring.gpg.gen_key("\n".join(lines))
    fingerprint = getattr(result, "fingerprint", None)
    if not fingerprint:
        detail = (result.stderr or "").strip().splitlines()[-1:] or ["no detail"]
        raise KeyringError(f"gpg could not create the key: {detail[0]}")
    return ring.find(fingerprint, secret=True)


def find_body_key(keyring: str | os.PathLike[str] | Keyring, registrar_id: str) -> KeyInfo:
    """The newest secret key of affiliated body ``registrar_id`` in ``keyring``."""
    ring = keyring if isinstance(keyring, Keyring) else Keyring(keyring)
    found = [k for k in ring.list_keys(secret=True) if registrar_id in k.registrars]
    if not found:
        raise KeyringError(f"no key for registrar {registrar_id} in keyring {ring.path}")
    return max(reversed(found), key=lambda k: k.created)  # same second: the last added


def create_body_key(
    keyring: str | os.PathLike[str],
    *,
    registrar_id: str,
    name: str,
    email: str | None = None,
    algorithm: str = "ed25519",
    rotate: bool = False,
) -> KeyInfo:
    """Create the signing key of affiliated body ``registrar_id`` (the CLI's ``talu keygen``).

    Refuses when the keyring already holds a key for that registrar, unless ``rotate``: key
    rotation is a deliberate act. The old key stays in the keyring (what it signed still
    verifies); the newest key is the one :func:`find_body_key` signs with. Returns the new
    key; its ``key_id`` is what goes into ``tail.signatures.affiliated_body.key_id``.
    """
    registrar_id = registrar_id.strip()
    if not REGISTRAR_RE.match(registrar_id):
        raise KeyringError(
            f"registrar id {registrar_id!r}: use letters, digits, '.', '_' and '-' "
            "(at most 64, e.g. GTF-HU-SZEGED-01)"
        )
    ring = Keyring(keyring, create=True)
    try:
        existing = find_body_key(ring, registrar_id)
    except KeyringError:
        existing = None
    if existing is not None and not rotate:
        raise KeyringError(
            f"keyring {ring.path} already has key {existing.key_id} for registrar {registrar_id}"
        )
    return create_key(ring, name=name, email=email, comment=f"{REGISTRAR_MARK}{registrar_id}",
                      algorithm=algorithm)


def export_public_key(keyring: str | os.PathLike[str] | Keyring, key: str) -> str:
    """The ASCII-armored public key, for other verifiers' keyrings."""
    ring = keyring if isinstance(keyring, Keyring) else Keyring(keyring)
    info = ring.find(key)
    return str(ring.gpg.export_keys(info.fingerprint))


def import_public_keys(keyring: str | os.PathLike[str] | Keyring, armored: str) -> list[str]:
    """Import public keys (e.g. a club's or a player's) into ``keyring``; their fingerprints."""
    ring = keyring if isinstance(keyring, Keyring) else Keyring(keyring, create=True)
    result = ring.gpg.import_keys(armored)
    if not result.fingerprints:
        raise KeyringError("no key could be imported")
    return list(dict.fromkeys(result.fingerprints))


# --- a body's key handed to the registry (issue 38: the clubs' keys page) -----------------------

PUBLIC_BEGIN = "-----BEGIN PGP PUBLIC KEY BLOCK-----"
PRIVATE_BEGIN = "-----BEGIN PGP PRIVATE KEY BLOCK-----"
MAX_PUBLIC_KEY = 100_000  # characters; an armoured ed25519 key is under 1 KB, rsa4096 ~3 KB


@dataclass(frozen=True)
class PublicKeyFile:
    """A checked public key: one primary key that can sign, neither expired nor revoked;
    ``armored`` is the key as GnuPG exports it again (what the registry keeps)."""

    fingerprint: str
    uids: tuple[str, ...]
    created: int
    armored: str
    subkey_fingerprints: tuple[str, ...] = ()

    @property
    def key_id(self) -> str:
        return key_id_of(self.fingerprint)

    @property
    def subkey_ids(self) -> tuple[str, ...]:
        return tuple(key_id_of(f) for f in self.subkey_fingerprints)

    @property
    def registrars(self) -> tuple[str, ...]:
        return tuple(r for r in (registrar_of(u) for u in self.uids) if r)


@contextlib.contextmanager
def scratch_keyring(prefix: str = "talu-scratch-") -> Iterator[Keyring]:
    """A GnuPG home that lives for one ``with`` block: its agent stopped, its files removed
    (a key checked or made for a body leaves nothing behind on the server)."""
    import shutil
    import tempfile

    home = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield Keyring(home / "ring", create=True)
    finally:
        stop_agent(home / "ring")
        shutil.rmtree(home, ignore_errors=True)


def _when(seconds: int) -> str:
    import time

    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def read_public_key(text: str, *, now: float | None = None) -> PublicKeyFile:
    """Check ``text`` as a body's public signing key; :class:`KeyringError` in words when it
    is not one: not ASCII-armoured OpenPGP, a secret key, several keys, expired, revoked, or a
    key that cannot sign. Nothing is kept anywhere (a scratch keyring)."""
    import time

    if not isinstance(text, str) or not text.strip():
        raise KeyringError("no public key given: paste or upload the ASCII-armoured public key "
                           f"(it begins with {PUBLIC_BEGIN})")
    if len(text) > MAX_PUBLIC_KEY:
        raise KeyringError(f"larger than {MAX_PUBLIC_KEY:,} characters: that is not one public "
                           "key")
    if PRIVATE_BEGIN in text:
        raise KeyringError("this is a SECRET key: upload only the public key (talu keygen "
                           "--public-key FILE, or gpg --armor --export), and keep the secret "
                           "key to yourself")
    if PUBLIC_BEGIN not in text:
        raise KeyringError("not an ASCII-armoured OpenPGP public key: it must begin with "
                           f"{PUBLIC_BEGIN}")
    now = time.time() if now is None else now
    with scratch_keyring("talu-key-check-") as ring:
        result = ring.gpg.import_keys(text)
        if not result.fingerprints:
            raise KeyringError("not a readable OpenPGP public key (GnuPG could not import it)")
        listed = ring.gpg.list_keys()
        if len(listed) != 1:
            raise KeyringError(f"holds {len(listed)} keys: upload one key")
        k = listed[0]
        fingerprint = str(k["fingerprint"])
        expires = int(k.get("expires") or 0)
        if k.get("trust") == "r":
            raise KeyringError(f"key {key_id_of(fingerprint)} is revoked: make a new one")
        if k.get("trust") == "e" or (expires and expires <= now):
            raise KeyringError(f"key {key_id_of(fingerprint)} expired"
                               f"{' on ' + _when(expires) if expires else ''}: make a new one "
                               "(or extend it with gpg --quick-set-expire) and upload it again")
        if "S" not in str(k.get("cap") or ""):
            raise KeyringError(f"key {key_id_of(fingerprint)} cannot sign (no usable signing "
                               "key in it): a body's key signs its records (R33)")
        armored = str(ring.gpg.export_keys(fingerprint))
        subkeys = ring.find(fingerprint).subkey_fingerprints
    return PublicKeyFile(fingerprint, tuple(k.get("uids", ())), int(k.get("date") or 0),
                         armored, subkeys)


def make_exportable_body_key(*, registrar_id: str, name: str, email: str | None = None,
                             algorithm: str = "ed25519") -> tuple[PublicKeyFile, str]:
    """A new body key made in a scratch keyring that is removed at once: (its public key,
    its ASCII-armoured secret key, without a passphrase, to hand to the body once)."""
    with scratch_keyring("talu-key-make-") as ring:
        info = create_body_key(ring.path, registrar_id=registrar_id, name=name, email=email,
                               algorithm=algorithm)
        public = str(ring.gpg.export_keys(info.fingerprint))
        secret = str(ring.gpg.export_keys(info.fingerprint, secret=True, passphrase="",
                                          expect_passphrase=False))
    if PRIVATE_BEGIN not in secret:
        raise KeyringError("gpg could not export the new secret key")
    return PublicKeyFile(info.fingerprint, info.uids, info.created, public,
                         info.subkey_fingerprints), secret


def stop_agent(keyring: str | os.PathLike[str]) -> None:
    """Stop the gpg-agent that signing started for this keyring (tests, short-lived homes)."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            ["gpgconf", "--homedir", str(keyring), "--kill", "gpg-agent"],
            check=False, capture_output=True, timeout=30,
        )
