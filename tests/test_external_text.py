"""``play.games.text``: the one check of every string from outside (issue 27, finding 9)."""

from __future__ import annotations

import pytest

from play.games import text


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


# Emoji joined by U+200D and varied by U+FE0F are ordinary text (issue 41, finding 11); the
# same invisible characters elsewhere hide something and stay refused.
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # man, woman, girl: a family
RAINBOW = "\U0001F3F3\ufe0f\u200d\U0001F308"  # white flag, emoji, rainbow: the rainbow flag
TECHNOLOGIST = "\U0001F9D1\U0001F3FD\u200d\U0001F4BB"  # a person with a skin tone, a laptop
HEART_ON_FIRE = "\u2764\ufe0f\u200d\U0001F525"
HEAD_SHAKING = "\U0001F642\u200d\u2194\ufe0f"  # the arrow is a math symbol (Sm)
KEYCAP_ONE = "1\ufe0f\u20e3"
SCOTLAND = "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000E007F"
SINHALA_SRI = "\u0dc1\u0dca\u200d\u0dbb\u0dd3"  # a conjunct: the joiner after the virama
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # the non-joiner inside a word
KUZUHA = "\u845b\U000E0100\u8449"  # a surname with the ideographic variant of its first sign


@pytest.mark.parametrize("value", [
    f"{FAMILY} Smith", f"Pride {RAINBOW}", TECHNOLOGIST, f"on {HEART_ON_FIRE}", HEAD_SHAKING,
    f"table {KEYCAP_ONE}", f"Team {SCOTLAND}", f"{FAMILY}{RAINBOW}", "\u2764\ufe0f",
    SINHALA_SRI, PERSIAN, KUZUHA,
])
def test_emoji_and_scripts_that_join_are_text(value):
    assert text.problem(value, max_length=200) is None
    assert text.clean_name(f"  {value} ") == value  # a name keeps them as written


@pytest.mark.parametrize(("value", "words"), [
    ("ad\u200dmin", "joiner U+200D"),  # two names that look alike
    ("bob\u200d", "joiner U+200D"), ("\u200dbob", "joiner U+200D"),
    ("\U0001F468\u200d", "joiner U+200D"), ("\U0001F468\u200d bob", "joiner U+200D"),
    ("a\u200cb", "joiner U+200C"), ("\u062e\u200c", "joiner U+200C"),
    ("bob\ufe0f", "variation selector U+FE0F"), ("\ufe0fbob", "variation selector U+FE0F"),
    ("\U0001F600\ufe0f\ufe0f", "variation selector U+FE0F"),
    ("\u00e9\ufe0f", "variation selector U+FE0F"),
    ("\U0001F600\U000E0100\U000E0141\U000E0142", "variation selector U+E0141"),  # smuggled
    ("ann\ufe00", "variation selector U+FE00"),
    ("\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in "admin") + "\U000E007F",
     "control character U+E0061"),  # tags that spell a word, not a flag
    ("x\U000E0061", "control character U+E0061"),
])
def test_joiners_and_selectors_that_would_hide_text_are_refused(value, words):
    assert words in text.problem(value, max_length=200)
    with pytest.raises(text.TextError):
        text.clean_name(value)


def test_records_text_is_unchanged_by_the_emoji_rules():
    """Multi-line text (record files) refuses control characters only, as before."""
    assert text.problem(f"name: {FAMILY}\nnote: bob\u200d\n", multiline=True) is None
