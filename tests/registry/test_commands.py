"""The management commands: create_body, register_player, recompute_ratings, and an export
read back by import_records (every game verified again; bad ones reported with reasons)."""

from __future__ import annotations

import json
import uuid
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from registry.jobs import export_records, import_records
from registry.ledger import recompute_all
from registry.models import AffiliatedBody, AuditEntry, Player, RegistryGame
from registry.submission import submit_game
from registry.tokens import find_token
from tests.registry.helpers import I_WINS, O_WINS, T0, expected_ratings, hours, records

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_create_body_and_register_player(tmp_path, body_keys):
    key = tmp_path / "pecs.asc"
    key.write_text(body_keys.public("pecs"))
    out = run("create_body", "GTF-HU-PECS-01", "--name", "Pecs Talu Club", "--stratum", "2",
              "--public-key-file", str(key), "--scoring-model", "S3")
    body = AffiliatedBody.objects.get(registrar_id="GTF-HU-PECS-01")
    assert (body.stratum, body.scoring_model, body.key_id) == (2, "S3", body_keys.pecs.key_id)
    token = out.strip().splitlines()[-1].split(": ")[-1]
    assert find_token(token).body == body
    with pytest.raises(CommandError, match="may not use the lower-stratum model S1"):
        run("create_body", "GTF-X-01", "--name", "X", "--stratum", "2",
            "--public-key-file", str(key), "--scoring-model", "S1")
    bad = tmp_path / "bad.asc"
    bad.write_text("not a key")
    with pytest.raises(CommandError, match="public key"):
        run("create_body", "GTF-X-02", "--name", "X", "--public-key-file", str(bad))
    # An id no signing key could carry (registry.records.keys.REGISTRAR_RE) is refused.
    with pytest.raises(CommandError, match="is not a registrar id"):
        run("create_body", "GTF/X:03", "--name", "X", "--public-key-file", str(key))
    assert AffiliatedBody.objects.count() == 1
    pid = run("register_player", "Marcus Tarell", "--body", "GTF-HU-PECS-01").strip()
    p = Player.objects.get(player_id=pid)
    assert (p.name, p.stratum, p.rating, p.body) == ("Marcus Tarell", 1, 250, body)
    pid2 = run("register_player", "Old Master", "--stratum", "3", "--rating", "1500").strip()
    assert Player.objects.get(player_id=pid2).start_rating == 1500
    with pytest.raises(CommandError, match="no affiliated body"):
        run("register_player", "X", "--body", "NOPE")


def test_recompute_command_repairs_ratings(body, body_keys, otb_players):
    stge, stses = records(body_keys.signer(), otb_players)
    submit_game(body, stge, stses)
    good = {p.pk: p.rating for p in Player.objects.all()}
    Player.objects.update(rating=999)
    out = run("recompute_ratings", "--no-progress")
    assert "2 players changed" in out
    assert {p.pk: p.rating for p in Player.objects.all()} == good
    assert AuditEntry.objects.filter(action="recompute").count() == 1


def test_export_then_import(tmp_path, body, body_keys, otb_players):
    for n, name in enumerate((I_WINS, O_WINS, I_WINS)):
        stge, stses = records(body_keys.signer(), otb_players, name, start=T0 + hours(n),
                              game_id=str(uuid.uuid4()))
        submit_game(body, stge, stses)
    want = {p.pk: p.rating for p in Player.objects.all()}
    out = tmp_path / "export"
    assert export_records(out, progress=False) == 3
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(manifest["games"]) == 3 and len(manifest["games"][0]["files"]) == 4
    with pytest.raises(Exception, match="not empty"):
        export_records(out, progress=False)
    # tamper with the last game's session entry
    victim = manifest["games"][2]
    stse = next(f for f in victim["files"] if f["kind"] == "STSE")
    path = out / stse["name"]
    path.write_text(path.read_text().replace("Szeged, Hungary", "Budapest"))
    RegistryGame.objects.all().delete()
    recompute_all()
    assert set(Player.objects.values_list("rating", flat=True)) == {250}
    report = import_records(out, progress=False)
    assert len(report.accepted) == 2
    assert any("SHA-256" in r for r in report.rejected[victim["game_id"]])
    assert RegistryGame.objects.count() == 2
    # the two games that came back are rated as the cascade of those two (R30)
    kept = list(RegistryGame.objects.order_by("played_at", "id"))
    assert [g.records.count() for g in kept] == [4, 4]
    assert {p.pk: p.rating for p in Player.objects.all()} == expected_ratings(kept) != want
    text = StringIO()
    with pytest.raises(CommandError, match="3 games were rejected"):
        call_command("import_records", str(out), "--no-progress", stdout=text, stderr=StringIO())
    assert f"rejected {victim['game_id']}:" in text.getvalue()
    assert "already in the registry" in text.getvalue()


def test_import_reports_unknown_body(tmp_path, body, other_body, body_keys, otb_players):
    stge, stses = records(body_keys.signer(), otb_players)
    submit_game(body, stge, stses)
    out = tmp_path / "export"
    export_records(out, progress=False)
    RegistryGame.objects.all().delete()
    body.registrar_id = "GTF-RENAMED"
    body.save()
    report = import_records(out, progress=False)
    [(_gid, reasons)] = report.rejected.items()
    assert "GTF-HU-SZEGED-01" in reasons[-1] and "not a registered affiliated body" in reasons[-1]


def test_import_needs_a_manifest(tmp_path, db):
    with pytest.raises(CommandError, match=r"manifest\.json not found"):
        run("import_records", str(tmp_path), "--no-progress")


@pytest.mark.parametrize("games", [["not an entry"], [{"files": "x"}], [{"files": [7]}]])
def test_a_malformed_manifest_is_a_clear_error_not_a_traceback(tmp_path, db, games):
    (tmp_path / "manifest.json").write_text(json.dumps(
        {"format": "talu-registry-export/1", "games": games}))
    with pytest.raises(CommandError, match="game 1 is not an entry with a list of files"):
        run("import_records", str(tmp_path), "--no-progress")
