"""Bad input gives clear, path-named faults, never a traceback, and nothing is written."""

from __future__ import annotations

import copy

import pytest

from registry.records import builders, schema, verify
from registry.records.errors import RecordError
from registry.records.slip import build_slip, slip_from_files, write_slip
from registry.records.yamlio import dump_yaml
from talu_cli.main import main


def messages(doc) -> list[str]:
    _, faults = schema.check_document(doc)
    return [str(f) for f in faults]


@pytest.fixture
def entry(real_game):
    return copy.deepcopy(real_game.game_doc)


@pytest.fixture
def session(real_game):
    return copy.deepcopy(real_game.session_docs[0])


def test_valid_documents_have_no_structure_fault(real_game):
    assert messages(real_game.game_doc) == []
    for doc in real_game.session_docs:
        assert messages(doc) == []


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["game"].pop("type"), "game.type: missing"),
    (lambda d: d.pop("players"), "players: missing"),
    (lambda d: d["players"].pop("O"), "players.O: missing"),
    (lambda d: d["players"]["I"].pop("name"), "players.I.name: missing"),
    (lambda d: d["tail"].pop("hash"), "tail.hash: missing"),
    (lambda d: d["meta"].update(created="yesterday"),
     "meta.created: expected a unix timestamp (whole seconds), got a string ('yesterday')"),
    (lambda d: d["meta"].update(created=True), "meta.created: expected a unix timestamp"),
    (lambda d: d["meta"].update(created=1.5), "meta.created: expected a unix timestamp"),
    (lambda d: d["meta"].update(created=-1), "meta.created: expected a unix timestamp"),
    (lambda d: d["meta"].update(created=2**60), "meta.created: 1152921504606846976 is too large"),
    (lambda d: d["players"]["I"].update(name=12), "players.I.name: expected a string, got an "
                                                  "integer (12) (write it in quotes)"),
    (lambda d: d["players"]["I"].update(name=""), "players.I.name: must not be empty"),
    (lambda d: d["game"].update(id="c8b7-4e901"), "game.id: expected an RFC 4122 UUID"),
    (lambda d: d["game"].update(type="chess"), "game.type: unknown game type 'chess'"),
    (lambda d: d["game"].update(ruleset_version="3.0.0"),
     "game.ruleset_version: unsupported ruleset version '3.0.0'"),
    (lambda d: d["game"].update(notation_version=1.0),
     "game.notation_version: expected the string '1.0', got a number (1.0)"),
    (lambda d: d["meta"].update(format_version="2.0.0"),
     "meta.format_version: unsupported format_version '2.0.0'"),
    (lambda d: d["meta"].update(format="XYZ"), "meta.format: unknown format 'XYZ'"),
    (lambda d: d["meta"].pop("format"), "meta.format: missing"),
    (lambda d: d["game"].update(colour="red"), "game.colour: unknown field"),
    (lambda d: d.update(ruleset_version="2.0.0"), "ruleset_version: belongs under game (R31)"),
    (lambda d: d["players"].update(X={"id": "a", "name": "b"}), "players.X: unknown side"),
    (lambda d: d["players"].update({0: d["players"]["O"]}), "players.0: side O given twice"),
    (lambda d: d["tail"].update(hash="ABC"), "tail.hash: expected a lower-case hex SHA-256"),
    (lambda d: d["tail"]["signatures"]["affiliated_body"].update(key_id="0xabcdef12"),
     "tail.signatures.affiliated_body.key_id: expected '0x' and the last 8 hex digits"),
    (lambda d: d["tail"]["signatures"]["affiliated_body"].update(signature="not base64!"),
     "tail.signatures.affiliated_body.signature: not valid base64"),
    (lambda d: d["tail"]["signatures"]["affiliated_body"].pop("registrar_id"),
     "tail.signatures.affiliated_body.registrar_id: missing"),
    (lambda d: d["tail"]["signatures"].update(notary={}),
     "tail.signatures.notary: unknown signer"),
])
def test_game_entry_faults_name_the_field(entry, change, expected):
    change(entry)
    found = messages(entry)
    assert any(m.startswith(expected) for m in found), found


