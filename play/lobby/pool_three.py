"""The quick-pairing pool for three (issue 37): players of a three-seat variant wait, and a
table starts when three compatible players wait; after a wait the player chose, the empty
seats go to the computer.

Compatible, as R47's pool reasons for two: the same variant and time control (one of the
pools' live presets), rated or casual alike, and in a rated pool each player's rating inside
every other's range, which widens with the waves they have waited (``pool_pairing.accepts``;
a wave here is ``TALU_POOL_WAVE`` seconds of waiting, as the two-player pool's beat). A
player chooses on joining whether, and after how many minutes (:data:`FILL_CHOICES`: off, 1,
2, 5), the empty seats are filled with the computer: once that wait is over the worker starts
their game with the others whose fill is due in the same variant and time control, and the
computer in the seats left (at its middle level; never rated, A9). Where the variant's game
has no computer, the fill is refused at the join, in words.

One pool at a time: joining this pool takes the player out of the two-player pools, and the
same checks keep out whoever may not wait there (deactivated, at the board already, a
moderator's restriction from rated play). The worker runs :func:`run_due` beside the two-player
pools' waves (``play.worker.loop``); each group's rows flip from waiting to paired in one
conditional update before its game starts, so a player who left or was taken by another
worker meanwhile is never seated.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from play import conf, ports
from play.chat import restrictions
from play.games import clock
from play.games.registry import computer_for, full_title, variant_of
from play.lobby import pool
from play.lobby.pool_pairing import Seeker, accepts
from play.lobby.tables import (
    Started,
    TableError,
    default_level,
    start_seated,
    started,
    table_variants,
)
from play.models import PoolEntry, TableSeat, ThreeEntry
from talu_site import ratelimit

#: The waits a player may choose before the computer fills the empty seats, in minutes (0:
#: never).
FILL_CHOICES: tuple[int, ...] = (0, 1, 2, 5)


class PoolThreeError(ValueError):
    """A join or leave refused, in a user's words."""


def pool_variants() -> list[tuple[str, str]]:
    """(key, label) of the variants with a pool for three: every variant of more seats."""
    return table_variants()


def join(user, variant: str, time_control: str = "fischer 600+5", rated: bool = True,
         fill_after: int = 0, address: str | None = None) -> ThreeEntry:
    """Put ``user`` in the pool for three of ``variant`` and ``time_control`` (out of any other
    pool); ``fill_after`` minutes (:data:`FILL_CHOICES`, 0 never) before the computer takes
    the empty seats."""
    refusal = ratelimit.limit("pool_join").hit(str(user.pk))
    if refusal is None and address is not None:
        refusal = ratelimit.limit("pool_join_address").hit(address)
    if refusal is not None:
        raise PoolThreeError(refusal.message("pool joins"))
    if not user.is_active:
        raise PoolThreeError("this account is deactivated: it cannot join a pool")
    if variant not in dict(pool_variants()):
        try:
            spec = variant_of(variant)
        except KeyError:
            raise PoolThreeError(f"unknown variant {variant!r}") from None
        raise PoolThreeError(f"{spec.title} is played by {len(spec.played)}: its pool is the "
                             "quick pairing's")
    try:
        time_control = str(clock.parse(time_control))
    except clock.TimeControlError as err:
        raise PoolThreeError(str(err)) from None
    if time_control not in pool.POOL_TIME_CONTROLS:
        labels = ", ".join(clock.time_label(t) for t in pool.POOL_TIME_CONTROLS)
        raise PoolThreeError(f"there is no pool for {clock.time_label(time_control)}: the "
                             f"pools are {labels}; open a table for other time controls")
    if fill_after not in FILL_CHOICES:
        raise PoolThreeError("the computer fills the empty seats after 1, 2 or 5 minutes, or "
                             "never")
    if fill_after and computer_for(variant) is None:
        raise PoolThreeError(f"the computer does not play {variant_of(variant).title}: "
                             "choose to wait for players only")
    if rated and (words := restrictions.rated_refusal(user)) is not None:
        raise PoolThreeError(words)
    playing = pool.game_in_play(user)
    if playing is not None:
        raise PoolThreeError(f"you are playing a game ({clock.time_label(playing.time_control)}"
                             f", {reverse('game', args=[playing.uuid])}): finish it before "
                             "joining a pool, one game at a time")
    spec = variant_of(variant)
    rating = ports.directory().standing(user, spec.game, spec.name)["rating"]
    with transaction.atomic():
        PoolEntry.objects.filter(user=user, status=PoolEntry.WAITING).delete()
        ThreeEntry.objects.filter(user=user).delete()
        return ThreeEntry.objects.create(user=user, variant=variant, time_control=time_control,
                                         rated=bool(rated), rating=int(rating),
                                         fill_after=fill_after)


