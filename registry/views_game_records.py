"""The downloads of a kept record of another game (issue 36): the signed record
(``/games/<id>/record.json``, checked by ``talu verify``) and the game's own notation
(``/games/<id>/notation.txt``), beside talu's record files (``/games/<id>/<kind>/<n>/``,
``registry.views.game_record``). Public, like those: a record is there to be checked."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from registry.game_records import file_text
from registry.models import SignedGameRecord


def _kept(game_id) -> SignedGameRecord | None:
    return SignedGameRecord.objects.filter(game__uuid=game_id).first()


def _none_kept(request, game_id) -> HttpResponse:
    return render(request, "error.html", {
        "title": "No record kept",
        "message": (f"No signed record is kept for game {game_id}. A game gets one when it "
                    "has finished; a talu game's records are its STGN, STGE, STSE and STDGS "
                    "files instead."),
    }, status=404)


def _download(text: str, content_type: str, filename: str) -> HttpResponse:
    resp = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


@require_safe
def signed_record(request, game_id):
    """The signed record of a finished game of another game, as a JSON file."""
    kept = _kept(game_id)
    if kept is None:
        return _none_kept(request, game_id)
    return _download(file_text(kept), "application/json", f"{game_id}.record.json")


@require_safe
def notation(request, game_id):
    """The game's own text notation, as its game package wrote it."""
    kept = _kept(game_id)
    if kept is None:
        return _none_kept(request, game_id)
    return _download(kept.notation, "text/plain", f"{game_id}.notation.txt")
