"""``talu verify``, ``talu slip`` and ``talu keygen``: exit codes and outputs (CLI contract)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from registry.records import keys
from registry.records.yamlio import load_yaml
from talu_cli.main import main


def test_verify_ok(real_game, gpg_keys, capsys):
    code = main(["verify", "--keyring", str(gpg_keys.verifying), *map(str, real_game.paths)])
    out = capsys.readouterr()
    assert code == 0
    assert out.out.splitlines() == [f"{real_game.game}: ok (STGE)",
                                    f"{real_game.sessions[0]}: ok (STSE)",
                                    f"{real_game.sessions[1]}: ok (STSE)"]
    assert out.err == ""


def test_verify_faults_one_line_each(real_game, gpg_keys, capsys):
    real_game.edit(real_game.game, lambda d: d["players"]["I"].update(name="Eve"))
    real_game.edit(real_game.sessions[1], lambda d: d["session"]["board"].update(O="A6"))
    code = main(["verify", "--keyring", str(gpg_keys.verifying), *map(str, real_game.paths)])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert f"{real_game.game}: tail.hash: does not match the content (the entry was changed " \
           "after it was hashed)" in lines
    assert any(ln.startswith(f"{real_game.sessions[1]}: session.board.O: ") for ln in lines)
    assert all(re.match(r"^\S+: ", ln) for ln in lines)


def test_verify_uses_the_configured_keyring(real_game, gpg_keys, capsys, monkeypatch):
    monkeypatch.setenv("TALU_KEYRING", str(gpg_keys.verifying))
    assert main(["verify", *map(str, real_game.paths)]) == 0
    monkeypatch.setenv("TALU_KEYRING", str(real_game.dir / "no-such-keyring"))
    assert main(["verify", *map(str, real_game.paths)]) == 1
    out = capsys.readouterr().out
    assert "keyring" in out and "not found" in out


def test_verify_with_a_keyring_lacking_the_body_key(real_game, tmp_path, capsys):
    empty = keys.Keyring(tmp_path / "empty", create=True)
    assert main(["verify", "--keyring", str(empty.path), *map(str, real_game.paths)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert all("signature made by key" in ln and "not in the keyring" in ln for ln in lines)


def test_slip_prints_the_stdgs(real_game, capsys):
    code = main(["slip", str(real_game.game), *map(str, reversed(real_game.sessions))])
    out = capsys.readouterr()
    assert code == 0 and out.err == ""
    doc = load_yaml(out.out)
    assert doc["meta"]["format"] == "STDGS"
    assert [s["id"] for s in doc["sessions"]] == [1, 2]


def test_slip_of_a_tampered_game_prints_nothing(real_game, capsys):
    real_game.edit(real_game.sessions[0], lambda d: d["session"]["turns"].pop())
    code = main(["slip", str(real_game.game), *map(str, real_game.sessions)])
    out = capsys.readouterr()
    assert code == 1
    assert out.out == ""
    assert f"{real_game.sessions[0]}: session.tail.hash: does not match" in out.err


def test_slip_needs_a_session_entry(real_game, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["slip", str(real_game.game)])
    assert exc.value.code == 2


def test_keygen_prints_the_key_id(tmp_path, capsys):
    ring = tmp_path / "ring"
    try:
        code = main(["keygen", "--keyring", str(ring), "--registrar-id", "GTF-HU-PECS-02",
                     "--name", "Pécs Talu Kör", "--email", "kor@example.org"])
        out = capsys.readouterr()
        assert code == 0, out.err
        key_id = out.out.strip()
        assert re.fullmatch(r"0x[0-9A-F]{8}", key_id)
        info = keys.find_body_key(ring, "GTF-HU-PECS-02")
        assert info.key_id == key_id
        assert info.uids == ("Pécs Talu Kör (talu-registrar:GTF-HU-PECS-02) <kor@example.org>",)
        # a second key for the same body is refused
        assert main(["keygen", "--keyring", str(ring), "--registrar-id", "GTF-HU-PECS-02",
                     "--name", "Again"]) == 1
        assert "already has key" in capsys.readouterr().err
    finally:
        keys.stop_agent(ring)


@pytest.mark.parametrize("args, fragment", [
    (["--registrar-id", "bad id!", "--name", "Club"], "registrar id 'bad id!'"),
    (["--registrar-id", "GTF-1", "--name", "Club <evil>"], "name must be one line"),
    (["--registrar-id", "GTF-1", "--name", "Club", "--email", "nope"], "not an e-mail"),
])
def test_keygen_bad_input(tmp_path, capsys, args, fragment):
    assert main(["keygen", "--keyring", str(tmp_path / "ring"), *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("talu keygen: ") and fragment in err


def test_keygen_uses_the_configured_keyring(tmp_path, capsys, monkeypatch):
    ring = tmp_path / "configured"
    monkeypatch.setenv("TALU_KEYRING", str(ring))
    try:
        assert main(["keygen", "--registrar-id", "GTF-X-1", "--name", "Club X"]) == 0
        assert keys.find_body_key(ring, "GTF-X-1").key_id == capsys.readouterr().out.strip()
    finally:
        keys.stop_agent(ring)


def test_the_installed_command_exit_codes(real_game, gpg_keys):
    """The real process: exit 0 when good, 1 with faults, never a traceback."""
    base = [sys.executable, "-m", "talu_cli", "verify", "--keyring", str(gpg_keys.verifying)]
    ok = subprocess.run([*base, *map(str, real_game.paths)], capture_output=True, text=True,
                        timeout=120, check=False)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    real_game.sessions[0].write_text("session: [\n")
    bad = subprocess.run([*base, *map(str, real_game.paths)], capture_output=True, text=True,
                         timeout=120, check=False)
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    assert f"{real_game.sessions[0]}: broken YAML at line 2" in bad.stdout
