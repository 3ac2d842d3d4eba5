"""Quick pairing (R47): joining and leaving a pool, a player's pairing state, and one wave.

A pool is a variant (of any game with two seats: talu's by its name, another game's by key,
``tafl/11x11``), a time-control preset and rated or freeplay, its players paired by their
rating in that game. Joining puts the player's row
in it (one pool at a time: joining another moves them); leaving deletes the row at once. The
worker runs the waves (``play.worker.loop``): :func:`run_due_waves` claims a pool's next wave
by a conditional update of its wave number, so two workers never run the same wave, pairs the
waiting players with the pure core (``play.lobby.pool_pairing``), and for each pair flips both
rows from waiting to paired in one conditional update before the game starts (a player who
left in between, or was paired by another worker, is simply not there: the pair is skipped).

Who may wait (issue 41; R47 does not say, so the site decides as one board, one player): an
active account that is not at the board already. A player in a game
played in one sitting (a live time control, not adjourned: :func:`game_in_play`), from the
pool or anywhere else, is refused a join (one player, one board: the pool's opponent would wait
on someone playing elsewhere, and one of the two games would be lost on time); correspondence
and untimed games, played over days beside others, do not count. A deactivated account is
taken out when it is deactivated (``play.lobby.deactivation``), and every round of waves first
takes out whoever may no longer wait (deactivated, or since at the board:
:func:`take_out_unpairable`); a pair's flip checks it again, so neither is ever paired.

Two kinds of wave: the *regular* wave of R47, every ``TALU_POOL_WAVE`` seconds (or at once when
the pool is large), after which everyone left waiting has waited one wave more and their range
widens; and, only with ``TALU_POOL_EARLY_WAVES`` on (off by default: R47 as written has no such
wave), the *early* wave, run as soon as two waiting players accept each other (a join that
finds someone in its range wakes the workers, :func:`wants_wave_now`): it pairs whoever can be
paired now and widens nobody, so a pair never waits out the interval (the join-to-game
benchmark, ``benchmarks/bench_matchmaking.py``, measured that wait: seconds at 100 joins a
minute) while the widening keeps the interval's beat.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from play import conf, ports
from play.chat import restrictions
from play.games import clock
from play.games.registry import two_seat_choices, variant_of
from play.lifecycle import StartError, start_table
from play.lobby import challenges
from play.lobby.pool_pairing import (
    FLOOR_SLACK,
    Seeker,
    acceptable_range,
    accepts,
    in_range,
    pair_wave,
)
from play.models import Challenge, Game, Pool, PoolEntry
from talu_site import ratelimit

#: The pools' time controls: the real-time presets (issue 20); correspondence and untimed games
#: are offered by challenges (nobody waits days in a pool).
POOL_TIME_CONTROLS: tuple[str, ...] = tuple(
    value for value, _ in clock.PRESETS if value.startswith("fischer"))


class PoolError(ValueError):
    """A join or leave refused, in a user's words."""


class RateLimited(PoolError):
    """Too many joins or leaves (``ratelimit`` "pool_join", "pool_leave"): come back later."""


class Busy(PoolError):
    """The player is at the board already (:func:`game_in_play`): one game at a time."""


def pool_variants() -> list[tuple[str, str]]:
    """(value, label) of every variant with a pool: each game's two-seat variants, as the
    challenge form offers them (``variant_choices``), in the catalogue's order."""
    return two_seat_choices()


def pool_title(variant: str) -> str:
    """A pool's variant as a person reads it ("standard", "Tafl · 11x11")."""
    return dict(pool_variants()).get(variant, variant)


def _game(pool_variant: str) -> tuple[str, str]:
    """The game key and variant name of a pool's variant (its ratings are that game's)."""
    spec = variant_of(pool_variant)
    return spec.game, spec.name


def pool_for(variant: str, time_control: str, rated: bool) -> Pool:
    """The pool of these settings (checked; created on first use)."""
    if variant not in dict(pool_variants()):
        raise PoolError(f"unknown variant {variant!r}: the pools play "
                        + ", ".join(label for _, label in pool_variants()))
    try:
        time_control = str(clock.parse(time_control))
    except clock.TimeControlError as err:
        raise PoolError(str(err)) from None
    if time_control not in POOL_TIME_CONTROLS:
        labels = ", ".join(clock.time_label(t) for t in POOL_TIME_CONTROLS)
        raise PoolError(f"there is no pool for {clock.time_label(time_control)}: the pools are "
                        f"{labels}; challenge a player for other time controls")
    pool, _ = Pool.objects.get_or_create(variant=variant, time_control=time_control,
                                         rated=bool(rated))
    return pool


