"""Every kind of tampering with a recorded game is detected (issue 4)."""

from __future__ import annotations

import base64

from registry.records import builders, hashing, verify
from registry.records.signing import sign_hash


def faults_of(real_game, gpg_keys, paths=None):
    return verify.verify_paths(paths or real_game.paths, keyring=gpg_keys.verifying)


def where(faults):
    """(file name, field path) of each fault."""
    return {(f.file.rsplit("/", 1)[-1] if f.file else None, f.path) for f in faults}


def test_untouched_records_have_no_fault(real_game, gpg_keys):
    assert faults_of(real_game, gpg_keys) == []


def test_changed_turn(real_game, gpg_keys):
    def change(doc):
        doc["session"]["turns"][3] = "002 O: F7-F6 C6-C5 C8-B8 F6-F4"
    real_game.edit(real_game.sessions[0], change)
    faults = faults_of(real_game, gpg_keys)
    assert ("session-1.yaml", "session.tail.hash") in where(faults)
    assert any("does not match the content" in f.message for f in faults)


def test_changed_turn_rehashed_breaks_signature_and_chain(real_game, gpg_keys):
    """An attacker who recomputes the hash cannot re-sign it, and breaks the chain."""
    def change(doc):
        doc["session"]["turns"][0] = "001 I: G2-G3 F2-G2 A2-A3 C1-D1"
        doc["session"]["tail"]["hash"] = hashing.session_hash(doc["session"])
    real_game.edit(real_game.sessions[0], change)
    found = where(faults_of(real_game, gpg_keys))
    assert ("session-1.yaml", "session.tail.signatures.affiliated_body") in found
    assert ("session-2.yaml", "session.meta.previous_hash") in found


def test_changed_turn_resigned_by_the_body_is_caught_by_the_replay(real_game, gpg_keys):
    """Even the body's own key cannot make an illegal game pass: the notation is replayed."""
    doc = real_game.load(real_game.sessions[1])
    doc["session"]["turns"][2] = "012 I: A1-B1 G1-G3"  # not a legal move path
    resealed = builders.seal(doc, body=gpg_keys.body_signer)
    real_game.rewrite(real_game.sessions[1], resealed)
    faults = faults_of(real_game, gpg_keys)
    assert where(faults) == {("session-2.yaml", "session.turns[2]")}
    assert "012 I: A1-B1 G1-G3" in faults[0].message


def test_changed_board(real_game, gpg_keys):
    def change(doc):
        doc["session"]["board"]["O"] = "A6 C8"
    real_game.edit(real_game.sessions[1], change)
    found = where(faults_of(real_game, gpg_keys))
    assert ("session-2.yaml", "session.tail.hash") in found
    assert ("session-2.yaml", "session.board.O") in found


def test_changed_board_resigned_is_caught_by_the_replay(real_game, gpg_keys):
    doc = real_game.load(real_game.sessions[0])
    doc["session"]["board"]["I"] = "A1 A2 C2 D3 D5 E2 E3 G1 G2 H5"
    real_game.rewrite(real_game.sessions[0], builders.seal(doc, body=gpg_keys.body_signer))
    faults = faults_of(real_game, gpg_keys)
    board = [f for f in faults if f.path == "session.board.I"]
    assert board and "missing H4" in board[0].message and "H5 not occupied" in board[0].message
    # and session 2 no longer chains to the re-sealed session 1
    assert ("session-2.yaml", "session.meta.previous_hash") in where(faults)


def test_removed_session(real_game, gpg_keys, tmp_path):
    game = write_three_sittings(tmp_path / "three", gpg_keys)
    faults = verify.verify_paths([game[0], game[1], game[3]], keyring=gpg_keys.verifying)
    assert where(faults) == {("session-3.yaml", "session.id")}
    assert "session 2 is missing" in faults[0].message


def test_removed_first_session(real_game, gpg_keys):
    faults = faults_of(real_game, gpg_keys, [real_game.game, real_game.sessions[1]])
    assert where(faults) == {("session-2.yaml", "session.id")}
    assert "session 1 is missing" in faults[0].message


def write_three_sittings(directory, gpg_keys):
    from .helpers import write_real_game

    directory.mkdir()
    rg = write_real_game(directory, gpg_keys.body_signer, splits=(14, 30))
    return [rg.game, *rg.sessions]


