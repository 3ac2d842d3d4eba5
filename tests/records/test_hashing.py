"""R32: SHA-256 of the RFC 8785 canonical JSON of the entry without its tail."""

from __future__ import annotations

import hashlib

from registry.records import hashing


def test_canonical_json_is_rfc8785():
    doc = {"b": [1, "é", True, None], "a": {"z": 1, "A": 2}, "€": 0}
    assert hashing.canonical_json(doc) == \
        '{"a":{"A":2,"z":1},"b":[1,"é",true,null],"€":0}'.encode()


def test_game_entry_hash_leaves_out_the_tail_only(real_game):
    doc = real_game.game_doc
    body = {k: v for k, v in doc.items() if k != "tail"}
    assert doc["tail"]["hash"] == hashlib.sha256(hashing.canonical_json(body)).hexdigest()
    assert hashing.entry_hash(doc) == doc["tail"]["hash"]


def test_session_hash_keeps_the_session_wrapper(real_game):
    session = real_game.session_docs[0]["session"]
    inner = {k: v for k, v in session.items() if k != "tail"}
    expected = hashlib.sha256(hashing.canonical_json({"session": inner})).hexdigest()
    assert session["tail"]["hash"] == expected
    assert expected != hashlib.sha256(hashing.canonical_json(inner)).hexdigest()


def test_hash_ignores_key_order_and_signatures(real_game):
    doc = real_game.game_doc
    shuffled = {k: doc[k] for k in reversed(list(doc))}
    shuffled["tail"] = {"hash": "x", "signatures": {}}
    assert hashing.game_entry_hash(shuffled) == doc["tail"]["hash"]


def test_any_change_changes_the_hash(real_game):
    doc = real_game.session_docs[0]
    base = hashing.entry_hash(doc)
    changed = {"session": dict(doc["session"], start={"place": "Szeged", "time": 1708442160})}
    assert hashing.entry_hash(changed) != base


def test_integer_keys_hash_as_their_text():
    assert hashing.canonical_json({0: "x", "I": "y"}) == b'{"0":"x","I":"y"}'
