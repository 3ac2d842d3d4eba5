"""The rules page and the interactive lessons (issue 24): a newcomer learns talu on the site.

Thin: the lessons and their checking are the rules core's (``play.games.talu.lessons``); the
rules page is a template whose diagrams the site's own board script draws
(``static/play/diagrams.js``).
"""

from __future__ import annotations

import json

from django.http import Http404, JsonResponse
from django.shortcuts import render

from play.games.talu import lessons
from play.games.talu.lessons import BY_SLUG, LESSONS


def rules(request):
    return render(request, "learn/rules.html", {"lessons": LESSONS})


def lesson_list(request):
    return render(request, "learn/lessons.html", {"lessons": LESSONS})


def _lesson(slug: str) -> lessons.Lesson:
    lesson = BY_SLUG.get(slug)
    if lesson is None:
        raise Http404("no such lesson")
    return lesson


def lesson_page(request, slug: str):
    lesson = _lesson(slug)
    index = LESSONS.index(lesson)
    nxt = LESSONS[index + 1] if index + 1 < len(LESSONS) else None
    start = lessons.attempt(lesson, [])
    return render(request, "learn/lesson.html", {
        "lesson": lesson, "next": nxt, "number": index + 1, "count": len(LESSONS),
        "initial": {"slug": lesson.slug, "side": lesson.side, "state": start["state"],
                    "targets": list(lesson.targets)},
    })


def lesson_try(request, slug: str):
    """GET ``?steps=<JSON list of steps>``: the attempt checked by the rules core. A read with
    no effect (nothing is stored), so a GET; bad input gets a 400 with words."""
    lesson = _lesson(slug)
    try:
        steps = json.loads(request.GET.get("steps") or "[]")
    except (ValueError, RecursionError):  # nested past the decoder's limit: junk too
        return JsonResponse({"error": "steps must be a JSON list of steps"}, status=400)
    if not isinstance(steps, list):
        return JsonResponse({"error": "steps must be a JSON list of steps"}, status=400)
    return JsonResponse(lessons.attempt(lesson, steps))
