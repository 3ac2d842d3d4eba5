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


# --- issue 36: play 0009 seats every game of today's database ------------------------------

SEATS_BEFORE = [("play", "0008_h20_event_resume")]


def _facts(client, games):
    """What a person and the registry see of ``games``: each game page (less its form tokens
    and the moment it was served), the game's records and the players' ratings and rating
    changes."""
    import re

    from registry.models import GameRecord, RatingChange
    moment = re.compile(r'(csrfmiddlewaretoken" value="|"server_time": )[^">,}]+')
    pages = {str(g.uuid): moment.sub(r"\1", client.get(f"/games/{g.uuid}/").content.decode())
             for g in games}
    records = sorted(GameRecord.objects.values_list("game_id", "kind", "session", "content"))
    changes = sorted(RatingChange.objects.values_list("game_id", "player_id", "model",
                                                      "old_rating", "new_rating"))
    ratings = sorted(RegistryPlayer.objects.values_list("pk", "rating"))
    return pages, records, changes, ratings


@pytest.mark.django_db(transaction=True)
def test_seats_migration_moves_todays_games_and_changes_no_page_record_or_rating(
        players, client):
    from play.commands.player import submit_as
    from play.models import Game, Seat
    from tests.site.gameplay import NULL_GAME

    alice, bob, carol = players
    won = start_game(alice, bob, rated=True)
    play_line(won, FORFEIT_BY_I)
    null = start_game(bob, carol, rated=True)
    play_line(null, NULL_GAME)
    live = start_game(carol, alice, rated=False, time_control="fischer 300+5")
    assert submit_as(live.uuid, carol, "step", step={"kind": "move", "from": "A2", "to": "A3"},
                     version=0).ok
    games = [won, null, live]
    seats = sorted(Seat.objects.values_list("game_id", "seat", "order", "kind", "user_id",
                                            "rating", "rank"))
    ranks = dict(Game.objects.values_list("pk", "ranks"))
    assert ranks[won.pk] == {"I": 2, "O": 1} and ranks[null.pk] is None
    assert ranks[live.pk] is None
    client.force_login(alice)
    from play import gameview
    gameview.forget()  # another test's game of the same pk may have left its players cached
    before = _facts(client, games)

    graph = MigrationExecutor(connection).loader.graph
    latest = graph.leaf_nodes()
    try:
        old = migrate(SEATS_BEFORE)  # today's database: no seats, no ranks, no game key
        assert "seat" not in {m._meta.model_name for m in old.get_app_config("play")
                              .get_models()}
    finally:
        migrate(latest)
    assert sorted(Seat.objects.values_list("game_id", "seat", "order", "kind", "user_id",
                                           "rating", "rank")) == seats
    assert dict(Game.objects.values_list("pk", "ranks")) == ranks
    assert set(Game.objects.values_list("game", flat=True)) == {"talu"}
    gameview.forget()
    assert _facts(client, games) == before
