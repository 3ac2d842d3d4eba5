"""Talat's rules page (issue 37): ``/rules/talat/`` answers with Talat's rules, each citing
its ruling (RULINGS-TALAT.md A1-A12). Its "who beats whom" table is A5's relation exactly
(``play.games.talat.BEATS``); every diagram's marks are what the rules give in that position
(the selected tower's moves dotted, its captures ringed) and its frozen/not frozen says what
A7's test says; in Chromium the diagrams draw their towers and a phone never pans sideways."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from play.games.talat import BEATS, KINDS
from tests.talat.helpers import game, position

CITED = [f"A{n}" for n in range(1, 13)]


class _Page(HTMLParser):
    """The page's Talat diagrams (their attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "figure" and "talat-diagram" in a.get("class", ""):
            self.figures.append(a)


def _ticks(html: str) -> set[tuple[str, str]]:
    """The beats table's ticks as (row's tower, column's tower)."""
    table = html[html.index('data-testid="beats-table"'):]
    table = table[:table.index("</table>")]
    header = re.findall(r'<th scope="col">([SML][346])</th>', table)
    ticks = set()
    for row, cells in re.findall(r'<tr><th scope="row">([SML][346])</th>(.*?)</tr>', table):
        for column, cell in zip(header, re.findall(r"<td[^>]*>(.*?)</td>", cells), strict=True):
            if cell.strip() == "✓":
                ticks.add((row, column))
    return ticks


#: Towers on boards 23 and 31 that keep those boards in play (not frozen, A7), so that a
#: diagram's board 12 is judged in a game still going on.
ELSEWHERE = {"23:a1": "2:M6", "23:a5": "3:M3", "31:a1": "3:M6", "31:a5": "1:M3"}


def _page(client) -> tuple[str, _Page]:
    response = client.get("/rules/talat/")
    assert response.status_code == 200
    html = response.content.decode()
    parsed = _Page()
    parsed.feed(html)
    return html, parsed


@pytest.mark.django_db
def test_the_page_cites_every_ruling_and_is_reachable(client):
    html, _ = _page(client)
    assert "How to play Talat" in html
    for ruling in CITED:
        assert f'<small class="ruling">{ruling}</small>' in html, ruling
    assert "/rules/talat/" in client.get("/rules/").content.decode()  # talu's page links it


@pytest.mark.django_db
def test_the_beats_table_is_a5s_relation(client):
    html, _ = _page(client)
    ticks = _ticks(html)
    expected = {(KINDS[a], KINDS[b]) for a in range(9) for b in range(9) if BEATS[a * 9 + b]}
    assert ticks == expected
    assert ("S3", "L6") in ticks and ("L6", "S3") not in ticks
    assert not any(a[0] == "L" and b[0] == "S" for a, b in ticks)


@pytest.mark.django_db
def test_every_diagram_shows_what_the_rules_give(client):
    _, page = _page(client)
    assert len(page.figures) >= 6
    checked = 0
    for fig in page.figures:
        towers = {**json.loads(fig["data-towers"]), **ELSEWHERE}
        marks = json.loads(fig.get("data-marks") or "{}")
        if fig.get("data-frozen"):
            frozen = position(towers).frozen[0]  # board 12
            assert frozen == (fig["data-frozen"] == "yes"), fig["data-testid"]
            checked += 1
        if marks.get("selected"):
            [sq] = marks["selected"]
            board = sq.split(":")[0]
            actions = [a for a in game(towers).legal() if a.startswith(sq + "-")
                       or a.startswith(sq + "x")]
            moves = {f"{board}:{a[-2:]}" for a in actions if "-" in a}
            captures = {f"{board}:{a[-2:]}" for a in actions if "x" in a}
            assert moves == set(marks.get("dest", [])), fig["data-testid"]
            assert captures == set(marks.get("target", [])), fig["data-testid"]
            checked += 1
    assert checked >= 6