@pytest.mark.parametrize("change, expected", [
    (lambda s: s["turns"].__setitem__(4, 12), "session.turns[4]: expected a string, got an "
                                              "integer (12)"),
    (lambda s: s["turns"].__setitem__(2, "001 I: A1\n001 O: ."),
     "session.turns[2]: must be a single line"),
    (lambda s: s.update(turns="001 I: A1-B1"), "session.turns: expected a list"),
    (lambda s: s.update(id=0), "session.id: expected a positive integer >= 1, got 0"),
    (lambda s: s.update(id="1"), "session.id: expected a positive integer, got a string"),
    (lambda s: s["board"].update(O=7), "session.board.O: expected a string of squares"),
    (lambda s: s["board"].update(O="A6 ZZ9 A6"), "session.board.O: not a square: 'ZZ9'"),
    (lambda s: s["board"].update(O="A6 A6"), "session.board.O: square listed twice: A6"),
    (lambda s: s["meta"].pop("previous_hash"), "session.meta.previous_hash: missing"),
    (lambda s: s["meta"].update(format="STGE"), "session.meta.format: unknown format 'STGE'"),
    (lambda s: s["start"].update(time="noon"), "session.start.time: expected a unix timestamp"),
    (lambda s: s.update(arbiter=[{"turn": "014 O", "action": None}]),
     "session.arbiter[0].action: expected a string, got nothing (null) (write 'null' in quotes"),
    (lambda s: s.update(arbiter=[{"turn": "14", "action": "warn"}]),
     "session.arbiter[0].turn: expected a turn like '014 O'"),
    (lambda s: s.update(arbiter=[{"turn": "014 O", "action": "shout"}]),
     "session.arbiter[0].action: unknown action 'shout'"),
    (lambda s: s.update(arbiter=[{"turn": "014 O", "action": "warn", "side": "X"}]),
     "session.arbiter[0].side: expected I or O"),
    # R39 add_time: the side and the whole seconds added to its clock
    (lambda s: s.update(arbiter=[{"turn": "014 O", "action": "add_time", "side": "I"}]),
     "session.arbiter[0].seconds: missing"),
    (lambda s: s.update(arbiter=[{"turn": "014 O", "action": "add_time", "seconds": 60}]),
     "session.arbiter[0].side: missing"),
    (lambda s: s.update(arbiter=[{"turn": "014 O", "action": "add_time", "side": "I",
                                  "seconds": 0}]),
     "session.arbiter[0].seconds: expected a whole number of seconds above 0"),
    (lambda s: s.update(arbiter=[{"turn": "014 O", "action": "add_time", "side": "I",
                                  "seconds": "60"}]),
     "session.arbiter[0].seconds: expected a whole number of seconds above 0"),
    (lambda s: s.update(arbiter=[{"turn": "014 O", "action": "warn", "side": "I",
                                  "seconds": 60}]),
     "session.arbiter[0].seconds: only an add_time item has seconds"),
])
def test_session_entry_faults_name_the_field(session, change, expected):
    change(session["session"])
    found = messages(session)
    assert any(m.startswith(expected) for m in found), found


def test_misplaced_body_signature_points_to_r31(session):
    session["affiliated_body"] = session["session"]["tail"]["signatures"]["affiliated_body"]
    assert "affiliated_body: belongs under session.tail.signatures (R31)" in messages(session)


def test_top_level_that_is_not_a_mapping():
    assert messages(["a", "b"]) == ["expected a mapping at the top, got a list"]


def test_a_date_where_a_timestamp_belongs(entry):
    import datetime

    entry["meta"]["created"] = datetime.date(2024, 2, 20)
    assert "meta.created: expected a unix timestamp (whole seconds), got a date (2024-02-20)" \
        in messages(entry)


