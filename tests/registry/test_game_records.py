"""Another game's kept record (issue 36, ``registry.game_records``): kept once per game,
signed with the site's key, downloadable beside talu's record files, and checked by
``talu verify`` as downloaded.

The run of two real workers at once needs PostgreSQL (concurrent writers): it is collected in
the services lane (``tests/lanes.py``) and wherever the database is PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from play.models import Game
from registry import game_records
from registry.game_records import GameFacts, KeepError, RecordEvent, RecordResult, RecordSeat
from registry.models import SignedGameRecord
from registry.recordkeeping import site_key
from registry.records import game_record, keys
from registry.records.errors import RecordError
from talu_cli.main import main
from tests import stack

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
NOTATION = "[variant:11x11]\n1. e1-e4 f7-f5\n2. ---\n"


@pytest.fixture
def finished(players) -> Game:
    """A finished game of the site (the seat model will say which game it is; the row is all
    ``keep_record`` needs)."""
    alice, bob, _ = players
    return Game.objects.create(player_i=alice, player_o=bob, status=Game.FINISHED,
                               finished=timezone.now())


def facts_of(row: Game, **changes) -> GameFacts:
    facts = GameFacts(
        game_id=row.uuid, game="tafl", variant="tafl/11x11", options={"immunity": True},
        time_control="fischer 300+5", started=T0, finished=T0 + timedelta(minutes=12),
        seats=(RecordSeat("attackers", "Attackers", "person", "alice", "alice", 1500),
               RecordSeat("defenders", "Defenders", "person", "bob", "bob", 1480)),
        result=RecordResult({"attackers": 2, "defenders": 1}, "resignation",
                            cause="resignation", detail="attackers resigned"),
        events=(RecordEvent(1, "move", "attackers", {"from": "e1", "to": "e4"}, "e1-e4"),
                RecordEvent(2, "move", "defenders", {"from": "f7", "to": "f5"}, "f7-f5"),
                RecordEvent(3, "resign", "attackers", {}, "resigns")),
        notation=NOTATION)
    return dataclasses.replace(facts, **changes)


@pytest.fixture
def site_keyring(tmp_path):
    """A verifier's keyring: the site's public key only, as a player downloading it has it."""
    ring = keys.Keyring(tmp_path / "verifier", create=True)
    keys.import_public_keys(ring, site_key().public_key)
    yield ring.path
    keys.stop_agent(ring.path)


def test_kept_signed_and_verified_as_downloaded(client, finished, site_keyring, tmp_path,
                                               capsys):
    kept = game_records.keep_record(facts_of(finished))
    assert kept.game == finished and kept.notation == NOTATION
    assert kept.fingerprint == site_key().fingerprint
    body = json.loads(kept.canonical)
    assert body["id"] == str(finished.uuid) and body["variant"] == "tafl/11x11"
    assert kept.hash == game_record.record_hash(body)

    resp = client.get(f"/games/{finished.uuid}/record.json")
    assert resp.status_code == 200
    assert resp["Content-Type"] == "application/json; charset=utf-8"
    assert resp["Content-Disposition"] == f'attachment; filename="{finished.uuid}.record.json"'
    path = tmp_path / "record.json"
    path.write_bytes(resp.content)
    assert main(["verify", "--keyring", str(site_keyring), str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: ok (talu-game-record/1)\n"

    doc = json.loads(resp.content)
    assert doc["result"]["ranks"] == {"attackers": 2, "defenders": 1}
    doc["result"]["ranks"] = {"attackers": 1, "defenders": 2}  # who won, changed
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", "--keyring", str(site_keyring), str(path)]) == 1
    assert "tail.hash: does not match the content" in capsys.readouterr().out


def test_the_notation_download(client, finished):
    game_records.keep_record(facts_of(finished))
    resp = client.get(f"/games/{finished.uuid}/notation.txt")
    assert resp.status_code == 200
    assert resp.content.decode("utf-8") == NOTATION
    assert resp["Content-Type"] == "text/plain; charset=utf-8"
    assert resp["Content-Disposition"] == f'attachment; filename="{finished.uuid}.notation.txt"'


@pytest.mark.parametrize("name", ["record.json", "notation.txt"])
def test_no_record_kept_is_a_clear_404(client, finished, name):
    for game_id in (finished.uuid, "0b4f5a9e-0000-4000-8000-000000000000"):
        resp = client.get(f"/games/{game_id}/{name}")
        assert resp.status_code == 404
        assert b"No signed record is kept for game" in resp.content
    assert client.post(f"/games/{finished.uuid}/{name}").status_code == 405


def test_a_second_call_returns_the_kept_one_without_signing(finished, monkeypatch):
    first = game_records.keep_record(facts_of(finished))

    def no_second_signature(*args, **kwargs):
        raise AssertionError("signed a second time")

    monkeypatch.setattr(game_record, "seal", no_second_signature)
    again = game_records.keep_record(facts_of(finished, notation="something else"))
    assert again.pk == first.pk and again.notation == NOTATION
    assert SignedGameRecord.objects.count() == 1


def test_two_workers_at_once_keep_one_record(finished, monkeypatch):
    """The other worker's row is written between this one's look and its insert: this one
    returns that row, and writes nothing."""
    seal = game_record.seal
    theirs: list[SignedGameRecord] = []

    def other_worker_wins(doc, signer):
        sealed = seal(doc, signer)
        theirs.append(SignedGameRecord.objects.create(
            game=finished, notation="theirs", canonical="{}", hash="0" * 64, signature="",
            registrar_id="X", fingerprint="F"))
        return sealed

    monkeypatch.setattr(game_record, "seal", other_worker_wins)
    kept = game_records.keep_record(facts_of(finished))
    assert kept.pk == theirs[0].pk and kept.notation == "theirs"
    assert SignedGameRecord.objects.filter(game=finished).count() == 1


def test_refusals_write_nothing(finished):
    with pytest.raises(KeepError, match="no game"):
        game_records.keep_record(facts_of(finished, game_id="0b4f5a9e-0000-4000-8000-"
                                                             "000000000000"))
    with pytest.raises(KeepError, match="book's records"):
        game_records.keep_record(facts_of(finished, game="talu", variant="talu/standard"))
    with pytest.raises(RecordError) as err:
        game_records.keep_record(facts_of(finished, result=RecordResult(
            {"attackers": 1, "defenders": 3}, "decision")))
    assert err.value.faults[0].path == "result.ranks"
    assert not SignedGameRecord.objects.exists()


if connection.vendor == "postgresql" or stack.on_services():

    @pytest.mark.django_db(transaction=True)
    def test_two_real_workers_at_once_keep_one_record(finished, monkeypatch):
        """Both look, find nothing, sign; the unique game column lets one insert, and the
        other returns that row."""
        both_signed = threading.Barrier(2, timeout=30)
        seal = game_record.seal

        def seal_then_wait(doc, signer):
            sealed = seal(doc, signer)
            both_signed.wait()
            return sealed

        monkeypatch.setattr(game_record, "seal", seal_then_wait)
        kept: list[int] = []

        def run() -> None:
            try:
                kept.append(game_records.keep_record(facts_of(finished)).pk)
            finally:
                close_old_connections()
                connection.close()

        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(kept) == 2 and kept[0] == kept[1]
        assert SignedGameRecord.objects.filter(game=finished).count() == 1
