"""Fixtures of the records tests: two keys made once per run, a real game's records.

Key generation is the slow part, so a session-scoped fixture makes, in one temp directory:
``signing`` (a GnuPG home with the secret keys of the affiliated body GTF-HU-SZEGED-01 and of
a second key, "Mallory", who also acts as player I's key) and ``verifying`` (a home holding the
*public* body key only, as a third party verifying records would have it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from registry.records import keys, signing

from .helpers import REAL_GAME, RealGame, canonical_lines, record_game, write_real_game

REGISTRAR = "GTF-HU-SZEGED-01"


@dataclass(frozen=True)
class Keys:
    signing: Path  # secret keys: body and other
    verifying: Path  # public body key only
    body: keys.KeyInfo
    other: keys.KeyInfo

    @property
    def body_signer(self) -> signing.Signer:
        return signing.Signer(self.signing, self.body.fingerprint, registrar_id=REGISTRAR)

    @property
    def other_signer(self) -> signing.Signer:
        return signing.Signer(self.signing, self.other.fingerprint, registrar_id=REGISTRAR)


@pytest.fixture(scope="session")
def gpg_keys(tmp_path_factory: pytest.TempPathFactory) -> Keys:
    base = tmp_path_factory.mktemp("gnupg")
    ring = base / "signing"
    body = keys.create_body_key(ring, registrar_id=REGISTRAR, name="Szeged Talu Club",
                                email="club@example.org")
    other = keys.create_key(ring, name="Mallory Other", email="mallory@example.org")
    verifying = base / "verifying"
    keys.import_public_keys(keys.Keyring(verifying, create=True),
                            keys.export_public_key(ring, body.fingerprint))
    yield Keys(ring, verifying, body, other)
    keys.stop_agent(ring)
    keys.stop_agent(verifying)


@pytest.fixture(scope="session")
def real_docs(gpg_keys: Keys) -> tuple[dict, list[dict]]:
    """legal-003 (standard, 26 rounds, I wins by invasion): the sealed, body-signed STGE and
    its two STSE (20 turn lines, then the rest), made once."""
    return record_game(canonical_lines(REAL_GAME), [20], gpg_keys.body_signer)


@pytest.fixture
def real_game(tmp_path: Path, gpg_keys: Keys, real_docs) -> RealGame:
    """The real game's records written as game.yaml, session-1.yaml, session-2.yaml."""
    return write_real_game(tmp_path, gpg_keys.body_signer, docs=real_docs)
