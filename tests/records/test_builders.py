"""Building STGE/STSE from game data: fields, chain, board, arbiter decisions, result line."""

from __future__ import annotations

import copy
import uuid

import pytest

from play.games.talu import read_stgn
from registry.records import builders, hashing, verify
from registry.records.errors import RecordError

from .helpers import PLAYERS, REAL_GAME, canonical_lines


@pytest.fixture(scope="module")
def lines():
    return canonical_lines(REAL_GAME)


@pytest.fixture
def entry():
    return builders.seal(builders.build_game_entry(players=PLAYERS, created=100))


def test_game_entry_fields():
    doc = builders.build_game_entry(
        players={"I": {"id": "A", "name": "Ann"}, 0: ("B", "Bob")}, variant="grand-master",
        created=1708442000)
    assert list(doc) == ["meta", "game", "players"]
    assert doc["meta"] == {"format": "STGE", "format_version": "1.0.0", "created": 1708442000}
    assert doc["game"]["type"] == "grand-master"
    assert doc["game"]["ruleset_version"] == "2.0.0"
    assert doc["game"]["notation_version"] == "1.0"
    assert uuid.UUID(doc["game"]["id"]).version == 4
    assert doc["players"] == {"I": {"id": "A", "name": "Ann"}, "O": {"id": "B", "name": "Bob"}}


def test_game_entry_input_is_checked():
    with pytest.raises(RecordError, match=r"game\.type: unknown game type 'go'"):
        builders.build_game_entry(players=PLAYERS, variant="go")
    with pytest.raises(RecordError, match="missing side O"):
        builders.build_game_entry(players={"I": ("a", "b")})
    with pytest.raises(RecordError, match=r"players\.O\.name: must not be empty"):
        builders.build_game_entry(players={"I": ("a", "b"), "O": ("c", " ")})


def test_seal_hashes_without_the_tail(entry):
    assert list(entry) == ["meta", "game", "players", "tail"]
    assert entry["tail"] == {"hash": hashing.game_entry_hash(entry)}
    resealed = builders.seal(entry)
    assert resealed == entry


def test_sessions_chain_to_the_game_entry_and_each_other(entry, lines):
    s1 = builders.seal(builders.next_session_entry(entry, [], place="P", time=1,
                                                   turns=lines[:8], created=2))
    s2 = builders.seal(builders.next_session_entry(entry, [s1], place="P", time=3,
                                                   turns=lines[8:16], created=4))
    assert s1["session"]["id"] == 1 and s2["session"]["id"] == 2
    assert s1["session"]["meta"]["previous_hash"] == entry["tail"]["hash"]
    assert s2["session"]["meta"]["previous_hash"] == s1["session"]["tail"]["hash"]
    assert s2["session"]["meta"]["game_id"] == entry["game"]["id"]
    assert list(s1["session"]) == ["id", "meta", "start", "turns", "board", "tail"]
    position = read_stgn("\n".join(lines[:16])).board()
    assert s2["session"]["board"] == {side: " ".join(sorted(sq, key=lambda s: (s[0], int(s[1:]))))
                                      for side, sq in position.items()}


def test_a_given_board_must_match_the_turns(entry, lines):
    with pytest.raises(RecordError, match=r"session.board.O: does not match"):
        builders.next_session_entry(entry, [], place="P", time=1, turns=lines[:4],
                                    board={"I": read_stgn("\n".join(lines[:4])).board()["I"],
                                           "O": ["A8"]})


def test_an_illegal_turn_is_refused_with_its_index(entry, lines):
    bad = [*lines[:3], "002 O: A1-A2"]
    with pytest.raises(RecordError) as err:
        builders.next_session_entry(entry, [], place="P", time=1, turns=bad)
    assert err.value.faults[0].path == "session.turns[3]"


def test_turns_are_written_canonically(entry):
    doc = builders.next_session_entry(entry, [], place="P", time=1,
                                      turns=["  001 I: A2-A3 ", "001 0: A7-A6"])
    assert doc["session"]["turns"] == ["001 I: A2-A3", "001 O: A7-A6"]
    assert builders.canonical_turn("!: 0") == "!: O"


def test_session_from_a_live_game(entry, lines):
    """At the end of each sitting: the turns played since the earlier sessions."""
    game = read_stgn("\n".join(lines[:10]))
    s1 = builders.seal(builders.session_from_game(entry, [], game, place="P", time=1))
    game = read_stgn("\n".join(lines))
    s2 = builders.seal(builders.session_from_game(entry, [s1], game, place="P", time=2))
    assert s1["session"]["turns"] == lines[:10]
    assert s2["session"]["turns"] == lines[10:]
    assert verify.check_game_docs(entry, [s2, s1], check_signatures=False).faults == []


