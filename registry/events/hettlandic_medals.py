"""Phase 2 of the Hettlandic system as an event (R46, book 6.4.1): the co-champions' answers,
the medal Swiss among those who accept (run by the events machinery), its final ranking and the
awards, and a player's titles for the profile.

Apart from ``registry.events.hettlandic`` (phase 1, its table and close, corrections after it)
because it is a second job: it acts on the co-champions that module names and on the medal
event, never on phase 1's rounds. Every action is one transaction and refuses with
``EventError`` in words, changing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from registry.events import hettlandic_phase2 as phase2
from registry.events import state
from registry.events.access import EventError, manage
from registry.events.models import CoChampion, Entry, Event, Hettlandic
from registry.events.pairing import model as core
from registry.events.pairing import tiebreaks
from registry.events.revision import touch


def answer(user, event: Event, accept: bool) -> CoChampion:
    """A co-champion accepts or declines phase 2 (changeable until it starts); a decliner
    keeps the title (R46)."""
    if not (user and user.is_authenticated):
        raise EventError("log in to answer", "forbidden")
    if not isinstance(accept, bool):
        raise EventError("accept is true or false")
    with transaction.atomic():
        champion = (CoChampion.objects.select_for_update().select_related("hettlandic")
                    .filter(hettlandic__event=event, entry__player__user=user).first())
        if champion is None:
            raise EventError("only a co-champion of this event answers for phase 2 (R46)",
                         "forbidden")
        if champion.hettlandic.phase2_started is not None:
            raise EventError("phase 2 has begun: the answers are final", "conflict")
        champion.answer = CoChampion.ACCEPTED if accept else CoChampion.DECLINED
        champion.answered = timezone.now()
        champion.save(update_fields=["answer", "answered"])
        touch(event.pk)
    return champion


def start_phase_two(user, event: Event, force: bool = False) -> Event | None:
    """The arbiter starts phase 2 among the co-champions who accepted (``force``: those who
    have not answered count as declining). Two or more: a new event, a grand-master, unrated
    Swiss of the ruled number of rounds (R46), run by the events machinery; one: no phase 2,
    their award is given at once; none: nothing to play."""
    manage(user, event)
    with transaction.atomic():
        het = Hettlandic.objects.select_for_update().filter(event=event).first()
        if het is None or het.phase1_closed is None:
            raise EventError("close phase 1 first: its co-champions play phase 2", "conflict")
        if het.phase2_started is not None:
            raise EventError("phase 2 has already begun", "conflict")
        champions = list(het.champions.select_related("entry__player__user"))
        if not champions:
            raise EventError("phase 1 has no co-champion: there is no phase 2", "conflict")
        waiting = [c.entry.name for c in champions if not c.answer]
        if waiting and not force:
            raise EventError(f"waiting for {', '.join(waiting)} to accept or decline (or start "
                         "anyway: they then decline)", "conflict")
        for c in champions:
            if not c.answer:  # forced: no answer is a decline (the title stays, R46)
                c.answer, c.answered = CoChampion.DECLINED, timezone.now()
                c.save(update_fields=["answer", "answered"])
        playing = [c for c in champions if c.answer == CoChampion.ACCEPTED]
        het.phase2_started = timezone.now()
        medals = None
        if len(playing) >= 2:
            medals = Event.objects.create(
                body=event.body, name=f"{event.name}: phase 2 (medal matches)"[:200],
                variant=phase2.VARIANT, time_control=event.time_control, rated=phase2.RATED,
                scoring_model=event.scoring_model, system=core.SWISS,
                rounds=phase2.rounds_for(len(playing)), auto_arbiter=event.auto_arbiter,
                venue=event.venue, created_by=user)
            medals.arbiters.set(event.arbiters.all())
            for c in playing:
                player = c.entry.player
                Entry.objects.create(event=medals, player=player, key=c.entry.key,
                                     name=c.entry.name, rating=player.rating)
            het.medals = medals
        elif len(playing) == 1:  # N = 1: no phase 2 (R46); the one award
            key = playing[0].entry.key
            award(het, [Placed(1, key, 0.0, {}, phase2.awards([key])[key])])
        het.save()
        touch(event.pk)
    return medals


def award(het: Hettlandic, placed: list[Placed]) -> None:
    """Each co-champion placed with an award gets their phase-2 rank and award (R46)."""
    given = {p.key: p for p in placed if p.award}
    for c in het.champions.select_related("entry"):
        if c.entry.key in given:
            c.rank, c.award = given[c.entry.key].rank, given[c.entry.key].award
            c.save(update_fields=["rank", "award"])
    het.awarded = timezone.now()


@dataclass(frozen=True)
class Placed:
    """A phase-2 participant's final place (1 = the best), points, tie-break values (the
    events' Swiss ones, then the phase-1 victory score) and award."""

    rank: int
    key: str
    points: float
    values: dict
    award: str


def final_ranking(het: Hettlandic) -> list[Placed]:
    """R46: the medal event's standings by the events' Swiss tie-breaks (R43, FIDE C.07 through
    ``tiebreaks``, the same as its own page), then the phase-1 victory score (the ledger's,
    as recomputed, R30), then (so that every award has one holder) the player id; awards from
    the lowest-ranked co-champion up (a participant whose title a correction withdrew plays on
    but gets none: :func:`follow_phase`)."""
    from registry.models import PhaseRatingChange

    scores = {k: float(v) for k, v in PhaseRatingChange.objects.filter(
        phase_id=het.phase_id, victory_score__isnull=False).values_list(
        "player__player_id", "victory_score")}
    scores.update({k: float(v) for k, v in het.champions.values_list("entry__key",
                                                                      "victory_score")})
    titled = set(het.champions.values_list("entry__key", flat=True))
    rows = sorted(tiebreaks.standings(state.tournament(het.medals), scores),
                  key=lambda s: (s.rank, s.key))
    given = phase2.awards([s.key for s in rows if s.key in titled])
    return [Placed(k, s.key, s.points, s.values, given.get(s.key, ""))
            for k, s in enumerate(rows, 1)]


def honours(player) -> list[CoChampion]:
    """A player's Hettlandic titles and awards, newest first (the profile's)."""
    return list(CoChampion.objects.filter(entry__player=player)
                .select_related("hettlandic__event").order_by("-hettlandic__phase1_closed"))