def test_every_fault_is_reported_at_once(entry):
    entry["game"].pop("type")
    entry["players"]["I"]["name"] = 5
    entry["meta"]["created"] = "x"
    assert len(messages(entry)) == 3


def test_slip_session_paths_are_indexed(real_game):
    slip = build_slip(real_game.game_doc, real_game.session_docs, generated_at=0)
    slip["sessions"][1]["turns"][4] = ["not", "a", "line"]
    slip["tally"]["player_I"]["A.a"] = -2
    slip["tally"]["player_0"] = slip["tally"]["player_O"]
    found = messages(slip)
    assert any(m.startswith("sessions[1].turns[4]: expected a string, got a list") for m in found)
    assert any(m.startswith("tally.player_I.A.a: expected a non-negative integer") for m in found)
    assert any(m.startswith("tally.player_0: player_O given twice") for m in found)


# --- through files and the CLI: no traceback, nothing written -------------------------------

BAD_FILES = {
    "broken.yaml": "meta:\n  format: STGE\n  created: [1, 2\n",
    "tabs.yaml": "meta:\n\tformat: STGE\n",
    "list.yaml": "- 1\n- 2\n",
    "scalar.yaml": "just words\n",
    "unknown.yaml": "meta:\n  format: STXX\n",
    "noformat.yaml": "game:\n  id: 1\n",
    "binary.yaml": b"\x00\xff\xfe junk",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_cli_verify_bad_files(tmp_path, capsys, name):
    path = tmp_path / name
    data = BAD_FILES[name]
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    assert main(["verify", "--keyring", str(tmp_path), str(path)]) == 1
    out = capsys.readouterr()
    assert out.out.startswith(f"{path}: ")
    assert "Traceback" not in out.out + out.err


def test_cli_verify_a_missing_file(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "nope.yaml")]) == 1
    assert capsys.readouterr().out == f"{tmp_path / 'nope.yaml'}: no such file\n"


def test_cli_verify_a_directory(tmp_path, capsys):
    assert main(["verify", str(tmp_path)]) == 1
    assert "not a regular file" in capsys.readouterr().out


def test_write_entry_writes_nothing_when_the_entry_is_wrong(real_game, tmp_path):
    doc = copy.deepcopy(real_game.session_docs[0])
    doc["session"]["turns"][0] = "001 I: H2-H3"
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(RecordError, match=r"session\.tail\.hash: does not match"):
        builders.write_entry(out / "session.yaml", doc)
    assert list(out.iterdir()) == []  # no temp file left behind either


def test_write_entry_never_overwrites_a_game_entry(real_game):
    with pytest.raises(RecordError, match="already exists"):
        builders.write_entry(real_game.game, real_game.game_doc)


def test_slip_writes_nothing_when_a_session_is_wrong(real_game, tmp_path, capsys):
    real_game.sessions[1].write_text(real_game.sessions[1].read_text()[:200])
    with pytest.raises(RecordError):
        slip_from_files(real_game.game, real_game.sessions)
    assert main(["slip", str(real_game.game), *map(str, real_game.sessions)]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert f"{real_game.sessions[1]}: " in out.err


def test_write_slip_refuses_a_tampered_slip(real_game, tmp_path):
    slip = build_slip(real_game.game_doc, real_game.session_docs, generated_at=0)
    slip["tally"]["player_O"]["A.a"] += 1
    target = tmp_path / "slip.yaml"
    with pytest.raises(RecordError, match=r"tally.player_O.A.a: is 4, the notation gives 3"):
        write_slip(target, dump_yaml(slip))
    assert not target.exists()


def test_check_game_docs_reports_instead_of_raising(real_game):
    result = verify.check_game_docs({"meta": 5}, [["x"]], check_signatures=False)
    assert result.game is None
    assert [str(f) for f in result.faults] == [
        "meta: expected a mapping, got an integer (5)",
        "<session entry 0>: expected a mapping at the top, got a list",
    ]
