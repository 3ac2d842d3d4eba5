"""The tafl games' rules pages (issue 42): ``/rules/tafl/`` and ``/rules/tablut/`` answer with
their game's rules, each rule citing its ruling (RULINGS-TAFL.md, T1-T13), reachable from
talu's ``/rules/``; an unknown game is a 404. Their board diagrams carry OTN positions that
read as boards of their game (T1, T3: the openings' counts), with marks that fit them, and in
Chromium each draws as many squares and pieces as its position has, on a page that a phone
never pans sideways."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

#: The rulings each page must cite (small print beside the rule they decide).
CITED = {
    "tafl": ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T12", "T13"],
    "tablut": ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T9", "T10", "T11", "T12", "T13"],
}
TITLES = {"tafl": "How to play tafl", "tablut": "How to play Tablut"}
#: T3: the openings' defenders (without the king) and attackers by board side.
OPENING_COUNTS = {7: (4, 8), 9: (8, 16), 11: (12, 24)}
#: T5: Tablut's camps and throne.
CAMPS = {"d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5",
         "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8"}
THRONE = "e5"
MARKS = {"dest", "selected", "target", "last-path", "last-capture", "raichi", "enclosed"}
FILES = "abcdefghijklmnopqrs"


class _Figures(HTMLParser):
    """The page's tafl diagrams: each figure's attributes and its caption's text."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: list[dict[str, str]] = []
        self._caption = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure" and "tafl-diagram" in (a.get("class") or "").split():
            self.figures.append({**a, "caption": ""})
        elif tag == "figcaption" and self.figures:
            self._caption = True

    def handle_endtag(self, tag):
        if tag == "figcaption":
            self._caption = False

    def handle_data(self, data):
        if self._caption:
            self.figures[-1]["caption"] += data


def figures(html: str) -> list[dict[str, str]]:
    p = _Figures()
    p.feed(html)
    return p.figures


def read_otn(text: str) -> tuple[int, dict[str, str]]:
    """An OTN position record (T3's form: ranks from the top, digits for empty runs) as its
    side and {square: letter}; AssertionError for one that is not a square board."""
    assert text.startswith("/") and text.endswith("/"), text
    rows = text.strip("/").split("/")
    n = len(rows)
    pieces: dict[str, str] = {}
    for i, row in enumerate(rows):
        file = 0
        for token in re.findall(r"\d+|[tTK]|.", row):
            if token.isdigit():
                file += int(token)
                continue
            assert token in "tTK", f"{text}: {token!r} is no tafl piece"
            pieces[f"{FILES[file]}{n - i}"] = token
            file += 1
        assert file == n, f"{text}: rank {n - i} has {file} squares, not {n}"
    return n, pieces


def page(client, game: str) -> str:
    r = client.get(reverse("game_rules", args=[game]))
    assert r.status_code == 200
    return r.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["tafl", "tablut"])
def test_each_tafl_game_has_a_rules_page_citing_its_rulings(client, game):
    html = page(client, game)
    assert f"<title>{TITLES[game]} ·" in html and f"<h1>{TITLES[game]}</h1>" in html
    for t in CITED[game]:
        assert f'<small class="ruling">{t}</small>' in html, f"{game}: {t} not cited"
    # T2: who moves first, in the game's own words
    first = "attackers move first" if game == "tafl" else "defenders move first"
    assert first in html
    # the diagrams are drawn by the site's scripts; no inline script (the CSP forbids it)
    assert "games/tafl-board.js" in html and "games/tafl-diagrams.js" in html
    assert "<script>" not in html and "onclick" not in html
    assert len(figures(html)) >= 8


