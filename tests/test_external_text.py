"""``talu_site.text``: the one check of every string from outside (issue 27, finding 9)."""

from __future__ import annotations

import pytest

from talu_site import text


@pytest.mark.parametrize("value", ["Ann", "Zoë Smith", "李小龙", "a-b_c.d@e", "x" * 200])
def test_good_lines_pass(value):
    assert text.problem(value, max_length=200) is None


@pytest.mark.parametrize(("value", "words"), [
    ("a\x00b", "NUL"), ("\ud800", "surrogate"), ("evil\u202eexe", "bidirectional"),
    ("\u2066x", "bidirectional"), ("two\nlines", "single line"), ("a\u2028b", "single line"),
    ("a\tb", "control"), ("a\x1bb", "control"), ("x" * 201, "at most 200"), (5, "text"),
])
def test_bad_lines_say_what_is_wrong(value, words):
    assert words in text.problem(value, max_length=200)


def test_text_allows_line_breaks_and_tabs_but_no_other_control():
    assert text.problem("a: 1\n\tb: 2\r\n", multiline=True) is None
    assert "control" in text.problem("a\x07", multiline=True)
    assert "NUL" in text.problem("a\x00", multiline=True)
    assert text.problem("name: \u202eabc\n", multiline=True, allow_bidi=True) is None


def test_names_are_normalised_then_checked():
    assert text.clean_name("  Ann\u00a0\u00a0Lee  ") == "Ann Lee"
    assert text.clean_name("Zo\u0308e") == "Z\u00f6e"  # NFC: one spelling of ö
    for bad in ("", "   ", "a\nb", "a\u202eb", "x" * 201):
        with pytest.raises(text.TextError):
            text.clean_name(bad)


def test_client_address_believes_only_trusted_proxies():
    from talu_site.clientaddr import client_address, parse_networks

    proxies = parse_networks(["10.0.0.0/8", "::1"])
    assert client_address("203.0.113.5", "1.2.3.4", proxies) == "203.0.113.5"
    assert client_address("10.1.2.3", "1.2.3.4", proxies) == "1.2.3.4"
    assert client_address("10.1.2.3", "9.9.9.9, 1.2.3.4, 10.0.0.7", proxies) == "1.2.3.4"
    assert client_address("10.1.2.3", "junk", proxies) == "10.1.2.3"
    assert client_address("10.1.2.3", None, proxies) == "10.1.2.3"
    assert client_address("::1", "[2001:db8::1]:443", proxies) == "2001:db8::1"
    with pytest.raises(ValueError, match="nope"):
        parse_networks(["nope"])


def test_limits_count_an_ipv6_client_by_its_64_network():
    from talu_site.clientaddr import limit_key

    assert limit_key("2001:db8:1:2:aaaa::1") == limit_key("2001:db8:1:2:bbbb::9")
    assert limit_key("2001:db8:1:2::1") != limit_key("2001:db8:1:3::1")
    assert limit_key("198.51.100.7") == "198.51.100.7"
    assert limit_key("::ffff:198.51.100.7") == "198.51.100.7"
    assert limit_key("unknown") == "unknown"
