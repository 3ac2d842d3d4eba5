"""A real game recorded in two sittings, signed by the affiliated body, verifies (issue 4)."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from registry.records import builders, hashing, verify
from registry.records.schema import STGE, STSE
from registry.records.yamlio import load_yaml

from .helpers import EXAMPLES, canonical_lines, record_game


def test_records_of_a_real_game_verify(real_game, gpg_keys):
    faults = verify.verify_paths(real_game.paths, keyring=gpg_keys.verifying)
    assert faults == []


def test_paths_in_any_order_verify_as_one_game(real_game, gpg_keys):
    paths = [real_game.sessions[1], real_game.game, real_game.sessions[0]]
    assert verify.verify_paths(paths, keyring=gpg_keys.verifying) == []


def test_written_files_are_the_sealed_documents(real_game):
    game = load_yaml(real_game.game.read_text())
    assert game == real_game.game_doc
    assert game["meta"]["format"] == STGE
    assert game["tail"]["hash"] == hashing.game_entry_hash(game)
    s1, s2 = (load_yaml(p.read_text()) for p in real_game.sessions)
    assert s1["session"]["meta"]["format"] == STSE
    assert s1["session"]["meta"]["previous_hash"] == game["tail"]["hash"]
    assert s2["session"]["meta"]["previous_hash"] == s1["session"]["tail"]["hash"]
    assert [s1["session"]["id"], s2["session"]["id"]] == [1, 2]


def test_sessions_continue_each_other_and_end_with_the_result(real_game):
    lines = canonical_lines(EXAMPLES / "legal-003-standard-normal.stgn")
    s1, s2 = (d["session"] for d in real_game.session_docs)
    assert s1["turns"] + s2["turns"] == lines
    assert s2["turns"][-1] == "!: I"
    # the board after session 1 is the position after its 20 turn lines
    assert s1["board"] == {"I": "A1 A2 C2 D3 D5 E2 E3 G1 G2 H4",
                           "O": "A7 B4 B6 B7 C3 C8 E7 F5 F8 G5 G6"}
    expected = json.loads((EXAMPLES / "legal-003-standard-normal.json").read_text())
    assert set(s2["board"]["I"].split()) == set(expected["replay"]["board"]["I"])
    assert set(s2["board"]["O"].split()) == set(expected["replay"]["board"]["O"])


def test_body_signature_block_follows_r33(real_game, gpg_keys):
    tail = real_game.game_doc["tail"]
    block = tail["signatures"]["affiliated_body"]
    assert block["registrar_id"] == "GTF-HU-SZEGED-01"
    assert block["key_id"] == "0x" + gpg_keys.body.fingerprint[-8:].upper()


def test_player_signatures_added_later_verify(real_game, gpg_keys):
    """Players sign when they confirm; the hash does not change, both signatures check."""
    path = real_game.sessions[0]
    doc = real_game.load(path)
    signed = builders.add_signature(doc, "player_I", gpg_keys.other_signer)
    assert signed["session"]["tail"]["hash"] == doc["session"]["tail"]["hash"]
    assert list(signed["session"]["tail"]["signatures"]) == ["player_I", "affiliated_body"]
    builders.write_entry(path, signed, overwrite=True)
    # the signing keyring knows both keys
    assert verify.verify_paths(real_game.paths, keyring=gpg_keys.signing) == []
    # a verifier without player I's public key reports it
    faults = verify.verify_paths(real_game.paths, keyring=gpg_keys.verifying)
    assert [f.path for f in faults] == ["session.tail.signatures.player_I"]
    assert "not in the keyring" in faults[0].message


@pytest.mark.parametrize(
    "stgn", sorted(EXAMPLES.glob("legal-*.stgn")), ids=lambda p: p.stem)
def test_every_legal_example_records_verifies_and_slips(stgn):
    """Each legal example, cut into three sittings, verifies and its slip's tally is the
    example's expected tally (signatures aside: unsigned entries)."""
    from registry.records.slip import build_slip

    variant = stgn.stem.split("-", 2)[2].rsplit("-", 1)[0]
    lines = canonical_lines(stgn, variant)
    cuts = sorted({len(lines) // 3, 2 * len(lines) // 3} - {0})
    entry = builders.seal(builders.build_game_entry(
        players={"I": ("P-I", "Player I"), "O": ("P-O", "Player O")}, variant=variant))
    sessions = []
    bounds = [0, *cuts, len(lines)]
    for a, b in pairwise(bounds):
        sessions.append(builders.seal(builders.next_session_entry(
            entry, sessions, place="Online", time=1, turns=lines[a:b])))
    check = verify.check_game_docs(entry, sessions, check_signatures=False)
    assert check.faults == []
    slip = build_slip(entry, sessions, generated_at=0)
    expected = json.loads(stgn.with_suffix(".json").read_text())["tally"]
    for side in ("I", "O"):
        assert slip["tally"][f"player_{side}"] == {k: v for k, v in expected[side].items()}


def test_record_game_helper_cuts_where_asked(gpg_keys):
    lines = canonical_lines(EXAMPLES / "legal-003-standard-normal.stgn")
    entry, sessions = record_game(lines, [10, 30], None)
    assert [len(s["session"]["turns"]) for s in sessions] == [10, 20, len(lines) - 30]
    assert verify.check_game_docs(entry, sessions, check_signatures=False).faults == []