def leave(user) -> bool:
    """Take ``user`` out of the pool for three at once; False when they were not waiting."""
    refusal = ratelimit.limit("pool_leave").hit(str(user.pk))
    if refusal is not None:
        raise PoolThreeError(refusal.message("pool leaves") + " You are still in the pool.")
    return bool(ThreeEntry.objects.filter(user=user, status=ThreeEntry.WAITING).delete()[0])


def state(user, now: datetime | None = None) -> dict[str, Any]:
    """The player's place in the pool for three (the lobby): ``idle``, ``waiting`` (since when,
    how many wait with them, when the computer fills) or ``paired`` (the game)."""
    entry = (ThreeEntry.objects.filter(user=user).select_related("game").first()
             if user.is_authenticated else None)
    if entry is None:
        return {"status": "idle"}
    out: dict[str, Any] = {"status": entry.status, "variant": entry.variant,
                           "title": full_title(entry.variant), "time": entry.time_label,
                           "rated": entry.rated, "fill_after": entry.fill_after}
    if entry.status == ThreeEntry.PAIRED:
        if entry.game is not None:
            out["game"] = {"id": str(entry.game.uuid),
                           "url": reverse("game", args=[entry.game.uuid])}
        return out
    now = now or timezone.now()
    waited = max(0, int((now - entry.joined).total_seconds()))
    out["waited_seconds"] = waited
    out["players_waiting"] = ThreeEntry.objects.filter(
        status=ThreeEntry.WAITING, variant=entry.variant,
        time_control=entry.time_control).count()
    if entry.fill_after:
        out["fill_in_seconds"] = max(0, entry.fill_after * 60 - waited)
    return out


