"""Records read back as the same types under YAML 1.1 (PyYAML) and YAML 1.2 readers."""

from __future__ import annotations

import re

import pytest
import yaml

from registry.records.errors import RecordError
from registry.records.yamlio import dump_yaml, load_yaml, needs_quotes

TRICKY = ["on", "On", "ON", "off", "yes", "Yes", "no", "NO", "y", "Y", "n", "N", "true",
          "False", "012", "0o12", "0x1F", "0b101", "1_000", "1.0", "2.0.0", "1e3", "1E-3",
          ".5", "+1", "-1", "-.inf", ".inf", ".NaN", "null", "Null", "NULL", "~", "", "1:20",
          "190:20:30", "2024-01-01", "2001-12-14t21:59:43.10-05:00", "<<", "=", "0", "O", "I",
          "player_0", "!: I", "001 I: A1-B1", "007", "12345", "c8b7e901-4e90-4a1b-9c2d",
          "be2d0fd7", "1234e567", "- x", "# not a comment", "a: b", "Szeged, Hungary",
          "Zoë Ångström", "x" * 300]


# --- what a YAML 1.2 (core schema) and a full YAML 1.1 reader make of a plain scalar --------

_CORE12 = [
    ("null", r"null|Null|NULL|~|"),
    ("bool", r"true|True|TRUE|false|False|FALSE"),
    ("int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"),
    ("float", r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)"
              r"|\.(nan|NaN|NAN)"),
]
_SPEC11 = [  # https://yaml.org/type/ (bool, null, int, float, timestamp, merge, value)
    ("null", r"~|null|Null|NULL|"),
    ("bool", r"y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE"
             r"|on|On|ON|off|Off|OFF"),
    ("int", r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
            r"|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+"),
    ("float", r"[-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+"
              r"\.[0-9_]*|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"),
    ("timestamp", r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt]|[ \t]+)?.*"),
    ("merge", r"<<"),
    ("value", r"="),
]


def resolve(schema, text: str) -> str:
    for name, pattern in schema:
        if re.fullmatch(pattern, text):
            return name
    return "str"


def plain_scalars(text: str) -> list[str]:
    return [e.value for e in yaml.parse(text)
            if isinstance(e, yaml.ScalarEvent) and e.style is None]


@pytest.mark.parametrize("value", TRICKY)
def test_tricky_strings_round_trip_as_strings(value):
    doc = {"value": value, value: "key", "list": [value]}
    text = dump_yaml(doc)
    assert load_yaml(text) == doc
    assert yaml.safe_load(text) == doc  # the stock 1.1 safe loader too


@pytest.mark.parametrize("value", TRICKY)
def test_no_plain_scalar_could_be_retyped_by_any_reader(value):
    text = dump_yaml({"k": value, value: [value, 17, 1708442000]})
    for scalar in plain_scalars(text):
        if scalar in ("17", "1708442000"):
            assert resolve(_CORE12, scalar) == resolve(_SPEC11, scalar) == "int"
        else:
            assert resolve(_CORE12, scalar) == "str", scalar
            assert resolve(_SPEC11, scalar) == "str", scalar


def test_version_strings_are_quoted():
    text = dump_yaml({"format_version": "1.0.0", "ruleset_version": "2.0.0",
                      "notation_version": "1.0"})
    assert text == "format_version: '1.0.0'\nruleset_version: '2.0.0'\nnotation_version: '1.0'\n"


def test_a_whole_record_has_no_retypable_plain_scalar(real_game):
    for path in real_game.paths:
        text = path.read_text()
        for scalar in plain_scalars(text):
            kind11, kind12 = resolve(_SPEC11, scalar), resolve(_CORE12, scalar)
            assert kind11 == kind12, scalar
            assert kind12 in ("str", "int"), scalar


@pytest.mark.parametrize("text", ["a", "Hello world", "E3", "A2 C2 D2", "GTF-HU-SZEGED-01",
                                  "player_I", "STGE"])
def test_ordinary_strings_stay_plain(text):
    assert not needs_quotes(text)


def test_how_pyyaml_reads_side_keys():
    """The facts the readers rely on: I and O are strings, the book's 0 an integer."""
    doc = yaml.safe_load("I: a\nO: b\n0: c\n'0': d\ny: e\nn: f\n")
    assert doc == {"I": "a", "O": "b", 0: "c", "0": "d", "y": "e", "n": "f"}


def test_ints_are_written_plain():
    assert dump_yaml({"created": 1708442000, "id": 1}) == "created: 1708442000\nid: 1\n"


def test_no_aliases_are_written():
    shared = {"a": 1}
    text = dump_yaml({"x": shared, "y": shared})
    assert "&" not in text and "*" not in text


def test_key_order_is_kept():
    assert list(load_yaml(dump_yaml({"meta": 1, "game": 2, "players": 3, "tail": 4}))) == \
        ["meta", "game", "players", "tail"]


@pytest.mark.parametrize("text, fragment", [
    ("a: 1\na: 2\n", "duplicate key 'a'"),
    ("a: &x {b: 1}\nc: *x\n", "aliases"),
    ("a: {b: 1}\nc:\n  <<: {d: 2}\n", "merge keys"),
    ("!!python/object:os.system {}\n", "broken YAML"),
    ("a: [1, 2\n", "broken YAML at line"),
    ("---\na: 1\n---\nb: 2\n", "broken YAML"),
    ("", "empty document"),
])
def test_loader_rejects_what_records_never_need(text, fragment):
    with pytest.raises(RecordError) as err:
        load_yaml(text)
    assert fragment in str(err.value)


def test_loader_rejects_bytes_that_are_not_utf8():
    with pytest.raises(RecordError, match="not UTF-8"):
        load_yaml(b"a: \xff\n")


ODD = ["emoji \U0001F600", "nel\x85here", "line\u2028sep", "bell\x07", "nbsp\u00a0x", "tab\tx",
       "two\nlines", " lead", "trail ", "'single'", '"double"', "漢字"]


@pytest.mark.parametrize("value", TRICKY + ODD)
def test_libyaml_and_python_emitters_write_records_that_read_back_the_same(value):
    """``dump_yaml`` writes with libyaml's emitter (fast); what it writes must read back as
    exactly the document, and for everything but the few characters it escapes (``ODD``) be the
    very text the Python emitter writes."""
    from registry.records.yamlio import FastRecordDumper, RecordDumper

    doc = {"meta": {"format_version": "1.0.0"}, "value": value, value or "k": [value, 17],
           "nested": [{"turn": value, "n": 1708442000}]}
    opts = dict(sort_keys=False, default_flow_style=False, allow_unicode=True,
                width=2**31 - 1, indent=2)
    fast = yaml.dump(doc, Dumper=FastRecordDumper, **opts)
    assert FastRecordDumper is not RecordDumper  # PyYAML's wheels carry libyaml
    assert fast == dump_yaml(doc)
    assert load_yaml(fast) == doc
    if value in TRICKY:
        assert fast == yaml.dump(doc, Dumper=RecordDumper, **opts)