def test_swapped_session_ids(real_game, gpg_keys):
    s1, s2 = real_game.sessions
    real_game.edit(s1, lambda d: d["session"].update(id=2))
    real_game.edit(s2, lambda d: d["session"].update(id=1))
    found = where(faults_of(real_game, gpg_keys))
    assert ("session-1.yaml", "session.tail.hash") in found
    assert ("session-2.yaml", "session.tail.hash") in found


def test_swapped_sessions_rehashed_break_the_chain(real_game, gpg_keys):
    """Renumbered and re-sealed by the body itself: the previous hashes give it away."""
    s1, s2 = (real_game.load(p) for p in real_game.sessions)
    s1["session"]["id"], s2["session"]["id"] = 2, 1
    real_game.rewrite(real_game.sessions[0], builders.seal(s1, body=gpg_keys.body_signer))
    real_game.rewrite(real_game.sessions[1], builders.seal(s2, body=gpg_keys.body_signer))
    found = where(faults_of(real_game, gpg_keys))
    assert ("session-2.yaml", "session.meta.previous_hash") in found  # now "session 1"
    assert ("session-1.yaml", "session.meta.previous_hash") in found  # now "session 2"


def test_changed_player_name(real_game, gpg_keys):
    real_game.edit(real_game.game, lambda d: d["players"]["O"].update(name="Eve Impostor"))
    assert where(faults_of(real_game, gpg_keys)) == {("game.yaml", "tail.hash")}


def test_changed_player_name_rehashed(real_game, gpg_keys):
    def change(doc):
        doc["players"]["I"]["name"] = "Eve Impostor"
        doc["tail"]["hash"] = hashing.game_entry_hash(doc)
    real_game.edit(real_game.game, change)
    found = where(faults_of(real_game, gpg_keys))
    assert ("game.yaml", "tail.signatures.affiliated_body") in found
    assert ("session-1.yaml", "session.meta.previous_hash") in found


def test_signature_by_a_key_not_in_the_keyring(real_game, gpg_keys):
    """Re-sealed with another key that claims to be the body: not in the verifier's keyring."""
    doc = real_game.load(real_game.game)
    real_game.rewrite(real_game.game, builders.seal(doc, body=gpg_keys.other_signer))
    faults = faults_of(real_game, gpg_keys)
    assert where(faults) == {("game.yaml", "tail.signatures.affiliated_body")}
    assert "not in the keyring" in faults[0].message
    assert gpg_keys.other.key_id in faults[0].message


def test_signature_by_another_key_under_the_body_key_id(real_game, gpg_keys):
    """The other key's signature with the body's key_id: the keyring knows both keys."""
    def change(doc):
        block = doc["tail"]["signatures"]["affiliated_body"]
        _, block["signature"] = sign_hash(gpg_keys.other_signer, doc["tail"]["hash"])
    real_game.edit(real_game.game, change)
    faults = verify.verify_paths(real_game.paths, keyring=gpg_keys.signing)
    assert where(faults) == {("game.yaml", "tail.signatures.affiliated_body")}
    assert f"made by key {gpg_keys.other.key_id}" in faults[0].message


def test_signature_of_another_entry(real_game, gpg_keys):
    """A genuine body signature copied from another entry does not match this hash."""
    sig = real_game.session_docs[0]["session"]["tail"]["signatures"]["affiliated_body"]
    real_game.edit(real_game.game,
                   lambda d: d["tail"]["signatures"].update(affiliated_body=dict(sig)))
    faults = faults_of(real_game, gpg_keys)
    assert where(faults) == {("game.yaml", "tail.signatures.affiliated_body")}
    assert "bad signature" in faults[0].message


def test_body_key_signing_for_another_registrar(real_game, gpg_keys):
    doc = real_game.load(real_game.sessions[0])
    signer = gpg_keys.body_signer.__class__(gpg_keys.signing, gpg_keys.body.fingerprint,
                                            registrar_id="GTF-XX-ELSEWHERE-09")
    real_game.rewrite(real_game.sessions[0], builders.seal(doc, body=signer))
    faults = faults_of(real_game, gpg_keys)
    assert ("session-1.yaml", "session.tail.signatures.affiliated_body.registrar_id") in \
        where(faults)


def test_missing_body_signature(real_game, gpg_keys):
    real_game.edit(real_game.sessions[1], lambda d: d["session"]["tail"].pop("signatures"))
    faults = faults_of(real_game, gpg_keys)
    assert where(faults) == {("session-2.yaml", "session.tail.signatures.affiliated_body")}
    assert "missing" in faults[0].message