def _seeker(entry: ThreeEntry, now: datetime) -> Seeker:
    """The entry as R47's pairing sees a player: its waves are its seconds waited over the
    pool's beat (``TALU_POOL_WAVE``)."""
    beat = conf.pool_wave()
    waited = max(0.0, (now - entry.joined).total_seconds())
    waves = int(waited // beat) if beat > 0 else 0
    return Seeker(str(entry.user_id), entry.rating, waves)


def compatible(entries: list[ThreeEntry], now: datetime) -> bool:
    """Whether these players may sit at one table: everyone accepts everyone (R47's range)
    in a rated pool; anyone in a casual one."""
    if not entries[0].rated:
        return True
    seekers = [_seeker(e, now) for e in entries]
    return all(accepts(a, b) and accepts(b, a) for a, b in combinations(seekers, 2))


def groups(entries: list[ThreeEntry], seats: int, now: datetime) -> list[list[ThreeEntry]]:
    """Tables of ``seats`` players among ``entries`` (one pool's, waiting): casual ones in the
    order they came; rated ones by rating, each window of neighbours that all accept each
    other."""
    rest = sorted(entries, key=(lambda e: (e.rating, e.joined)) if entries and entries[0].rated
                  else (lambda e: e.joined))
    out: list[list[ThreeEntry]] = []
    i = 0
    while i + seats <= len(rest):
        window = rest[i:i + seats]
        if compatible(window, now):
            out.append(window)
            i += seats
        else:
            i += 1
    return out


def _fill_due(entry: ThreeEntry, now: datetime) -> bool:
    return bool(entry.fill_after) and entry.joined + timedelta(minutes=entry.fill_after) <= now


def _start(entries: list[ThreeEntry], rng: random.Random) -> Started | None:
    """Flip the entries to paired and start their game (the computer in the seats left), in
    one transaction; None (nothing done) when one is no longer waiting or may not wait."""
    variant = entries[0].variant
    spec = variant_of(variant)
    ids = [e.pk for e in entries]
    with transaction.atomic():
        flipped = ThreeEntry.objects.filter(pk__in=ids, status=ThreeEntry.WAITING).update(
            status=ThreeEntry.PAIRED)
        if flipped != len(ids) or ThreeEntry.objects.filter(pk__in=ids).filter(
                pool._unpairable()).exists():
            transaction.set_rollback(True)
            return None
        people = [e.user for e in ThreeEntry.objects.filter(pk__in=ids).select_related("user")]
        rng.shuffle(people)
        computers = len(spec.played) - len(people)
        level = default_level(variant) if computers else None
        holders: list[Any] = [*people, *([None] * computers)]
        rng.shuffle(holders)
        seats = [TableSeat(seat=s, order=n, user=h, level=None if h is not None else level)
                 for n, (s, h) in enumerate(zip(spec.played, holders, strict=True))]
        try:
            game = start_seated(variant, seats, rated=entries[0].rated and not computers,
                                time_control=entries[0].time_control)
        except TableError:
            transaction.set_rollback(True)
            return None
        ThreeEntry.objects.filter(pk__in=ids).update(game=game)
    return started(game)


def run_due(now: datetime | None = None, rng: random.Random | None = None) -> list[Started]:
    """One round of the pool for three (the worker's, beside the waves): whoever may no longer
    wait taken out, every group of compatible players seated, then every player whose
    computer fill is due seated with the computer (with others of the same variant and time
    control whose fill is due, up to one seat fewer than the game has). The games started."""
    if not ThreeEntry.objects.filter(status=ThreeEntry.WAITING).exists():
        return []  # the usual round: one small query
    now = now or timezone.now()
    rng = rng or random.SystemRandom()
    ThreeEntry.objects.filter(status=ThreeEntry.WAITING).filter(pool._unpairable()).delete()
    waiting = list(ThreeEntry.objects.filter(status=ThreeEntry.WAITING).order_by("joined"))
    by_pool: dict[tuple[str, str, bool], list[ThreeEntry]] = {}
    for e in waiting:
        by_pool.setdefault((e.variant, e.time_control, e.rated), []).append(e)
    out: list[Started] = []
    seated: set[int] = set()
    for (variant, _, _), entries in by_pool.items():
        try:
            seats = len(variant_of(variant).played)
        except KeyError:  # a variant gone from the catalogue: nobody is seated for it
            continue
        for group in groups(entries, seats, now):
            game = _start(group, rng)
            if game is not None:
                out.append(game)
                seated.update(e.pk for e in group)
    due: dict[tuple[str, str], list[ThreeEntry]] = {}
    for e in waiting:
        if e.pk not in seated and _fill_due(e, now):
            due.setdefault((e.variant, e.time_control), []).append(e)
    for (variant, _), entries in due.items():
        try:
            room = len(variant_of(variant).played) - 1
            if computer_for(variant) is None:
                continue
        except KeyError:
            continue
        for i in range(0, len(entries), room):
            game = _start(entries[i:i + room], rng)
            if game is not None:
                out.append(game)
    return out


def listing() -> list[dict[str, Any]]:
    """The pools for three the lobby offers (variant x preset), with their waiting players."""
    counts: dict[tuple[str, str], int] = {}
    for v, tc in ThreeEntry.objects.filter(status=ThreeEntry.WAITING).values_list(
            "variant", "time_control"):
        counts[(v, tc)] = counts.get((v, tc), 0) + 1
    return [{"variant": v, "title": label, "time_control": tc,
             "time": clock.time_label(tc), "waiting": counts.get((v, tc), 0),
             "computer": computer_for(v) is not None}
            for v, label in pool_variants() for tc in pool.POOL_TIME_CONTROLS]
