"""Records written in the book's spelling (``0``, ``player_0``) are read correctly (R31)."""

from __future__ import annotations

from registry.records import hashing, schema, verify
from registry.records.signing import sign_hash
from registry.records.slip import build_slip
from registry.records.yamlio import load_yaml

from .helpers import GAME_ID, REAL_GAME, canonical_lines

GAME_ENTRY = f"""\
meta:
  format: "STGE"
  format_version: "1.0.0"
  created: 1708442000

game:
  id: "{GAME_ID}"
  type: "standard"
  ruleset_version: "2.0.0"
  notation_version: "1.0"

players:
  I:
    id: "2894-8Y7I"
    name: "Marcus Tarell"
  0:
    id: "I2D5-XN9G"
    name: "Alice Vorin"
"""

SESSION = """\
session:
  id: 1
  meta:
    format: "STSE"
    format_version: "1.0.0"
    created: 1708442160
    game_id: "{game_id}"
    previous_hash: "{previous}"

  start:
    place: "Szeged, Hungary"
    time: 1708442160

  turns:
{turns}

  board:
    I: "{board_i}"
    0: "{board_o}"
"""


def tail_yaml(indent: str, digest: str, blocks: dict[str, str]) -> str:
    lines = [f"{indent}tail:", f'{indent}  hash: "{digest}"', f"{indent}  signatures:"]
    for role, (key_id, sig, registrar) in blocks.items():
        lines.append(f"{indent}    {role}:")
        if registrar:
            lines.append(f'{indent}      registrar_id: "{registrar}"')
        lines += [f'{indent}      key_id: "{key_id}"', f'{indent}      signature: "{sig}"']
    return "\n".join(lines) + "\n"


def book_records(gpg_keys, *, board_o=None):
    """A game entry and one session written by hand the book's way, hashed and signed."""
    body, player = gpg_keys.body_signer, gpg_keys.other_signer
    entry_doc = load_yaml(GAME_ENTRY)
    digest = hashing.game_entry_hash(entry_doc)
    entry_text = GAME_ENTRY + "\n" + tail_yaml("", digest, {
        "affiliated_body": (*sign_hash(body, digest), "GTF-HU-SZEGED-01")})

    lines = canonical_lines(REAL_GAME)
    turns = [ln.replace(" O: ", " 0: ").replace("!: O", "!: 0") for ln in lines]
    session_text = SESSION.format(
        game_id=GAME_ID, previous=digest,
        turns="\n".join(f'    - "{t}"' for t in turns),
        board_i="A4 C2 D4 D6 E4 E8 F6 G3 H5", board_o=board_o or "A6 C7")
    sdigest = hashing.session_hash(load_yaml(session_text)["session"])
    session_text += "\n" + tail_yaml("  ", sdigest, {
        "player_I": (*sign_hash(player, sdigest), None),
        "player_0": (*sign_hash(player, sdigest), None),
        "affiliated_body": (*sign_hash(body, sdigest), "GTF-HU-SZEGED-01")})
    return entry_text, session_text


def test_the_book_spelling_is_read_as_side_O():
    doc = load_yaml(GAME_ENTRY)
    assert 0 in doc["players"]  # what YAML makes of a bare 0
    assert schema.sides(doc["players"])["O"]["name"] == "Alice Vorin"
    assert schema.side_of(0) == schema.side_of("0") == schema.side_of("O") == "O"
    assert schema.side_of(False) is None and schema.side_of("o") is None
    assert schema.role_of("player_0") == "player_O"


def test_book_spelled_records_verify(gpg_keys, tmp_path):
    entry, session = book_records(gpg_keys)
    (tmp_path / "game.yaml").write_text(entry)
    (tmp_path / "session.yaml").write_text(session)
    faults = verify.verify_paths([tmp_path / "game.yaml", tmp_path / "session.yaml"],
                                 keyring=gpg_keys.signing)
    assert faults == []


def test_a_wrong_board_is_named_as_written(gpg_keys, tmp_path):
    entry, session = book_records(gpg_keys, board_o="A6 C8")
    (tmp_path / "game.yaml").write_text(entry)
    (tmp_path / "session.yaml").write_text(session)
    faults = verify.verify_paths([tmp_path / "game.yaml", tmp_path / "session.yaml"],
                                 keyring=gpg_keys.signing)
    assert [(f.path, f.message) for f in faults] == [
        ("session.board.0",
         "does not match the position the turns reach (missing C7; C8 not occupied by O)")]


def test_the_hash_covers_the_spelling_as_written(gpg_keys):
    """R32 hashes the document exactly as written: 0 and O are different bytes."""
    doc = load_yaml(GAME_ENTRY)
    respelled = dict(doc, players={"I": doc["players"]["I"], "O": doc["players"][0]})
    assert hashing.game_entry_hash(doc) != hashing.game_entry_hash(respelled)
    assert b'"0":{"id":"I2D5-XN9G"' in hashing.canonical_json(doc)


def test_a_slip_of_book_spelled_entries(gpg_keys):
    entry, session = book_records(gpg_keys)
    entry_doc, session_doc = load_yaml(entry), load_yaml(session)
    slip = build_slip(entry_doc, [session_doc], generated_at=0)
    # writers emit O (R31) where the slip writes for itself ...
    assert list(slip["players"]) == ["I", "O"]
    assert list(slip["tally"]) == ["generated", "player_I", "player_O"]
    # ... and embed the sessions unchanged (R35), so their hashes still check
    assert slip["sessions"][0] == session_doc["session"]
    assert 0 in slip["sessions"][0]["board"]
    from registry.records.verify import record_from_doc, verify_records

    assert verify_records([record_from_doc(slip, "slip")], keyring=gpg_keys.signing) == []