#: A game played in one sitting and in play now: live, on a live time control (R36: Fischer or
#: byoyomi; not correspondence, not untimed), not adjourned (R38: nobody to move).
AT_THE_BOARD = (Q(status=Game.LIVE) & ~Q(to_move="")
                & (Q(time_control__startswith=f"{clock.FISCHER} ")
                   | Q(time_control__startswith=f"{clock.BYOYOMI} ")))


def game_in_play(user) -> Game | None:
    """``user``'s game played in one sitting and in play now (:data:`AT_THE_BOARD`), if any,
    of any game (a seat of theirs, however many the game has)."""
    return (Game.objects.filter(AT_THE_BOARD).filter(seats__user=user)
            .order_by("created").first())


def _at_the_board(account: str) -> Exists:
    """Whether the account in the outer query's field ``account`` has a game in play."""
    return Exists(Game.objects.filter(AT_THE_BOARD).filter(seats__user=OuterRef(account)))


def _last_opponent_id(user) -> int | None:
    last = (Game.objects.filter(Q(player_i=user) | Q(player_o=user))
            .order_by("-created").only("player_i_id", "player_o_id").first())
    if last is None:
        return None
    return last.player_o_id if last.player_i_id == user.pk else last.player_i_id


def join(user, variant: str = "standard", time_control: str = "fischer 600+5",
         rated: bool = True, psf_only: bool = False, address: str | None = None) -> PoolEntry:
    """Put ``user`` in a pool (out of any other). ``psf_only``: never paired below their PSF
    (R27/R47), for S3 players only. Rate limited (``ratelimit`` "pool_join", and
    "pool_join_address" for the request's ``address``). Refused (:class:`Busy`) while the
    player is at the board (:func:`game_in_play`), and to a deactivated account."""
    refusal = ratelimit.limit("pool_join").hit(str(user.pk))
    if refusal is None and address is not None:  # ``clientaddr.limit_key``: many accounts
        refusal = ratelimit.limit("pool_join_address").hit(address)
    if refusal is not None:
        raise RateLimited(refusal.message("pool joins"))
    if not user.is_active:
        raise PoolError("this account is deactivated: it cannot join a pool")
    if rated and (refusal_words := restrictions.rated_refusal(user)) is not None:
        raise PoolError(refusal_words)  # issue 39: a moderator's restriction
    pool = pool_for(variant, time_control, rated)
    game_key, name = _game(pool.variant)
    playing = game_in_play(user)
    if playing is not None:
        raise Busy(f"you are playing a game ({clock.time_label(playing.time_control)}, "
                   f"{reverse('game', args=[playing.uuid])}): finish it before joining a "
                   "pool, one game at a time")
    standing = ports.directory().standing(user, game_key, name)
    if psf_only and standing["psf"] is None:
        raise PoolError("the PSF bound is for S3 players (R27): you are paired by rating alone")
    floor = standing["psf"] if psf_only else None
    me = Seeker(str(user.pk), standing["rating"], 0, floor,
                None if (last := _last_opponent_id(user)) is None else str(last))
    game = _take_fitting_challenge(user, pool, me)
    with transaction.atomic():
        PoolEntry.objects.filter(user=user).delete()
        return PoolEntry.objects.create(
            pool=pool, user=user, rating=standing["rating"], floor=floor,
            last_opponent_id=last, status=PoolEntry.WAITING if game is None else PoolEntry.PAIRED,
            game=game)


