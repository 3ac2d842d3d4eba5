"""Changing the registry's list of rated games, audited: annulment and correction (R30).

Each change takes the ledger's lock, changes the list (a game struck, a game's records
replaced by a verified correction), cascades every rating from the first game it touches
(``registry.ledger.recompute_from``) and writes its audit entry, in one transaction. The
ledger stays the one writer of ratings; this module is the one writer of the list's changes.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from registry.ledger import Progress, Summary, hold_lock, recompute_all, recompute_from
from registry.models import AuditEntry, GameRecord, RegistryGame
from registry.notices.sources import arbiter_decided
from registry.submission import SubmissionRejected, archive_records, verify_sessions


class GameStateConflict(ValueError):
    """The game's present state forbids the change (already annulled, not finished): the API
    answers 409. Its own class, so that no other ``ValueError`` from deep in a change is
    passed off as a conflict."""


def _audit(action: str, game: RegistryGame | None, reason: str, before: dict, after: dict,
           actor_user=None, actor_body=None) -> AuditEntry:
    return AuditEntry.objects.create(action=action, game=game, reason=reason, before=before,
                                     after=after, actor_user=actor_user, actor_body=actor_body)


def _game_facts(game: RegistryGame) -> dict[str, Any]:
    return {"status": game.status, "winner": game.winner, "reason": game.reason,
            "rounds": game.rounds, "revision": game.revision,
            "played_at": game.played_at.isoformat() if game.played_at else None}


def annul_game(game: RegistryGame, *, reason: str, actor_user=None,
               actor_body=None) -> Summary:
    """R30: the game is struck from the list; every rating from it on is recomputed."""
    if not reason or not reason.strip():
        raise ValueError("an annulment needs a reason")
    with transaction.atomic():
        hold_lock()
        game = RegistryGame.objects.select_for_update().get(pk=game.pk)
        if game.status == RegistryGame.ANNULLED:
            raise GameStateConflict("this game is already annulled")
        if game.status != RegistryGame.FINISHED:
            raise GameStateConflict("only a finished game can be annulled")
        before = _game_facts(game)
        game.status = RegistryGame.ANNULLED
        game.save(update_fields=["status", "updated"])
        summary = recompute_from(game)
        from registry.events.results import game_annulled

        game_annulled(game)  # an event game: unplayed in its event's standings (R39)
        _audit(AuditEntry.ANNUL, game, reason, before,
               {**_game_facts(game), **summary.as_dict()}, actor_user, actor_body)
        if game.live_id is not None:  # its players hear of it (issue 39), once committed
            live = game.live
            transaction.on_commit(lambda: arbiter_decided(live, {"type": "annul",
                                                                 "reason": reason}))
    return summary


def correct_game(game: RegistryGame, stse_texts: list[str], *, reason: str, actor_user=None,
                 actor_body=None) -> Summary:
    """A corrected set of session entries for the same game entry (verified like a
    submission, against the key of the body that holds the game); the old records are kept,
    marked superseded; ratings are recomputed from the earlier of the old and new dates."""
    if not reason or not reason.strip():
        raise SubmissionRejected(["a correction needs a reason"])
    with transaction.atomic():
        hold_lock()
        game = RegistryGame.objects.select_for_update().select_related("body").get(pk=game.pk)
        if game.status != RegistryGame.FINISHED:
            raise SubmissionRejected([f"only a finished game can be corrected (this one is "
                                      f"{game.status})"])
        stge = game.records.filter(kind=GameRecord.STGE, superseded=False).first()
        if stge is None:
            raise SubmissionRejected(["the game has no game entry to correct against"])
        checked = verify_sessions(game.body, stge.content, stse_texts)
        before = _game_facts(game)
        old_key = (game.played_at, game.pk)
        revision = game.revision + 1
        game.records.exclude(kind=GameRecord.STGE).filter(superseded=False).update(
            superseded=True)
        archive_records(game, checked, revision=revision, include_entry=False)
        game.winner, game.reason = checked.winner, checked.reason
        game.rounds, game.tally, game.stgn = checked.rounds, checked.tally, checked.stgn
        game.played_at, game.revision = checked.played_at, revision
        game.save()
        new_key = (game.played_at, game.pk)
        summary = recompute_from(game, start_key=min(old_key, new_key))
        _audit(AuditEntry.CORRECT, game, reason, before,
               {**_game_facts(game), **summary.as_dict()}, actor_user, actor_body)
    return summary


def audited_recompute_all(progress: Progress = None, *, actor_user=None) -> Summary:
    """:func:`recompute_all` with its audit entry (the management command's entry point)."""
    summary = recompute_all(progress)
    _audit(AuditEntry.RECOMPUTE, None, "full recompute", {}, summary.as_dict(), actor_user)
    return summary
