"""Keeping the record of a finished game of a game other than talu (issue 36).

Talu's games keep the book's records (``registry.archiving``). Every other game keeps its own
text notation and one signed record (``registry.records.game_record``: built, hashed and
signed there, with the site's key from ``registry.recordkeeping``); this module stores them
once per game (``SignedGameRecord``) and reads them back for the downloads.

Who calls :func:`keep_record`: whatever ends a game of another game, once it has the game's
seats, result and public events (the seat model's subscriber of "game finished"). It is
idempotent per game, and safe when two workers keep the same game at once: the second finds
the first's row (the one-to-one column is unique; ``get_or_create`` takes the row the other
wrote when its own insert is refused), so a game is never recorded twice, and the site's
signature is made outside any transaction (gpg holds no lock).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings

from play.models import Game
from registry import recordkeeping
from registry.models import SignedGameRecord
from registry.records import game_record
from registry.records.game_record import (
    GameFacts,
    RecordEvent,
    RecordResult,
    RecordSeat,
    public_events,
)
from registry.records.keys import key_id_of

__all__ = ["GameFacts", "KeepError", "RecordEvent", "RecordResult", "RecordSeat", "document",
           "file_text", "keep_record", "public_events"]


class KeepError(ValueError):
    """The facts name no game of the site, or a game whose records are the book's (talu)."""


def keep_record(facts: GameFacts) -> SignedGameRecord:
    """The kept record of the finished game ``facts.game_id`` (a ``play.Game``'s uuid): made,
    signed and stored at the first call, returned as it was at every later one (the facts of a
    later call are not compared: a kept record is never rewritten).

    Raises ``KeepError`` for an unknown game or a talu game, ``RecordError`` (every fault, with
    its field) when the facts do not make a valid record, ``KeyringError``-worded
    ``RecordError`` when the site's key cannot sign."""
    try:
        game = Game.objects.get(uuid=uuid.UUID(str(facts.game_id)))
    except (ValueError, Game.DoesNotExist):
        raise KeepError(f"no game {facts.game_id} on this site") from None
    kept = SignedGameRecord.objects.filter(game=game).first()
    if kept is not None:
        return kept
    if facts.game == "talu":
        raise KeepError("a talu game keeps the book's records (STGE, STSE, STDGS, STGN), "
                        "not a signed game record")
    doc = game_record.build_record(facts, site=settings.TALU_SITE_URL)
    signer = recordkeeping.site_signer()
    sealed = game_record.seal(doc, signer)
    block = sealed["tail"]["signatures"]["affiliated_body"]
    kept, _ = SignedGameRecord.objects.get_or_create(game=game, defaults={
        "notation": facts.notation,
        "canonical": game_record.canonical_bytes(sealed).decode("utf-8"),
        "hash": sealed["tail"]["hash"],
        "signature": block["signature"],
        "registrar_id": block["registrar_id"],
        "fingerprint": signer.key,
    })
    return kept


def document(kept: SignedGameRecord) -> dict[str, Any]:
    """The signed record of a kept one: its canonical content and its tail."""
    body = game_record.loads(kept.canonical)
    return game_record.signed_document(body, kept.hash, kept.registrar_id,
                                       key_id_of(kept.fingerprint), kept.signature)


def file_text(kept: SignedGameRecord) -> str:
    """The downloadable record file (``talu verify`` checks it)."""
    return game_record.dumps(document(kept))
