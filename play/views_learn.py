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

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, select_template

from play.games.protocol.parts import Lessons
from play.games.registry import DEFAULT_GAME, parts_of, titles


def _lessons() -> Lessons:
    lessons = parts_of(DEFAULT_GAME).lessons
    if lessons is None:
        raise Http404("no lessons here")
    return lessons


def rules(request):
    return render(request, "learn/rules.html", {"lessons": _lessons().items})


def game_rules(request, game: str):
    """``/rules/<game>/``: a game of the catalogue's rules page, its template
    ``learn/rules_<game>.html`` (issue 42); the site's own game is ``/rules/``, and a game
    without a page, or no game at all, is a 404, not a 500."""
    if game == DEFAULT_GAME or game not in titles():
        raise Http404("no rules page for this game")
    try:
        template = get_template(f"learn/rules_{game}.html")
    except TemplateDoesNotExist:
        raise Http404("no rules page for this game") from None
    return HttpResponse(template.render({}, request))


def _other_games() -> list[tuple[str, str, Lessons]]:
    """(key, title, lessons) of every game but the site's own that has lessons (issue 42)."""
    return [(key, title, lessons) for key, title in titles().items()
            if key != DEFAULT_GAME and (lessons := parts_of(key).lessons) is not None]


def lesson_list(request):
    return render(request, "learn/lessons.html", {"lessons": _lessons().items,
                                                  "other_games": _other_games()})


def _lesson(slug: str) -> tuple[str, Lessons, Any]:
    """The game, its lessons and the lesson called ``slug`` (slugs are unique across the
    games: talu's are bare, the others' start with their game's key)."""
    for game, lessons in ((DEFAULT_GAME, _lessons()),
                          *((key, ls) for key, _, ls in _other_games())):
        lesson = lessons.by_slug(slug)
        if lesson is not None:
            return game, lessons, lesson
    raise Http404("no such lesson")


def lesson_page(request, slug: str):
    game, lessons, lesson = _lesson(slug)
    index = lessons.items.index(lesson)
    nxt = lessons.items[index + 1] if index + 1 < len(lessons.items) else None
    renderer = parts_of(game).renderer or game
    template = select_template([f"games/{renderer}/lesson.html", "learn/lesson.html"])
    return render(request, template.template.name, {"game": game, "title": titles()[game],
        "lesson": lesson, "next": nxt, "number": index + 1, "count": len(lessons.items),
        "initial": lessons.initial(lesson),
    })


def lesson_try(request, slug: str):
    """GET ``?steps=<JSON list of steps>``: the attempt checked by the rules core. A read with
    no effect (nothing is stored), so a GET; bad input gets a 400 with words."""
    _, lessons, lesson = _lesson(slug)
    try:
        steps = json.loads(request.GET.get("steps") or "[]")
    except (ValueError, RecursionError):  # nested past the decoder's limit: junk too
        return JsonResponse({"error": "steps must be a JSON list of steps"}, status=400)
    if not isinstance(steps, list):
        return JsonResponse({"error": "steps must be a JSON list of steps"}, status=400)
    return JsonResponse(lessons.attempt(lesson, steps))
