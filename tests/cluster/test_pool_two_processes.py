"""Quick pairing across the cluster (issue 23, R47): 200 players join and leave a pool over two
server processes while two workers race for its waves.

Each player keeps the lobby's websocket open on one process and calls the pool's API on the
other (so that every pairing crosses the channel layer, Redis, to reach them). Their ratings
are spread over 1,000 points, so some are paired at once (an early wave, someone in range)
and some wait regular waves for their range to widen. They join at random moments; a third
of them leave after a short, random wait (the moment a wave may be pairing them), and half of
those join again. A few outliers, rated thousands of points from anyone, join, leave and
join and leave again (nobody is in their range for many waves: their leave is never too
late). Then:

- every game the waves started has two of these players, both sent to it over their lobby
  socket (``paired``), and each pairing started exactly one game: nobody was sent two games,
  nobody is in two games;
- a leave that the API confirmed (204) took the player out at once: they are in no game, were
  sent none, and nothing of theirs is left in the pool; a leave refused (409: "a game has
  started") means they were paired, and their game reaches them;
- the pairing state (``GET /api/v1/pool/me/``) of everyone paired names the game they were
  sent to, and at the end at most one player (an odd one out) is still waiting.
"""

from __future__ import annotations

import asyncio
import random
import time

import psycopg
import pytest

from tests.cluster.lobby import LobbyPlayer

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

CLUSTER_SERVERS = 2
CLUSTER_WORKERS = 2
# Waves often (every 0.5 s from each worker's view, and at once when a joiner has someone in
# range), so that leaves race waves; the lobby sockets' heartbeat of the production default.
# No persistent database connections: Django's ASGI handler runs each request on a thread of
# its own, whose connection (kept 60 s by default) lingers until garbage collection; 200
# players' requests held 64 of the shared test server's 100 connections, and other tests
# running beside them were refused ("too many clients").
CLUSTER_ENV = {"TALU_POOL_WAVE": "0.5", "TALU_WORKER_POLL": "0.25", "TALU_WS_HEARTBEAT": "20",
               "DB_CONN_MAX_AGE": "0"}

PLAYERS = 200
OUTLIERS = 10  # of them: rated 100,000 and more, 100,000 apart (thousands of waves)
SPREAD = 15.0  # seconds over which the first joins arrive
LEAVERS = 1 / 3  # of the players leave after their join, at a random moment
REJOIN = 0.5  # of those who left join again
SETTLE = 60.0  # seconds for the last pairings to reach their players


async def _player(p: LobbyPlayer, rng: random.Random, log: dict[str, list],
                  outlier: bool = False) -> None:
    """One player's script: join; maybe leave (maybe join again); note what the API said.
    An outlier joins and leaves twice."""
    await asyncio.sleep(rng.uniform(0, SPREAD))
    for _ in range(2):
        answer = await p.join()
        assert answer.status == 201, (p.name, answer, _server_log(p))
        assert answer.body["status"] in ("waiting", "paired"), (p.name, answer.body)
        log[p.name].append("join")
        if not outlier and rng.random() >= LEAVERS:
            return  # stays until paired
        await asyncio.sleep(rng.uniform(0, 1.5))
        answer = await p.leave()
        if answer.status == 409:  # a wave paired them first: their game is on its way
            log[p.name].append("leave refused")
            return
        assert answer.status == 204, (p.name, answer, _server_log(p))
        log[p.name].append("left")
        if not outlier and rng.random() >= REJOIN:
            return
        await asyncio.sleep(rng.uniform(0, 1.0))


def _server_log(p: LobbyPlayer) -> str:
    return p.cluster.servers[p.http_server].tail()


def _rate(cluster, ratings: dict[str, int]) -> None:
    """Give the accounts these ratings (their registry players, R26)."""
    with psycopg.connect(cluster.database.url) as conn:
        conn.cursor().executemany(
            "UPDATE registry_player SET rating = %s FROM auth_user u "
            "WHERE u.username = %s AND registry_player.user_id = u.id",
            [(rating, name) for name, rating in ratings.items()])


