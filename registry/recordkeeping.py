"""The site's use of the records core (``registry.records``): its key, its signed records.

The site needs four things: its affiliated-body key in ``settings.TALU_KEYRING`` (created on
first use by ``keys.create_body_key``), a sealed and signed game entry (STGE) when a game starts,
a sealed and signed session entry (STSE) when the sitting ends (a live game is one sitting), and
the digital game slip (STDGS). Building, hashing (R32), signing (R33) and checking are the
records core's; this module only supplies the site's settings.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from registry.records import builders, keys, signing, yamlio
from registry.records import slip as slips

_key_lock = threading.Lock()
_site_key: dict[str, SiteKey] = {}


@dataclass(frozen=True)
class SiteKey:
    fingerprint: str
    key_id: str  # "0x" + last 8 hex digits, upper-case (R33)
    public_key: str


def site_key() -> SiteKey:
    """The site's affiliated-body signing key, created in the keyring on first use."""
    home = str(settings.TALU_KEYRING)
    with _key_lock:
        if home not in _site_key:
            ring = keys.Keyring(home, create=True)
            try:
                info = keys.find_body_key(ring, settings.TALU_REGISTRAR_ID)
            except keys.KeyringError:
                info = keys.create_body_key(home, registrar_id=settings.TALU_REGISTRAR_ID,
                                            name=settings.TALU_BODY_NAME)
            _site_key[home] = SiteKey(info.fingerprint, info.key_id,
                                      keys.export_public_key(ring, info.fingerprint))
        return _site_key[home]


def _signer() -> signing.Signer:
    return signing.Signer(str(settings.TALU_KEYRING), site_key().fingerprint,
                          registrar_id=settings.TALU_REGISTRAR_ID)


def site_signer() -> signing.Signer:
    """The site's key as a signer: every record the site keeps is signed by it (talu's entries
    here, other games' signed records in ``registry.game_records``)."""
    return _signer()


def game_entry(*, game_id: str, variant: str, players: dict, created: int,
               time_control: str | None = None) -> tuple[str, str]:
    """The signed STGE (book 6.5.2.1, R31; ``time_control``, R38): (YAML text, hash)."""
    doc = builders.build_game_entry(players=players, variant=variant, game_id=game_id,
                                    created=created, time_control=time_control)
    doc = builders.seal(doc, body=_signer())
    return yamlio.dump_yaml(doc), doc["tail"]["hash"]


def session_entry(*, game_entry: Mapping[str, Any], place: str, start: int, turns: list[str],
                  board: dict[str, list[str]], arbiter: list[dict],
                  clocks: dict[str, int] | None = None
                  ) -> tuple[str, str, dict[str, Any], Any]:
    """The signed STSE of the game's one sitting (book 6.5.2.2, R31, R34): (YAML, hash, the
    sealed document, the records core's replay of the game), from the parsed game entry
    (``read``).

    The records core checks the chain and replays the turns before building it. The document
    and that replay are returned beside the text so that the slip is built from them
    (``slip``), neither parsing the text again nor replaying the notation again: the site has
    just written both, and each was a large part of the cost of ending a game (BENCHMARKS.md,
    issue 7)."""
    doc, replayed = builders.next_session_entry_replayed(
        game_entry, [], place=place, time=start, turns=turns, board=board, arbiter=arbiter,
        clocks=clocks)
    doc = builders.seal(doc, body=_signer())
    return yamlio.dump_yaml(doc), doc["session"]["tail"]["hash"], doc, replayed


def session_entries(*, game_entry: Mapping[str, Any], place: str,
                    sittings: list[dict[str, Any]],
                    previous: list[Mapping[str, Any]] | None = None,
                    ) -> tuple[list[tuple[str, str, dict]], Any]:
    """The signed STSEs of the next sittings of a game (R38: an adjourned game), chained
    after the ``previous`` session entries already written, each ``sittings`` item ``{"start",
    "turns", "board", "arbiter", "clocks"}``: [(YAML, hash, document)] in order, and the
    records core's replay of the whole chain (for ``slip``)."""
    docs: list[Mapping[str, Any]] = list(previous or [])
    out = []
    replayed = None
    for sitting in sittings:
        doc, replayed = builders.next_session_entry_replayed(
            game_entry, docs, place=place, time=sitting["start"], turns=sitting["turns"],
            board=sitting["board"], arbiter=sitting["arbiter"], clocks=sitting.get("clocks"))
        doc = builders.seal(doc, body=_signer())
        docs.append(doc)
        out.append((yamlio.dump_yaml(doc), doc["session"]["tail"]["hash"], doc))
    return out, replayed


def read(text: str) -> dict[str, Any]:
    """A stored record's document (``yamlio.load_yaml``: a ``RecordError`` if it is broken)."""
    return yamlio.load_yaml(text)


def slip(game_entry: Mapping[str, Any], session_entries: list[Mapping[str, Any]],
         replayed: Any = None) -> str:
    """The STDGS (R35): game entry + sessions + the generated tally, from their documents
    (and ``replayed``, the records core's replay of exactly these, from ``session_entry``)."""
    return slips.slip_yaml(game_entry, session_entries, game=replayed)
