"""Other games' signed records (issue 36, ``registry.records.game_record``): built from plain
values, checked for their shape, sealed with the site's key, and checked by ``talu verify``
whole and after any change."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import rfc8785

from registry.records import game_record as gr
from registry.records.errors import RecordError
from talu_cli.main import main

GAME_ID = "5f0c2a8e-1b7d-4c3e-9a61-2d4b8e7f0a13"
T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
SITE = "https://talu.example"
OTN = "[variant:11x11]\n1. e1-e4 f7-f5\n2. e4-e5x f5-f4\n3. ---\n"


def tafl_facts(**changes) -> gr.GameFacts:
    facts = gr.GameFacts(
        game_id=GAME_ID, game="tafl", variant="tafl/11x11",
        options={"immunity": True, "edge_escape": False},
        time_control="fischer 300+5", started=T0, finished=T0 + timedelta(minutes=41),
        seats=(gr.RecordSeat("attackers", "Attackers", "person", "Alice Vorin", "alice", 1512.5),
               gr.RecordSeat("defenders", "Defenders", "computer", "Computer, level 4", None,
                             None)),
        result=gr.RecordResult({"attackers": 2, "defenders": 1}, "king_escaped",
                               detail="the king reached a corner"),
        events=(gr.RecordEvent(1, "move", "attackers", {"from": "e1", "to": "e4"}, "e1-e4"),
                gr.RecordEvent(2, "move", "defenders", {"from": "f7", "to": "f5"}, "f7-f5"),
                gr.RecordEvent(4, "resign", "attackers", {}, "resigns")),
        notation=OTN)
    return dataclasses.replace(facts, **changes)


def talat_facts(**changes) -> gr.GameFacts:
    """The two-seat Talat: seats 1 and 2 and the neutral Zihin (A11), which is never ranked."""
    values = {
        "game": "talat", "variant": "talat/two", "options": {},
        "seats": (gr.RecordSeat("1", "Seat 1", "person", "Alice", "alice", 25.0),
                  gr.RecordSeat("2", "Seat 2", "person", "Bob", "bob", 25.0),
                  gr.RecordSeat("Z", "Zihin", "neutral")),
        "result": gr.RecordResult({"1": 1, "2": 2}, "frozen", scores={"1": 7, "2": 4}),
        "events": (gr.RecordEvent(1, "place", "1", {"tower": "S3"}, "1>Z @2Z:a5"),),
    }
    return tafl_facts(**{**values, **changes})


def faults(facts: gr.GameFacts) -> list[tuple[str, str]]:
    with pytest.raises(RecordError) as err:
        gr.build_record(facts, site=SITE)
    return [(f.path, f.message) for f in err.value.faults]


def paths(facts: gr.GameFacts) -> set[str]:
    return {p for p, _ in faults(facts)}


@pytest.fixture(scope="module")
def sealed(gpg_keys) -> dict:
    return gr.seal(gr.build_record(tafl_facts(), site=SITE), gpg_keys.body_signer)


@pytest.fixture
def record_file(tmp_path: Path, sealed: dict) -> Path:
    path = tmp_path / f"{GAME_ID}.record.json"
    path.write_text(gr.dumps(sealed), encoding="utf-8")
    return path


def verify(path: Path, keyring: Path, capsys) -> tuple[int, list[str]]:
    code = main(["verify", "--keyring", str(keyring), str(path)])
    return code, capsys.readouterr().out.splitlines()


# --- building -------------------------------------------------------------------------------


def test_the_record_has_the_documented_shape():
    doc = gr.build_record(tafl_facts(), site=SITE)
    assert list(doc) == list(gr.FIELDS)
    assert doc["format"] == "talu-game-record/1" and doc["id"] == GAME_ID
    assert doc["started"] == "2026-03-01T10:00:00Z" and doc["finished"] == "2026-03-01T10:41:00Z"
    assert doc["seats"][0] == {"seat": "attackers", "label": "Attackers", "kind": "person",
                               "player": "Alice Vorin", "account": "alice", "rating": 1512.5}
    assert doc["result"] == {"ranks": {"attackers": 2, "defenders": 1}, "scores": None,
                             "reason": "king_escaped", "cause": "",
                             "detail": "the king reached a corner"}
    assert doc["events"][2] == {"n": 4, "kind": "resign", "seat": "attackers", "data": {},
                                "text": "resigns"}
    assert doc["notation"] == OTN


def test_ties_and_three_seats():
    """Two seats ranked 1 are a draw; a three-seat game may end 1, 1, 3 or 1, 2, 2."""
    three = (gr.RecordSeat("1", "One", "person", "A"), gr.RecordSeat("2", "Two", "person", "B"),
             gr.RecordSeat("3", "Three", "person", "C"))
    gr.build_record(tafl_facts(result=gr.RecordResult({"attackers": 1, "defenders": 1},
                                                      "repetition")), site=SITE)
    for ranks in ({"1": 1, "2": 1, "3": 3}, {"1": 1, "2": 2, "3": 2}, {"1": 3, "2": 1, "3": 2}):
        gr.build_record(talat_facts(variant="talat/three", seats=three, events=(),
                                    result=gr.RecordResult(ranks, "frozen")), site=SITE)
    for ranks in ({"1": 1, "2": 1, "3": 2}, {"1": 2, "2": 2, "3": 3}, {"1": 1, "2": 3, "3": 4}):
        found = faults(talat_facts(variant="talat/three", seats=three, events=(),
                                   result=gr.RecordResult(ranks, "frozen")))
        assert found and found[0][0] == "result.ranks"
        assert "places 1..N with ties" in found[0][1]


def test_a_neutral_seat_is_never_ranked_nor_held():
    gr.build_record(talat_facts(), site=SITE)
    ranked = talat_facts(result=gr.RecordResult({"1": 1, "2": 2, "Z": 3}, "frozen"))
    assert ("result.ranks.Z", "seat 'Z' is neutral: nobody holds it, it has no rank") \
        in faults(ranked)
    held = talat_facts(seats=(gr.RecordSeat("1", "Seat 1", "person", "Alice"),
                              gr.RecordSeat("2", "Seat 2", "person", "Bob"),
                              gr.RecordSeat("Z", "Zihin", "neutral", "Carol", "carol")))
    assert {"seats[2].player", "seats[2].account"} <= paths(held)


def test_every_held_seat_is_ranked_exactly_once():
    missing = faults(tafl_facts(result=gr.RecordResult({"attackers": 1}, "decision")))
    assert missing == [("result.ranks", "every seat a player holds is ranked (or none is: no "
                                        "result); defenders is not")]
    stranger = paths(tafl_facts(result=gr.RecordResult(
        {"attackers": 1, "defenders": 2, "king": 3}, "decision")))
    assert "result.ranks.king" in stranger
    assert "result.ranks.attackers" in paths(tafl_facts(result=gr.RecordResult(
        {"attackers": True, "defenders": 1}, "decision")))
    # a null game (R39) has no ranks at all
    gr.build_record(tafl_facts(result=gr.RecordResult({}, "null")), site=SITE)


def test_seat_ids_are_unique():
    twice = tafl_facts(seats=(gr.RecordSeat("attackers", "A", "person", "Alice"),
                              gr.RecordSeat("attackers", "B", "person", "Bob")))
    assert ("seats[1].seat", "seat 'attackers' is listed twice") in faults(twice)


def test_scores_cover_the_held_seats():
    found = paths(talat_facts(result=gr.RecordResult({"1": 1, "2": 2}, "frozen",
                                                     scores={"1": 7, "Z": 1})))
    assert {"result.scores.Z", "result.scores"} <= found


def test_the_other_fields_are_checked():
    assert "variant" in paths(tafl_facts(variant="talat/three"))
    assert "finished" in paths(tafl_facts(finished=T0 - timedelta(seconds=1)))
    assert "started" in paths(tafl_facts(started="yesterday"))
    assert "id" in paths(tafl_facts(game_id="not-a-uuid"))
    assert "seats[0].kind" in paths(tafl_facts(seats=(gr.RecordSeat("a", "A", "robot", "R"),)))
    assert "seats[1].player" in paths(tafl_facts(seats=(
        gr.RecordSeat("attackers", "Attackers", "person", "Alice"),
        gr.RecordSeat("defenders", "Defenders", "person", None))))
    out_of_order = (gr.RecordEvent(2, "move", "attackers"), gr.RecordEvent(2, "move", "defenders"))
    assert ("events[1].n", "event 2 comes after event 2: the log's order is lost") \
        in faults(tafl_facts(events=out_of_order))
    assert "events[0].seat" in paths(tafl_facts(events=(gr.RecordEvent(1, "move", "king"),)))
    assert "notation" in paths(tafl_facts(notation="1. e1-e4\x00"))
    assert "options.n" in paths(tafl_facts(options={"n": 2**60}))
    with pytest.raises(RecordError, match="zone"):
        gr.build_record(tafl_facts(started=datetime(2026, 3, 1, 10)), site=SITE)


def test_public_events_leave_sealed_turns_and_notes_out():
    @dataclasses.dataclass
    class Ev:
        kind: str
        side: str
        data: dict
        text: str
        visibility: str = "all"

    log = [(1, Ev("move", "attackers", {"to": "e4"}, "e1-e4")),
           (2, Ev("move", "defenders", {}, "sealed", visibility="defenders")),
           (3, Ev("note", "", {}, "a note", visibility="arbiters")),
           (4, Ev("decide", "", {"result": "null"}, "null game"))]
    assert gr.public_events(log) == (
        gr.RecordEvent(1, "move", "attackers", {"to": "e4"}, "e1-e4"),
        gr.RecordEvent(4, "decide", None, {"result": "null"}, "null game"))


# --- hash and signature ---------------------------------------------------------------------


def test_the_hash_is_sha256_of_the_rfc8785_bytes(sealed):
    body = {k: v for k, v in sealed.items() if k != "tail"}
    assert sealed["tail"]["hash"] == hashlib.sha256(rfc8785.dumps(body)).hexdigest()
    block = sealed["tail"]["signatures"]["affiliated_body"]
    assert block["registrar_id"] == "GTF-HU-SZEGED-01" and block["key_id"].startswith("0x")


def test_a_good_record_verifies(record_file, gpg_keys, capsys):
    assert verify(record_file, gpg_keys.verifying, capsys) == (
        0, [f"{record_file}: ok (talu-game-record/1)"])


def test_reformatted_still_verifies(record_file, sealed, gpg_keys, capsys):
    """The file may be reformatted: what is checked is its canonical form."""
    shuffled = dict(reversed(list(sealed.items())))
    record_file.write_text(json.dumps(shuffled, separators=(",", ":")), encoding="utf-8")
    assert verify(record_file, gpg_keys.verifying, capsys)[0] == 0


@pytest.mark.parametrize(("old", "new"), [
    ('"defenders": 1', '"defenders": 2'),  # a rank: places 2, 2 (no longer a ranking)
    ('"attackers": 2', '"attackers": 1'),  # a rank: now a draw
    ('"e1-e4"', '"e1-e5"'),  # an event's text
    ('"to": "f5"', '"to": "f6"'),  # an event's data
    ("2. e4-e5x", "2. e4-e6x"),  # the notation
    ('"Alice Vorin"', '"Alice Vorix"'),  # a player
    ("1512.5", "1612.5"),  # a rating
    ('"immunity": true', '"immunity": false'),  # an option
    ("10:41:00Z", "10:42:00Z"),  # the finish
])
def test_one_changed_byte_fails(record_file, gpg_keys, capsys, old, new):
    text = record_file.read_text(encoding="utf-8")
    assert text.count(old) == 1
    record_file.write_text(text.replace(old, new), encoding="utf-8")
    code, lines = verify(record_file, gpg_keys.verifying, capsys)
    assert code == 1
    assert f"{record_file}: tail.hash: does not match the content (the record was changed " \
           "after it was hashed)" in lines


def test_a_rehashed_change_breaks_the_signature(record_file, sealed, gpg_keys, capsys):
    doc = json.loads(json.dumps(sealed))
    doc["result"]["ranks"] = {"attackers": 1, "defenders": 2}
    doc["tail"]["hash"] = gr.record_hash(doc)
    record_file.write_text(gr.dumps(doc), encoding="utf-8")
    assert verify(record_file, gpg_keys.verifying, capsys) == (
        1, [f"{record_file}: tail.signatures.affiliated_body: signature does not match the hash "
            "(bad signature)"])


def test_signed_by_another_key_fails(tmp_path, gpg_keys, capsys):
    doc = gr.seal(gr.build_record(tafl_facts(), site=SITE), gpg_keys.other_signer)
    path = tmp_path / "other.record.json"
    path.write_text(gr.dumps(doc), encoding="utf-8")
    code, lines = verify(path, gpg_keys.verifying, capsys)
    assert code == 1
    assert lines == [f"{path}: tail.signatures.affiliated_body: signature made by key "
                     f"{gpg_keys.other.key_id}, which is not in the keyring"]
    # the same record, claiming the site's key id: still the other key's signature
    doc["tail"]["signatures"]["affiliated_body"]["key_id"] = gpg_keys.body.key_id
    path.write_text(gr.dumps(doc), encoding="utf-8")
    assert verify(path, gpg_keys.verifying, capsys)[0] == 1


@pytest.mark.parametrize(("content", "expected"), [
    (b'{"format": "talu-game-record/1", "format": "x"}', "appears twice"),
    (b'{"format": "talu-game-record/1", "n": NaN}', "NaN is not a JSON number"),
    (b'{"format": "talu-game-record/1", ', "is not JSON"),
    (b'{"format": "talu-game-record/1", "s": "\xff"}', "is not UTF-8"),
    (b'{"format": "talu-game-record/2"}', "is not a format this verifier knows"),
])
def test_broken_files_are_reported_in_words(tmp_path, gpg_keys, capsys, content, expected):
    path = tmp_path / "broken.record.json"
    path.write_bytes(content)
    code, lines = verify(path, gpg_keys.verifying, capsys)
    assert code == 1 and lines and all(ln.startswith(f"{path}: ") for ln in lines)
    assert any(expected in ln for ln in lines), lines


def test_unsealed_and_unknown_fields(tmp_path, sealed, gpg_keys, capsys):
    path = tmp_path / "r.json"
    doc = {k: v for k, v in sealed.items() if k != "tail"}
    path.write_text(gr.dumps(doc), encoding="utf-8")
    assert verify(path, gpg_keys.verifying, capsys) == (
        1, [f"{path}: tail: missing: the record is not sealed (no hash, no signature)"])
    doc = {**sealed, "winner": "attackers"}
    path.write_text(gr.dumps(doc), encoding="utf-8")
    code, lines = verify(path, gpg_keys.verifying, capsys)
    assert code == 1 and any(ln.startswith(f"{path}: winner: unknown field") for ln in lines)


def test_verified_beside_the_books_records(real_game, record_file, gpg_keys, capsys):
    """One ``talu verify`` run takes talu's entries and another game's record alike."""
    code = main(["verify", "--keyring", str(gpg_keys.verifying), str(real_game.game),
                 str(record_file), *map(str, real_game.sessions)])
    assert code == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{real_game.game}: ok (STGE)", f"{record_file}: ok (talu-game-record/1)",
        f"{real_game.sessions[0]}: ok (STSE)", f"{real_game.sessions[1]}: ok (STSE)"]