def _take_fitting_challenge(user, pool: Pool, me: Seeker) -> Game | None:
    """R47: an open challenge to anyone that fits the pool (same variant, time control and
    kind) from a player the pool would pair ``user`` with now is accepted instead of waiting:
    the closest in rating first. A challenger who is waiting in a pool themselves is left to
    the waves (one player, one game), and so is one at the board already or deactivated."""
    game_key, name = _game(pool.variant)
    fitting = list(Challenge.objects.filter(
        status=Challenge.OPEN, opponent__isnull=True, game_key=game_key, variant=name,
        options={},  # a pool plays the variant as it is: a challenge with options is not its
        time_control=pool.time_control, rated=pool.rated, creator__is_active=True).exclude(
        creator=user).exclude(creator__pool_entry__status=PoolEntry.WAITING).exclude(
        _at_the_board("creator")).order_by("created")[:50])
    if not fitting:
        return None
    ratings = ports.directory().ratings_of({c.creator_id for c in fitting}, game_key, name)
    candidates = sorted(
        (c for c in fitting if accepts(me, Seeker(str(c.creator_id), ratings[c.creator_id]))),
        key=lambda c: abs(ratings[c.creator_id] - me.rating))
    for challenge in candidates:
        try:
            return challenges.accept_challenge(user, challenge.pk)
        except challenges.ChallengeError:  # taken or cancelled meanwhile: the next one
            continue
    return None


def leave(user) -> bool:
    """Take ``user`` out of their pool at once; False when they were not waiting (already
    paired: their game has started). Rate limited (``ratelimit`` "pool_leave", issue 41: each
    leave changes every lobby page): a refused leave (:class:`RateLimited`) leaves them
    waiting."""
    refusal = ratelimit.limit("pool_leave").hit(str(user.pk))
    if refusal is not None:
        raise RateLimited(refusal.message("pool leaves") + " You are still in the pool.")
    return bool(PoolEntry.objects.filter(user=user, status=PoolEntry.WAITING).delete()[0])


def take_out(user) -> bool:
    """Take ``user`` out of their pool, unasked and unlimited (their account was deactivated:
    ``play.lobby.deactivation``); False when they were not waiting."""
    return bool(PoolEntry.objects.filter(user=user, status=PoolEntry.WAITING).delete()[0])


def _unpairable() -> Q:
    """Pool entries whose player may no longer wait: deactivated, or at the board."""
    return Q(user__is_active=False) | Q(_at_the_board("user"))


def take_out_unpairable() -> int:
    """Take out of every pool whoever may no longer wait (a deactivated account, e.g. by a
    bulk update that sent no signal; a player whose challenge or event game has started
    meanwhile): how many."""
    # Found through the account and its games, taken out by the entry's own columns only, so
    # a row a wave has just flipped to paired is checked again and stays (see ``_start``).
    gone = list(PoolEntry.objects.filter(status=PoolEntry.WAITING).filter(_unpairable())
                .values_list("pk", flat=True))
    if not gone:
        return 0
    return PoolEntry.objects.filter(pk__in=gone, status=PoolEntry.WAITING).delete()[0]


def wants_wave_now(entry: PoolEntry) -> bool:
    """Whether ``entry``'s join calls for a wave at once (the caller wakes the workers): its
    pool is large (R47), or, with ``TALU_POOL_EARLY_WAVES`` on (off by default, beyond R47 as
    written: ``play.conf.pool_early_waves``), someone waiting there accepts the joiner and the
    joiner them."""
    if entry.status != PoolEntry.WAITING:
        return False  # it took a fitting challenge: its game has started
    others = list(PoolEntry.objects.filter(pool_id=entry.pool_id, status=PoolEntry.WAITING)
                  .exclude(pk=entry.pk))
    if len(others) + 1 >= conf.pool_large():
        return True
    return conf.pool_early_waves() and in_range(
        seeker_of(entry), [seeker_of(o) for o in others]) > 0


def seeker_of(entry: PoolEntry) -> Seeker:
    return Seeker(str(entry.user_id), entry.rating, entry.waves, entry.floor,
                  None if entry.last_opponent_id is None else str(entry.last_opponent_id))


def pool_json(pool: Pool) -> dict[str, Any]:
    return {"id": pool.pk, "variant": pool.variant, "title": pool_title(pool.variant),
            "time_control": pool.time_control, "time": pool.time_label, "rated": pool.rated}


