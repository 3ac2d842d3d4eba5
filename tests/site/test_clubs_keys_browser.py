"""In real headless Chromium (issue 38): a club's registrar makes its signing key and an API
token on a phone, under the live site's own Content-Security-Policy (``live_site``). The rest
of keys and tokens is tested without a browser (test_clubs_keys.py, test_clubs_tokens.py)."""

from __future__ import annotations

import pytest

from registry.records import keys
from tests.site.livesite import unique
from tests.site.test_browser import sign_up
from tests.site.test_events_browser import shot

pytestmark = pytest.mark.browser


def test_in_chromium_a_registrar_generates_a_key_and_makes_a_token_on_a_phone(live_site,
                                                                              browser):
    """The pages under the site's own Content-Security-Policy, on a phone: the secret key is
    shown once and downloads from its link; the token is shown once; nothing is wider than
    the phone."""
    base = live_site.base
    (name,) = unique("keys")
    rid = f"GTF-KEYS-{name.upper()}"
    page = browser.new_context(viewport={"width": 390, "height": 844},
                               accept_downloads=True).new_page()
    sign_up(page, base, name)
    live_site.shell("from django.contrib.auth import get_user_model\n"
                    "from registry import jobs\n"
                    f"b = jobs.new_body({rid!r}, name='Keys Club', stratum=1)\n"
                    f"b.registrars.add(get_user_model().objects.get(username={name!r}))")
    page.goto(f"{base}/clubs/{rid}/")
    page.click("[data-testid=manage-keys]")
    page.click("form[data-testid=generate-key] button")
    assert "shown this once" in page.inner_text("[data-testid=secret-once]")
    assert keys.PRIVATE_BEGIN in page.input_value("[data-testid=secret-key]")
    with page.expect_download() as download:
        page.click("[data-testid=secret-download]")
    assert download.value.suggested_filename.endswith("-secret.asc")
    assert page.evaluate("document.documentElement.scrollWidth") <= 391
    shot(page, "clubs-key-secret-phone")
    page.click("text=Back to the keys and tokens")
    assert "current" in page.inner_text("[data-testid=keys]")
    page.fill("form[data-testid=new-token] input[name=label]", "club laptop")
    page.click("form[data-testid=new-token] button")
    assert page.inner_text("[data-testid=token]").startswith("talu_")
    assert page.evaluate("document.documentElement.scrollWidth") <= 391
    page.click("text=Back to the keys and tokens")
    assert "club laptop" in page.inner_text("[data-testid=tokens]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 391
    shot(page, "clubs-keys-phone")
