"""Migration 0002 carries existing rows: a finished live game with records and rating changes
made before issue 6 becomes an archived game and its rows point to it; the first recompute
tallies it from its notation (a migration imports no live code, so it cannot replay the game)
and rates it exactly as the ledger would."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from play.lifecycle import start_game
from play.models import GameEvent
from registry.ledger import recompute_all
from registry.models import Player as RegistryPlayer
from registry.models import RegistryGame
from tests.registry.helpers import expected_ratings
from tests.site.gameplay import FORFEIT_BY_I, play_line

OLD = [("play", "0001_initial"), ("registry", "0001_initial")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_existing_game_rows_are_carried(players):
    alice, bob, _ = players
    game = start_game(alice, bob, rated=True)
    play_line(game, FORFEIT_BY_I)
    events = list(GameEvent.objects.filter(game=game).order_by("version")
                  .values_list("version", "kind", "side", "data", "text"))
    graph = MigrationExecutor(connection).loader.graph
    latest = graph.leaf_nodes()  # every app's: events (registry.events) depends on registry
    call_command("flush", interactive=False, verbosity=0)
    try:
        old = migrate(OLD)
        User = old.get_model("auth", "User")
        a = User.objects.create(username="alice")
        b = User.objects.create(username="bob")
        Game = old.get_model("play", "Game")
        g = Game.objects.create(uuid=game.uuid, player_i=a, player_o=b, status="finished",
                                winner="O", reason="forfeit", version=len(events),
                                finished=game.finished, stgn=game.stgn)
        for version, kind, side, data, text in events:
            old.get_model("play", "GameEvent").objects.create(
                game=g, version=version, kind=kind, side=side, data=data, text=text)
        Player = old.get_model("registry", "Player")
        pa, pb = Player.objects.create(user=a), Player.objects.create(user=b)
        RC = old.get_model("registry", "RatingChange")
        for p, side, won in ((pa, "I", False), (pb, "O", True)):
            RC.objects.create(player=p, game=g, side=side, model="S1", stratum=1,
                              old_rating=250, new_rating=1, rating_after=1, won=won)
        old.get_model("registry", "GameRecord").objects.create(game=g, kind="STGE",
                                                               content="x")
    finally:
        new = migrate(latest)
    Archived = new.get_model("registry", "RegistryGame")
    arch = Archived.objects.get()
    assert (str(arch.game_id), arch.live_id, arch.status, arch.winner) == (
        str(game.uuid), g.pk, "finished", "O")
    assert arch.tally == {} and arch.rated  # tallied by the first recompute, below
    assert arch.body.registrar_id == settings.TALU_REGISTRAR_ID
    assert set(new.get_model("registry", "RatingChange").objects.values_list(
        "game_id", flat=True)) == {arch.pk}
    assert new.get_model("registry", "GameRecord").objects.get().game_id == arch.pk

    summary = recompute_all()  # the carried rows had placeholder ratings: all repaired
    assert summary.rows_written >= 2
    tallied = RegistryGame.objects.get()
    assert tallied.tally["winner"] == "O" and tallied.tally["reason"] == "forfeit"
    assert tallied.rounds == tallied.tally["rounds"] > 0
    assert {p.pk: p.rating for p in RegistryPlayer.objects.all()} == expected_ratings(
        list(RegistryGame.objects.all()))