def state(user, now: datetime | None = None) -> dict[str, Any]:
    """The player's pairing state (API and lobby): ``idle``, ``waiting`` (how long, how many
    players are in their range now) or ``paired`` (the game)."""
    entry = (PoolEntry.objects.filter(user=user).select_related("pool", "game").first()
             if user.is_authenticated else None)
    if entry is None:
        return {"status": "idle"}
    out: dict[str, Any] = {"status": entry.status, "pool": pool_json(entry.pool)}
    if entry.status == PoolEntry.PAIRED:
        if entry.game is not None:
            out["game"] = {"id": str(entry.game.uuid),
                           "url": reverse("game", args=[entry.game.uuid])}
        return out
    now = now or timezone.now()
    others = PoolEntry.objects.filter(pool=entry.pool, status=PoolEntry.WAITING).exclude(
        pk=entry.pk)
    me = seeker_of(entry)
    out.update({
        "waited_seconds": max(0, int((now - entry.joined).total_seconds())),
        "waves": entry.waves,
        "range": acceptable_range(entry.waves),
        "psf_only": entry.floor is not None,
        "players_waiting": others.count() + 1,
        "in_range": in_range(me, [seeker_of(o) for o in others]),
    })
    met = _last_opponent_waiting(entry, others)
    if met is not None:
        out["last_opponent"] = {"name": met}
    hint = _range_hint(user, entry)
    if hint is not None:
        out["psf"] = hint
    return out


def _last_opponent_waiting(entry: PoolEntry, others) -> str | None:
    """The name of a player waiting in the same pool whom R47 keeps from ``entry`` (the two
    just played each other), or None: the lobby says why they are not paired, and what to
    do instead (a rematch, a challenge), rather than leave both waiting without a word."""
    met = (others.filter(Q(user_id=entry.last_opponent_id) | Q(last_opponent_id=entry.user_id))
           .select_related("user").first())
    return None if met is None else met.user.get_username()


def _range_hint(user, entry: PoolEntry) -> dict[str, Any] | None:
    """R47 for an S3 player: their PSF, and the expected rating change at their aNPc against
    the weakest opponent their range takes now (never below the PSF when they opted in)."""
    lowest = max(0, entry.rating - acceptable_range(entry.waves))
    if entry.floor is not None:
        lowest = max(lowest, math.ceil(entry.floor - FLOOR_SLACK))
    hints = ports.directory().psf_hints(user, {"lowest": lowest})
    if hints is None:
        return None
    low = hints["against"]["lowest"]
    return {"psf": hints["psf_shown"], "anpc": round(hints["anpc"], 3), "lowest": lowest,
            "expected": low["expected"], "change": low["change"], "below": low["below"]}


def pool_counts() -> dict[int, int]:
    """Waiting players per pool id (the lobby's buttons)."""
    return dict(PoolEntry.objects.filter(status=PoolEntry.WAITING).values("pool_id")
                .annotate(n=Count("pk")).values_list("pool_id", "n"))


def pool_listing() -> list[dict[str, Any]]:
    """Every pool the lobby offers (variant x preset x rated), with its waiting players."""
    known = {(p.variant, p.time_control, p.rated): p for p in Pool.objects.all()}
    counts = pool_counts()
    out = []
    for variant, _ in pool_variants():
        for rated in (True, False):
            for tc in POOL_TIME_CONTROLS:
                p = known.get((variant, tc, rated))
                out.append({"id": p.pk if p else None, "variant": variant, "time_control": tc,
                            "time": clock.time_label(tc), "rated": rated,
                            "waiting": counts.get(p.pk, 0) if p else 0})
    return out


@dataclass(frozen=True)
class Pairing:
    """A game a wave started: its uuid and the two accounts."""

    game: str
    users: tuple[int, int]


def _claim_wave(pool: Pool, now: datetime | None) -> bool:
    """This worker's claim on the pool's next wave (a conditional update: one winner). ``now``
    is the regular wave's time (the next is due ``TALU_POOL_WAVE`` after it); None for an early
    wave, which leaves the regular waves' time as it was."""
    stamp = {} if now is None else {"wave_at": now}
    return bool(Pool.objects.filter(pk=pool.pk, wave=pool.wave).update(
        wave=pool.wave + 1, **stamp))