def test_garbage_signature(real_game, gpg_keys):
    junk = base64.b64encode(b"\x89\x01\x02not a signature").decode()
    real_game.edit(real_game.game,
                   lambda d: d["tail"]["signatures"]["affiliated_body"].update(signature=junk))
    faults = faults_of(real_game, gpg_keys)
    assert where(faults) == {("game.yaml", "tail.signatures.affiliated_body")}


def test_truncated_file(real_game, gpg_keys):
    path = real_game.sessions[0]
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    faults = faults_of(real_game, gpg_keys)
    files = {f.file.rsplit("/", 1)[-1] for f in faults}
    assert "session-1.yaml" in files
    # the session after it now lacks its predecessor
    assert ("session-2.yaml", "session.id") in where(faults)
    # every message is one clear line
    assert all("\n" not in str(f) for f in faults)


def test_truncated_to_nothing(real_game, gpg_keys):
    real_game.game.write_text("")
    faults = faults_of(real_game, gpg_keys)
    assert any(f.file.endswith("game.yaml") and "empty" in f.message for f in faults)


def test_session_of_another_game(real_game, gpg_keys):
    def change(doc):
        doc["session"]["meta"]["game_id"] = "00000000-0000-4000-8000-000000000000"
    real_game.edit(real_game.sessions[1], change)
    faults = faults_of(real_game, gpg_keys)
    assert ("session-2.yaml", "session.meta.game_id") in where(faults)


def test_session_after_the_end_of_the_game(real_game, gpg_keys):
    s2 = real_game.load(real_game.sessions[1])
    extra = builders.build_session_entry(
        session_id=3, game_id=s2["session"]["meta"]["game_id"],
        previous_hash=s2["session"]["tail"]["hash"], place="Szeged", time=1, turns=[],
        board=s2["session"]["board"])
    path = real_game.dir / "session-3.yaml"
    builders.write_entry(path, builders.seal(extra, body=gpg_keys.body_signer))
    faults = faults_of(real_game, gpg_keys, [*real_game.paths, path])
    assert where(faults) == {("session-3.yaml", "session")}
    assert "follows the end of the game" in faults[0].message


def test_missing_result_line(real_game, gpg_keys):
    """R31: the session in which the game ended ends with its result line."""
    doc = real_game.load(real_game.sessions[1])
    doc["session"]["turns"] = doc["session"]["turns"][:-1]
    real_game.rewrite(real_game.sessions[1], builders.seal(doc, body=gpg_keys.body_signer))
    faults = faults_of(real_game, gpg_keys)
    assert where(faults) == {("session-2.yaml", "session.turns")}
    assert "'!: I'" in faults[0].message


def test_two_different_game_entries(real_game, gpg_keys, tmp_path):
    doc = real_game.load(real_game.game)
    doc["meta"]["created"] += 1
    other = tmp_path / "game-copy.yaml"
    builders.write_entry(other, builders.seal(doc, body=gpg_keys.body_signer))
    faults = faults_of(real_game, gpg_keys, [*real_game.paths, other])
    assert ("game-copy.yaml", "game.id") in where(faults)


def test_the_same_file_twice_is_not_a_fault(real_game, gpg_keys):
    assert faults_of(real_game, gpg_keys, [*real_game.paths, real_game.sessions[0]]) == []


def test_session_without_its_game_entry(real_game, gpg_keys):
    faults = faults_of(real_game, gpg_keys, real_game.sessions)
    assert where(faults) == {("session-1.yaml", "session.meta.game_id"),
                             ("session-2.yaml", "session.meta.game_id")}
    assert "cannot be checked" in faults[0].message


def test_a_second_signature_smuggled_into_the_blob(real_game, gpg_keys):
    """A genuine body signature followed by another one in the same base64: refused."""
    def change(doc):
        block = doc["tail"]["signatures"]["affiliated_body"]
        _, extra = sign_hash(gpg_keys.other_signer, doc["tail"]["hash"])
        block["signature"] = base64.b64encode(
            base64.b64decode(block["signature"]) + base64.b64decode(extra)).decode()
    real_game.edit(real_game.game, change)
    faults = verify.verify_paths(real_game.paths, keyring=gpg_keys.signing)
    assert where(faults) == {("game.yaml", "tail.signatures.affiliated_body")}
    assert "exactly one is expected" in faults[0].message
