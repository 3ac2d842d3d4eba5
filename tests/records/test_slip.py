"""The digital game slip (R35): merged, ordered, tallied, deterministic, verifiable."""

from __future__ import annotations

import copy
import json
import re

import pytest

from registry.records import verify
from registry.records.errors import RecordError
from registry.records.slip import build_slip, slip_from_files, slip_yaml, write_slip
from registry.records.yamlio import dump_yaml, load_yaml
from registry.scoring.tally import CODES

from .helpers import EXAMPLES

AT_LINE = re.compile(r"^    at: \d+$", re.M)


def test_slip_derived_twice_is_byte_identical_apart_from_the_time(real_game):
    first = slip_from_files(real_game.game, real_game.sessions, generated_at=1708452169)
    second = slip_from_files(real_game.game, list(reversed(real_game.sessions)),
                             generated_at=1900000000)
    assert first != second
    assert len(AT_LINE.findall(first)) == 1
    assert AT_LINE.sub("    at: T", first) == AT_LINE.sub("    at: T", second)


def test_slip_with_the_same_time_is_identical(real_game):
    docs = real_game.game_doc, real_game.session_docs
    assert slip_yaml(*docs, generated_at=7) == slip_yaml(*docs, generated_at=7)
    assert slip_yaml(*docs, generated_at=7) == slip_from_files(real_game.game, real_game.sessions,
                                                               generated_at=7)


def test_slip_content_follows_r35(real_game):
    slip = build_slip(real_game.game_doc, list(reversed(real_game.session_docs)),
                      generated_at=1708452169)
    assert list(slip) == ["meta", "game", "players", "sessions", "tally"]
    assert slip["meta"] == {"format": "STDGS", "format_version": "1.0.0"}
    assert slip["game"] == real_game.game_doc["game"]
    assert slip["players"] == real_game.game_doc["players"]
    assert slip["sessions"] == [d["session"] for d in real_game.session_docs]  # by id, unchanged
    tally = slip["tally"]
    assert tally["generated"]["at"] == 1708452169
    assert tally["generated"]["by"].startswith("talu-server/")
    expected = json.loads((EXAMPLES / "legal-003-standard-normal.json").read_text())["tally"]
    for side in ("I", "O"):
        assert list(tally[f"player_{side}"]) == list(CODES)  # R19 order, all present
        assert tally[f"player_{side}"] == expected[side]


def test_slip_verifies_alone_and_with_its_entries(real_game, gpg_keys, tmp_path):
    path = tmp_path / "slip.yaml"
    write_slip(path, slip_from_files(real_game.game, real_game.sessions))
    assert verify.verify_paths([path], keyring=gpg_keys.verifying) == []
    assert verify.verify_paths([path, *real_game.paths], keyring=gpg_keys.verifying) == []


def test_slip_does_not_need_signatures(gpg_keys, tmp_path):
    from .helpers import write_real_game

    unsigned = write_real_game(tmp_path, None)
    assert "signatures" not in unsigned.game_doc["tail"]
    text = slip_from_files(unsigned.game, unsigned.sessions)
    assert load_yaml(text)["meta"]["format"] == "STDGS"
    # ... but verify requires the body's signature
    faults = verify.verify_paths(unsigned.paths, keyring=gpg_keys.verifying)
    assert {f.path for f in faults} == {"tail.signatures.affiliated_body",
                                        "session.tail.signatures.affiliated_body"}


@pytest.fixture
def slip_doc(real_game):
    return build_slip(real_game.game_doc, real_game.session_docs, generated_at=0)


def slip_faults(doc, keys, *others):
    recs = [verify.record_from_doc(load_yaml(dump_yaml(doc)), "slip.yaml"),
            *(verify.load_record(p) for p in others)]
    return [(f.path, f.message) for f in verify.verify_records(recs, keyring=keys.verifying)]


def test_tampered_tally(slip_doc, gpg_keys):
    slip_doc["tally"]["player_I"]["C.c"] = 2
    assert slip_faults(slip_doc, gpg_keys) == [
        ("tally.player_I.C.c", "is 2, the notation gives 1")]


def test_reordered_sessions(slip_doc, gpg_keys):
    slip_doc["sessions"].reverse()
    assert slip_faults(slip_doc, gpg_keys) == [
        ("sessions", "not ordered by session id (2, 1; R35)")]


def test_removed_session(slip_doc, gpg_keys):
    del slip_doc["sessions"][0]
    assert slip_faults(slip_doc, gpg_keys) == [
        ("sessions[0].id", "the first session given is 2: session 1 is missing")]


def test_changed_turn_in_a_slip(slip_doc, gpg_keys):
    slip_doc["sessions"][1]["turns"][0] = "011 I: ."
    found = slip_faults(slip_doc, gpg_keys)
    assert ("sessions[1].tail.hash", "does not match the content (the entry was changed after "
            "it was hashed)") in found


def test_changed_players_need_the_game_entry(slip_doc, gpg_keys, real_game):
    """R35 leaves the game entry's hash out of the slip: a changed name is only caught when
    the game entry is given alongside."""
    slip_doc["players"]["O"]["name"] = "Eve Impostor"
    assert slip_faults(slip_doc, gpg_keys) == []
    found = slip_faults(slip_doc, gpg_keys, real_game.game)
    assert found == [("players", f"differs from the game entry ({real_game.game})")]


def test_slip_disagreeing_with_a_session_entry(slip_doc, gpg_keys, real_game, tmp_path):
    other = copy.deepcopy(real_game.session_docs[1])
    other["session"]["start"]["place"] = "Budapest"
    path = tmp_path / "other.yaml"
    path.write_text(dump_yaml(other))
    found = slip_faults(slip_doc, gpg_keys, real_game.game, path)
    assert ("sessions[1]", f"differs from the session entry {path}") in found


def test_slip_needs_a_session():
    with pytest.raises(RecordError, match="at least one session"):
        build_slip({}, [])


def test_slip_rejects_entries_of_another_game(real_game):
    other = copy.deepcopy(real_game.game_doc)
    other["game"]["id"] = "00000000-0000-4000-8000-000000000000"
    with pytest.raises(RecordError, match="not this game's id"):
        build_slip(other, real_game.session_docs)


def test_slip_from_files_rejects_wrong_kinds(real_game):
    with pytest.raises(RecordError, match="expected a game entry"):
        slip_from_files(real_game.sessions[0], real_game.sessions)
    with pytest.raises(RecordError, match="expected a session entry"):
        slip_from_files(real_game.game, [real_game.game])