def test_arbiter_decisions_are_recorded_hashed_and_replayed(entry, lines):
    """R34: a forfeit decided by the arbiter at 010 O ends the game after that turn."""
    game = read_stgn("\n".join(lines[:20]), arbiter=[
        {"turn": "005 O", "action": "warn", "side": "O", "reason": "non-engagement"},
        {"turn": "010 O", "action": "forfeit", "side": "O", "reason": "did not return"}])
    s1 = builders.seal(builders.session_from_game(entry, [], game, place="P", time=1))
    session = s1["session"]
    assert list(session) == ["id", "meta", "start", "turns", "board", "arbiter", "tail"]
    assert session["arbiter"] == [
        {"turn": "005 O", "action": "warn", "side": "O", "reason": "non-engagement"},
        {"turn": "010 O", "action": "forfeit", "side": "O", "reason": "did not return"}]
    assert session["turns"][-2:] == ["010 O: B3-C3 A8-A7 B5-B4 B8-C8 !", "!: I"]
    assert verify.check_game_docs(entry, [s1], check_signatures=False).faults == []
    # the decisions are covered by the hash
    changed = copy.deepcopy(s1)
    changed["session"]["arbiter"][1]["reason"] = "late"
    faults = verify.check_game_docs(entry, [changed], check_signatures=False).faults
    assert [f.path for f in faults] == ["session.tail.hash"]
    # and they matter to the replay: without the forfeit the result line is wrong
    dropped = copy.deepcopy(s1)
    del dropped["session"]["arbiter"][1]
    faults = verify.check_game_docs(entry, [builders.seal(dropped)],
                                    check_signatures=False).faults
    assert faults and faults[0].path.startswith("session.turns")


def test_next_session_needs_a_sealed_chain(lines):
    unsealed = builders.build_game_entry(players=PLAYERS)
    with pytest.raises(RecordError, match="not sealed"):
        builders.next_session_entry(unsealed, [], place="P", time=1, turns=lines[:2])


def test_next_session_refuses_a_broken_chain(entry, lines):
    s1 = builders.seal(builders.next_session_entry(entry, [], place="P", time=1,
                                                   turns=lines[:4]))
    s1["session"]["turns"][0] = "001 I: H2-H3"
    with pytest.raises(RecordError, match=r"session\.tail\.hash: does not match"):
        builders.next_session_entry(entry, [s1], place="P", time=2, turns=lines[4:8])


def test_body_signer_needs_a_registrar_id(entry, gpg_keys):
    signer = gpg_keys.body_signer.__class__(gpg_keys.signing, gpg_keys.body.fingerprint)
    with pytest.raises(RecordError, match="needs a registrar_id"):
        builders.seal(entry, body=signer)


def test_signing_with_an_unknown_key_is_a_clear_error(entry, gpg_keys):
    signer = gpg_keys.body_signer.__class__(gpg_keys.signing, "0x00000000", "GTF-1")
    with pytest.raises(RecordError, match=r"tail\.signatures\.affiliated_body: no secret key"):
        builders.seal(entry, body=signer)


def test_add_signature_refuses_a_changed_entry(real_game, gpg_keys):
    doc = copy.deepcopy(real_game.game_doc)
    doc["players"]["I"]["name"] = "Eve"
    with pytest.raises(RecordError, match=r"tail\.hash: does not match the content"):
        builders.add_signature(doc, "player_I", gpg_keys.other_signer)


def test_write_entry_checks_signatures_when_given_a_keyring(real_game, gpg_keys, tmp_path):
    doc = builders.add_signature(real_game.game_doc, "player_0", gpg_keys.other_signer)
    assert "player_O" in doc["tail"]["signatures"]  # written with the writers' spelling
    with pytest.raises(RecordError, match="player_O: signature made by key"):
        builders.write_entry(tmp_path / "x.yaml", doc, keyring=gpg_keys.verifying)
    assert not (tmp_path / "x.yaml").exists()
    builders.write_entry(tmp_path / "x.yaml", doc, keyring=gpg_keys.signing)
    assert (tmp_path / "x.yaml").exists()


def test_board_text_sorts_by_file_then_rank():
    assert builders.board_text(["c10", "C2", "A12", "A3"]) == "A3 A12 C2 C10"
    assert builders.board_text("") == ""


def test_the_replay_of_a_new_session_derives_the_slip_a_second_check_would(entry, lines):
    """The site seals the entry it built and derives the slip on the replay the build's check
    made (issue 7: not a second replay of the whole notation); it is the same slip."""
    from registry.records.slip import build_slip

    s1 = builders.seal(builders.next_session_entry(entry, [], place="P", time=1,
                                                   turns=lines[:8], created=2))
    doc, replayed = builders.next_session_entry_replayed(entry, [s1], place="P", time=3,
                                                         turns=lines[8:], created=4)
    s2 = builders.seal(doc)
    assert replayed.stgn_lines()[:len(lines)] == lines
    assert (build_slip(entry, [s1, s2], generated_at=0, game=replayed)
            == build_slip(entry, [s1, s2], generated_at=0))
    assert builders.next_session_entry(entry, [s1], place="P", time=3, turns=lines[8:],
                                       created=4) == doc
