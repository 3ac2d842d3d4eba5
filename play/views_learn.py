"""The rules page and the interactive lessons (issue 24): a newcomer learns the site's game.

Thin: the lessons and their checking are the game's own (its ``GameParts.lessons``, asked of
the catalogue for the site's game, ``play.games.registry.DEFAULT_GAME``); the rules page is a
template whose diagrams the site's own board script draws (``static/play/diagrams.js``). The
other games' rules pages (issue 42: tafl and Tablut) are templates too, ``rules_<game>.html``,
their diagrams drawn by ``static/games/tafl-diagrams.js``.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, JsonResponse
from django.shortcuts import render

from play.games.protocol.parts import Lessons
from play.games.registry import DEFAULT_GAME, parts_of


def _lessons() -> Lessons:
    lessons = parts_of(DEFAULT_GAME).lessons
    if lessons is None:
        raise Http404("no lessons here")
    return lessons


def rules(request):
    return render(request, "learn/rules.html", {"lessons": _lessons().items})


#: The games with a rules page of their own, ``templates/learn/rules_<game>.html`` (issue 42).
GAME_RULES_PAGES = ("tafl", "tablut")


def game_rules(request, game: str):
    """``/rules/<game>/``: a game's rules page; a game without one is a 404, not a 500."""
    if game not in GAME_RULES_PAGES:
        raise Http404("no rules page for this game")
    return render(request, f"learn/rules_{game}.html")


def lesson_list(request):
    return render(request, "learn/lessons.html", {"lessons": _lessons().items})


def _lesson(slug: str) -> tuple[Lessons, Any]:
    lessons = _lessons()
    lesson = lessons.by_slug(slug)
    if lesson is None:
        raise Http404("no such lesson")
    return lessons, lesson


def lesson_page(request, slug: str):
    lessons, lesson = _lesson(slug)
    index = lessons.items.index(lesson)
    nxt = lessons.items[index + 1] if index + 1 < len(lessons.items) else None
    return render(request, "learn/lesson.html", {
        "lesson": lesson, "next": nxt, "number": index + 1, "count": len(lessons.items),
        "initial": lessons.initial(lesson),
    })


def lesson_try(request, slug: str):
    """GET ``?steps=<JSON list of steps>``: the attempt checked by the rules core. A read with
    no effect (nothing is stored), so a GET; bad input gets a 400 with words."""
    lessons, lesson = _lesson(slug)
    try:
        steps = json.loads(request.GET.get("steps") or "[]")
    except (ValueError, RecursionError):  # nested past the decoder's limit: junk too
        return JsonResponse({"error": "steps must be a JSON list of steps"}, status=400)
    if not isinstance(steps, list):
        return JsonResponse({"error": "steps must be a JSON list of steps"}, status=400)
    return JsonResponse(lessons.attempt(lesson, steps))
