"""Registry tests: Django set up as for the site tests (whose fixtures are reused), plus the
affiliated bodies' signing keys, made once per test session (gpg key generation is slow).

``body_keys`` holds the secret keys of two bodies (Szeged, Pécs) and of a stranger; the
``body`` / ``other_body`` fixtures are their registry rows with the public keys on file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tests.keyring import use_session_keyring

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
os.environ["TALU_KEYRING"] = use_session_keyring()

import django
import pytest

django.setup()

from registry.records import keys, signing  # noqa: E402
from tests.site.conftest import (  # noqa: E402,F401  (reused fixtures)
    _fresh_process_caches,
    make_user,
    players,
)

SZEGED = "GTF-HU-SZEGED-01"
PECS = "GTF-HU-PECS-01"


@dataclass(frozen=True)
class BodyKeys:
    home: Path
    szeged: keys.KeyInfo
    pecs: keys.KeyInfo
    stranger: keys.KeyInfo

    def signer(self, which: str = "szeged", registrar_id: str = SZEGED) -> signing.Signer:
        info = getattr(self, which)
        return signing.Signer(self.home, info.fingerprint, registrar_id=registrar_id)

    def public(self, which: str) -> str:
        return keys.export_public_key(self.home, getattr(self, which).fingerprint)


@pytest.fixture(scope="session")
def body_keys(tmp_path_factory: pytest.TempPathFactory) -> BodyKeys:
    home = tmp_path_factory.mktemp("bodies") / "ring"
    szeged = keys.create_body_key(home, registrar_id=SZEGED, name="Szeged Talu Club",
                                  email="club@example.org")
    pecs = keys.create_body_key(home, registrar_id=PECS, name="Pecs Talu Club",
                                email="pecs@example.org")
    stranger = keys.create_key(home, name="Mallory Other", email="mallory@example.org")
    yield BodyKeys(home, szeged, pecs, stranger)
    keys.stop_agent(home)


@pytest.fixture
def body(db, body_keys: BodyKeys):
    from registry.models import AffiliatedBody

    return AffiliatedBody.objects.create(registrar_id=SZEGED, name="Szeged Talu Club",
                                         stratum=1, key_id=body_keys.szeged.key_id,
                                         public_key=body_keys.public("szeged"))


@pytest.fixture
def other_body(db, body_keys: BodyKeys):
    from registry.models import AffiliatedBody

    return AffiliatedBody.objects.create(registrar_id=PECS, name="Pecs Talu Club", stratum=1,
                                         key_id=body_keys.pecs.key_id,
                                         public_key=body_keys.public("pecs"))


@pytest.fixture
def otb_players(db, body):
    """Two over-the-board players registered by the Szeged body (no site accounts)."""
    from tests.registry.helpers import make_player

    return make_player("Marcus Tarell", body=body), make_player("Alice Vorin", body=body)