def _database_facts(cluster, names: list[str]
                    ) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """(game uuid, light's name, dark's name) of every game one of ``names`` plays in; (name,
    status, game uuid) of their pool entries. (The stack serves every cluster test: games of
    other tests' players are theirs.)"""
    with psycopg.connect(cluster.database.url) as conn:
        games = conn.execute(
            "SELECT g.uuid::text, i.username, o.username FROM play_game g "
            "JOIN auth_user i ON g.player_i_id = i.id JOIN auth_user o ON g.player_o_id = o.id "
            "WHERE i.username = ANY(%s) OR o.username = ANY(%s)", [names, names]
        ).fetchall()
        entries = conn.execute(
            "SELECT u.username, e.status, g.uuid::text FROM play_poolentry e "
            "JOIN auth_user u ON e.user_id = u.id LEFT JOIN play_game g ON e.game_id = g.id "
            "WHERE u.username = ANY(%s)", [names]
        ).fetchall()
    return games, entries


async def test_200_players_over_two_processes_and_two_workers(cluster):
    rng = random.Random(23)
    names = [f"pp{n:03d}" for n in range(PLAYERS)]
    cookies = cluster.accounts(names)
    ratings = {name: 250 + 10 * rng.randrange(100) for name in names}
    outliers = set(names[::PLAYERS // OUTLIERS])
    ratings.update({name: 100_000 * (k + 1) for k, name in enumerate(sorted(outliers))})
    _rate(cluster, ratings)
    players = [LobbyPlayer(cluster, name, cookies[name], server=n % 2, http_server=(n + 1) % 2)
               for n, name in enumerate(names)]
    for k in range(0, PLAYERS, 25):  # in batches: the handshakes of 200 at once queue up
        await asyncio.gather(*(p.connect() for p in players[k:k + 25]))
    log: dict[str, list[str]] = {name: [] for name in names}
    try:
        await asyncio.gather(*(_player(p, random.Random(rng.random()), log, p.name in outliers)
                               for p in players))

        # The scripts are done: everyone not last seen leaving waits for their game (the
        # ranges widen until they take everyone in), except an odd one out.
        staying = [p for p in players if log[p.name][-1] != "left"]
        deadline = time.monotonic() + SETTLE
        while sum(1 for p in staying if not p.paired) > 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.25)
        await asyncio.sleep(1.5)  # anything doubled or late would arrive now
        games, entries = _database_facts(cluster, names)
    finally:
        await asyncio.gather(*(p.close() for p in players))

    by_name = {p.name: p for p in players}
    assert all(not p.problems for p in players), [(p.name, p.problems) for p in players
                                                  if p.problems]
    # Every game: two of our players, each sent to it once; nobody in two games.
    in_games = [name for _, light, dark in games for name in (light, dark)]
    twice = {n for n in in_games if in_games.count(n) > 1}
    assert not twice, ("a player is in two games",
                       {n: ([g for g in games if n in g[1:]], log[n], by_name[n].paired)
                        for n in sorted(twice)})
    assert set(in_games) <= set(names)
    for game, light, dark in games:
        for name in (light, dark):
            assert [g for g, _ in by_name[name].paired] == [game], (name, game,
                                                                    by_name[name].paired)
    sent = [p.name for p in players for _ in p.paired]
    assert sorted(sent) == sorted(in_games), "a player was sent a game they are not in"
    # Leaving: a confirmed leave is final; a refused one means a game reached them.
    for p in players:
        if log[p.name][-1] == "left":
            assert not p.paired, (p.name, log[p.name], p.paired)
        if "leave refused" in log[p.name]:
            assert p.paired, (p.name, log[p.name])
    left = {p.name for p in players if log[p.name][-1] == "left"}
    rows = {name: (status, game) for name, status, game in entries}
    assert not left & set(rows), "a player who left is still in the pool"
    waiting = {name for name, (status, _) in rows.items() if status == "waiting"}
    assert len(waiting) <= 1, waiting
    assert waiting == {p.name for p in players if p.name not in left and not p.paired}
    for name in in_games:
        assert rows[name] == ("paired", by_name[name].paired[0][0]), (name, rows.get(name))
    assert len(games) >= (PLAYERS - len(left)) // 2 - 1
    # Leaves that took a player out, and some that came too late, both happened; some who
    # left joined again.
    assert outliers <= left, {n: log[n] for n in outliers}
    assert any("leave refused" in log[n] for n in names), log
    assert any(log[n].count("join") == 2 for n in names), log
    # The pairing state over the API agrees, from the other process (a sample: 20 players).
    for p in rng.sample([by_name[n] for n in in_games], 20):
        state = await p.pairing()
        assert state["status"] == "paired" and state["game"]["id"] == p.paired[0][0], state
    for proc in [*cluster.servers, *cluster.workers]:
        text = proc.tail(1_000_000)
        assert "Traceback" not in text, text[-4000:]
