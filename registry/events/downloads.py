"""An event's standings and pairings as CSV files (issue 38: what arbiters expect of
Swiss-Manager: downloads a spreadsheet opens, beside the TRF and the printable page).

Thin and read-only: the rows are the event page's own (``standings.cached``, the rounds'
pairings), written with Python's ``csv``; a cell that a spreadsheet would read as a formula
(``=``, ``+``, ``-``, ``@`` first, OWASP's CSV injection) is quoted with a leading apostrophe,
since names come from players."""

from __future__ import annotations

import csv
import io

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404

from registry.events import standings
from registry.events.models import Event, Pairing
from registry.events.pairing.tiebreaks import LABELS, order

FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA):
        return "'" + value
    return value


def _csv(rows: list[list[object]], filename: str) -> HttpResponse:
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def standings_csv(request, event_id: int) -> HttpResponse:
    """``/events/<id>/standings.csv``: rank, player, points and the tie-breaks the page shows."""
    event = get_object_or_404(Event, pk=event_id)
    rows, _ = standings.cached(event)
    criteria = [c for c in order(event.system)
                if c != "victory_score" or event.scoring_model == "S3"]
    table: list[list[object]] = [["rank", "player", "points", *[LABELS[c] for c in criteria],
                                  "withdrew"]]
    for r in rows:
        table.append([r.rank, r.name, r.points, *[r.values.get(c, 0) for c in criteria],
                      "yes" if r.withdrawn else ""])
    return _csv(table, f"event-{event.pk}-standings.csv")


def pairings_csv(request, event_id: int, number: int) -> HttpResponse:
    """``/events/<id>/rounds/<n>/pairings.csv``: board, white, black, result (byes after)."""
    event = get_object_or_404(Event, pk=event_id)
    pairings = list(Pairing.objects.filter(round__event=event, round__number=number)
                    .select_related("white", "black").order_by("bye", "board"))
    if not pairings:
        raise Http404("no such round")
    table: list[list[object]] = [["board", "white", "black", "result"]]
    for p in pairings:
        if p.black_id is None:
            table.append(["", p.white.name, "", f"bye ({p.bye})"])
        else:
            table.append([p.board, p.white.name, p.black.name, p.result])
    return _csv(table, f"event-{event.pk}-round-{number}.csv")