def _start(pool: Pool, a: int, b: int, rng: random.Random) -> Game | None:
    """Flip both rows to paired and start their game, in one transaction; None (nothing done)
    when either is no longer waiting in this pool, or may no longer wait (deactivated, or
    at the board since the wave read the pool)."""
    with transaction.atomic():
        # The flip names only the entry's own columns: a plain conditional UPDATE, whose
        # ``status`` the database checks again on a row another transaction has just flipped
        # (PostgreSQL's READ COMMITTED re-check). A condition through another table (the
        # account, its games) makes Django write ``WHERE id IN (SELECT ...)``, whose rows are
        # not checked again: two waves racing then both flipped one player and started two
        # games (tests/cluster/test_pool_two_processes.py). So the flip first, holding both
        # rows, and then whether either may still wait.
        flipped = PoolEntry.objects.filter(pool=pool, user_id__in=(a, b),
                                           status=PoolEntry.WAITING).update(
            status=PoolEntry.PAIRED)
        if flipped != 2 or PoolEntry.objects.filter(
                pool=pool, user_id__in=(a, b)).filter(_unpairable()).exists():
            transaction.set_rollback(True)
            return None
        entries = {e.user_id: e for e in PoolEntry.objects.filter(
            pool=pool, user_id__in=(a, b)).select_related("user")}
        light, dark = (a, b) if rng.random() < 0.5 else (b, a)
        try:
            # the variant's first seat (talu's light) and its second, by the toss
            game = start_table(pool.variant, [entries[light].user, entries[dark].user],
                               rated=pool.rated, time_control=pool.time_control)
        except StartError:
            transaction.set_rollback(True)
            return None
        PoolEntry.objects.filter(pk__in=[e.pk for e in entries.values()]).update(game=game)
    return game


def run_wave(pool: Pool, now: datetime | None = None, rng: random.Random | None = None,
             waited: list[int] | None = None, regular: bool = True) -> list[Pairing] | None:
    """One wave of ``pool`` (R47), if this caller wins its claim (None when another did).
    After a regular wave the players left waiting have waited one more wave (their range
    widens); an early one (``regular=False``) pairs those who can be paired now, claims the
    wave only when there is such a pair, and widens nobody."""
    now = now or timezone.now()
    if regular and not _claim_wave(pool, now):
        return None
    rng = rng or random.SystemRandom()
    entries = list(PoolEntry.objects.filter(pool=pool, status=PoolEntry.WAITING).exclude(
        _unpairable()))
    wave = pair_wave([seeker_of(e) for e in entries])
    if not regular:
        if not wave.pairs:
            return []  # nobody can be paired now: no wave, nothing claimed
        if not _claim_wave(pool, None):
            return None
    started = []
    for a, b in wave.pairs:
        game = _start(pool, int(a), int(b), rng)
        if game is not None:
            started.append(Pairing(str(game.uuid), (int(a), int(b))))
    if not regular:
        return started
    paired = {u for p in started for u in p.users}
    if waited is not None:
        waited.extend(e.user_id for e in entries if e.user_id not in paired)
    PoolEntry.objects.filter(pk__in=[e.pk for e in entries if e.user_id not in paired],
                             status=PoolEntry.WAITING).update(waves=F("waves") + 1)
    return started


def _waiting_pools() -> list[Pool]:
    """The pools with players waiting, each with ``n``, how many."""
    return list(Pool.objects.filter(entries__status=PoolEntry.WAITING)
                .annotate(n=Count("entries")).distinct())


def _is_due(pool: Pool, now: datetime) -> bool:
    since = now - timedelta(seconds=conf.pool_wave())
    return pool.wave_at is None or pool.wave_at <= since or pool.n >= conf.pool_large()


def due_pools(now: datetime | None = None) -> list[Pool]:
    """Pools with players waiting whose regular wave is due: ``TALU_POOL_WAVE`` seconds after
    their last, or at once when large (R47). A player alone waits waves too: their range
    widens."""
    now = now or timezone.now()
    return [p for p in _waiting_pools() if _is_due(p, now)]


def run_due_waves(now: datetime | None = None, waited: list[int] | None = None,
                  taken_out: list[int] | None = None) -> list[Pairing]:
    """Every due regular wave this caller wins, and (with ``TALU_POOL_EARLY_WAVES``, beyond
    R47 as written) an early wave of every other pool where two waiting players accept each
    other; the games they started (and in ``waited`` the accounts left waiting by a regular
    wave, whose range has just widened). First, whoever may no longer wait is taken out
    (:func:`take_out_unpairable`; in ``taken_out``, how many: the lobby's counts changed)."""
    now = now or timezone.now()
    gone = take_out_unpairable()
    if taken_out is not None and gone:
        taken_out.append(gone)
    started: list[Pairing] = []
    early = conf.pool_early_waves()
    for pool in _waiting_pools():
        if _is_due(pool, now):
            started.extend(run_wave(pool, now, waited=waited) or [])
        elif early and pool.n >= 2:
            started.extend(run_wave(pool, now, regular=False) or [])
    return started