@pytest.mark.django_db
def test_the_rules_pages_are_reachable_and_an_unknown_game_is_a_404(client):
    talu = client.get(reverse("rules")).content.decode()
    assert 'href="/rules/tafl/"' in talu and 'href="/rules/tablut/"' in talu
    assert "How to play talu" in talu  # /rules/ stays talu's page
    assert 'href="/rules/tablut/"' in page(client, "tafl")
    assert 'href="/rules/tafl/"' in page(client, "tablut")
    for game in ("chess", "talu", "tafl2", "TAFL"):
        assert client.get(f"/rules/{game}/").status_code == 404, game


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["tafl", "tablut"])
def test_every_diagram_is_a_board_of_its_game_with_marks_that_fit(client, game):
    """Each position reads (T3's OTN form), on a board of the game (T1), with one king and no
    more pieces than the opening has; Tablut's keep off the throne and the camps as T5 says;
    marks name squares of the board that fit them (a dot on an empty square, a ring on a
    piece, a capture's cross on the square it emptied)."""
    for fig in figures(page(client, game)):
        n, pieces = read_otn(fig["data-otn"])
        where = f"{game} {fig['data-otn']}: {fig['caption'][:50]!r}"
        assert n in ((9,) if game == "tablut" else (7, 9, 11, 13, 15, 17, 19)), where
        assert list(pieces.values()).count("K") == 1, where
        defenders, attackers = OPENING_COUNTS.get(n, (4 * (n // 2 - 2), 8 * (n // 2 - 2)))
        assert list(pieces.values()).count("T") <= defenders, where
        assert list(pieces.values()).count("t") <= attackers, where
        assert (fig.get("data-tablut") == "1") == (game == "tablut"), where
        if game == "tablut":
            assert all(p == "t" for sq, p in pieces.items() if sq in CAMPS), where
            assert pieces.get(THRONE, "K") == "K", where
        marks = json.loads(fig.get("data-marks") or "{}")
        assert set(marks) <= MARKS, where
        squares = {f"{FILES[f]}{r}" for f in range(n) for r in range(1, n + 1)}
        for kind, listed in marks.items():
            assert set(listed) <= squares, (where, kind)
            for sq in listed:
                if kind in ("dest", "last-capture", "raichi"):
                    assert sq not in pieces, (where, kind, sq)
                if kind in ("selected", "target", "enclosed"):
                    assert sq in pieces, (where, kind, sq)
        assert len(marks.get("last-path", [])) in (0, 2), where
        for sq in marks.get("raichi", []):  # T11: the king's ways out are edge squares
            assert sq[0] in "ai" or sq[1:] in ("1", "9"), where


@pytest.mark.django_db
@pytest.mark.parametrize("game,sizes", [("tafl", (7, 9, 11)), ("tablut", (9,))])
def test_the_opening_diagrams_have_T3s_pieces(client, game, sizes):
    """T3: the king on the centre, 4(k - 2) defenders and 8(k - 2) attackers, k = (n - 1) / 2:
    4/8 on 7x7, 8/16 on 9x9, 12/24 on 11x11 (11x11 the default board, T1)."""
    html = page(client, game)
    shown = {}
    for fig in figures(html):
        if fig.get("data-testid", "").startswith("opening-"):
            n, pieces = read_otn(fig["data-otn"])
            shown[n] = pieces
            values = list(pieces.values())
            centre = f"{FILES[n // 2]}{n // 2 + 1}"
            assert pieces[centre] == "K"
            assert (values.count("T"), values.count("t")) == OPENING_COUNTS[n], n
            # the defenders on the king's rank and file, the attackers on the edge's middle
            assert all(sq[0] == centre[0] or sq[1:] == centre[1:]
                       for sq, p in pieces.items() if p == "T"), n
            assert pieces[f"{centre[0]}1"] == pieces[f"{centre[0]}{n}"] == "t"
    assert sorted(shown) == sorted(sizes)


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_the_diagrams_draw_and_a_phone_never_pans(live_site, browser, viewport):
    width, height = viewport
    ctx = browser.new_context(viewport={"width": width, "height": height})
    tab = ctx.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    for game in ("tafl", "tablut"):
        tab.goto(f"{live_site.base}/rules/{game}/")
        figs = tab.locator("figure.tafl-diagram")
        assert figs.count() >= 8
        for i in range(figs.count()):
            fig = figs.nth(i)
            n, pieces = read_otn(fig.get_attribute("data-otn"))
            marks = json.loads(fig.get_attribute("data-marks") or "{}")
            assert fig.locator(".board-frame[aria-hidden='true'] .tafl-board").count() == 1
            assert fig.locator(".sq").count() == n * n
            assert fig.locator(".sq:not([disabled])").count() == 0  # a picture, not a game
            assert fig.locator(".piece").count() == len(pieces)
            assert fig.locator(".piece.tafl-k").count() == 1
            assert fig.locator(".piece.tafl-a").count() == list(pieces.values()).count("t")
            for kind, squares in marks.items():
                assert fig.locator(f".sq.{kind}").count() == len(squares), (game, i, kind)
            if game == "tablut":
                assert fig.locator(".sq.camp").count() == len(CAMPS)
                assert fig.locator(f".sq.throne[data-square='{THRONE}']").count() == 1
            box = fig.locator(".tafl-board").bounding_box()
            assert box and box["width"] >= 200 and box["x"] >= 0, (game, i, box)
            assert box["x"] + box["width"] <= width, (game, i, box)
        wide = tab.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"/rules/{game}/ is {wide}px wide at {width}px"
    assert not errors, errors
    ctx.close()
