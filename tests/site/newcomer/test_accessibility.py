"""axe-core in Chromium on the pages a newcomer meets (issue 24): home, rules, a lesson, a game,
a profile, the lobby and the list of one's games, on a desktop and a phone, with no serious or
critical violation.

axe-core (MPL-2.0) is vendored in ``vendor/axe.min.js`` (version 4.10.2, from the npm package
``axe-core``): nothing is fetched from the internet at test time. It is injected into a context
that bypasses the page's Content-Security-Policy (the site forbids inline scripts; the test's
own script is not the site's).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.site.newcomer.conftest import VIEWPORTS, live, login

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SERIOUS = ("serious", "critical")


def violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in SERIOUS]


def described(found: list[dict]) -> str:
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']} at "
                     + ", ".join(str(n["target"]) for n in v["nodes"][:5]) for v in found)


@VIEWPORTS
def test_no_serious_accessibility_violation(newcomer_site, browser, viewport):
    ctx = browser.new_context(viewport=viewport, bypass_csp=True)
    try:
        page = ctx.new_page()
        base = newcomer_site.base
        found = {}
        for path in ("/", "/rules/", "/learn/", "/learn/chain/", "/leaderboard/"):
            page.goto(base + path)
            found["visitor " + path] = violations(page)
        page.get_by_role("link", name="Lobby").click()
        page.get_by_test_id("demo-game").click()
        live(page)
        found["visitor game"] = violations(page)
        login(page, newcomer_site, "alice")
        found["lobby"] = violations(page)
        page.get_by_test_id("me").click()
        found["profile"] = violations(page)
        page.get_by_role("link", name="My games").click()
        found["my games"] = violations(page)
        game = newcomer_site.game()
        page.goto(f"{base}/games/{game}/")
        live(page)
        page.click('[data-square="A2"]')  # a selection and its highlighted moves
        found["game, playing"] = violations(page)
        bad = {where: described(v) for where, v in found.items() if v}
        assert not bad, "\n".join(f"{w}:\n{t}" for w, t in bad.items())
    finally:
        ctx.close()
