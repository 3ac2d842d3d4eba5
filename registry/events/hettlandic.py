"""The Hettlandic system as an event (R41, R44-R46, book 6.4.1): what the events services hand
to it, and what the arbiter and the co-champions do with it.

Phase 1 (R44) is the event's own 20 rounds: each round is paired by the pure R44 core
(``registry.events.pairing.hettlandic``) over the players still in, with the ratings at the
start of the phase, and played like any event's rounds (online through ``start_game``, or over
the board with the records matched by the arbiter). Its games belong to the event's rating
phase (``registry.phases``, R45): the ledger rates none of them until the arbiter closes phase
1, when one entry of the R30 list moves every participant by their final coefficient and the
co-champions (victory score >= 115, R28) are named from the phase table
(``registry.events.hettlandic_table``). Phase 2 (R46) is an ordinary event of the events app:
a grand-master, unrated Swiss of min(N - 1, ceil(log2 N) + 2) rounds among the N co-champions
who accept (two: a match of two games, sides swapped), paired, started and scored by the events
machinery; the answers, the medal event, its final ranking and the awards are
``registry.events.hettlandic_medals`` (over the pure ``hettlandic_phase2``).

Every action is one transaction and refuses with ``EventError`` in words, changing nothing.
"""

from __future__ import annotations

from collections.abc import Hashable

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from registry import figcache
from registry.events import hettlandic_medals as medals
from registry.events import hettlandic_phase2 as phase2
from registry.events.access import EventError, check_conditions, manage, round_complete
from registry.events.hettlandic_table import (
    ANNULLED,
    NO_RECORDS,
    UNPLAYED,
    PhaseGame,
    TableRow,
    Uncounted,
    phase_table,
)
from registry.events.models import CoChampion, Entry, Event, Hettlandic, Pairing
from registry.events.pairing import hettlandic as r44
from registry.events.pairing import model as core
from registry.events.revision import touch
from registry.models import RegistryGame
from registry.scoring.cascade import RatedGame
from registry.scoring.victory import is_champion

SYSTEM = "hettlandic"
# R44: what phase 1 is, whatever the arbiter would like (an event setting each, fixed here)
FIXED = {"variant": r44.VARIANT, "scoring_model": r44.MODEL, "rated": True,
         "rounds": r44.ROUNDS}
#: a played game's results, and the note of a pairing whose records the arbiter matched
PLAYED = ("1-0", "0-1", "=")
UNPLAYED_RESULTS = ("+-", "-+", "--")  # R41: an absent player's game, not rated
RECORDS = "records "
WORDS = {"variant": "standard talu", "scoring_model": "S3 scoring for every player",
         "rated": "rated", "rounds": f"{r44.ROUNDS} rounds"}


def _error(message: str, code: str = "invalid") -> EventError:
    return EventError(message, code)


# --- settings and entries (R41) -----------------------------------------------------------------

def settle(values: dict, event: Event | None = None) -> dict:
    """The settings of a Hettlandic event: phase 1 is standard talu, S3 for everyone, rated,
    20 rounds (R44); a different value for one of those is refused in words. Entry conditions
    (``min_rating``, e.g. the GTT's 1500, book 6.4.1.1; ``min_stratum``) are the event's own.
    Other systems' settings pass unchanged."""
    system = values.get("system", event.system if event else core.SWISS)
    if system != SYSTEM:
        return values
    out = dict(values)
    for name, value in FIXED.items():
        given = values.get(name)
        if name == "rounds" and given == 0:
            given = None  # "from the system"
        if given is not None and given != value:
            raise _error(f"a Hettlandic phase 1 is {WORDS[name]} (R44): {name} cannot be "
                         f"{given!r}")
        out[name] = value
    return out


def check_entry(event: Event, player) -> None:
    """A player the arbiter enters: a registered player (phase 1 is rated by the ledger, R45,
    which knows only registered players) meeting the event's conditions, as when they enter
    themselves (the GTT's 1500 is the book's rule for everyone, 6.4.1.1)."""
    if event.system != SYSTEM:
        return
    if player is None:
        raise _error("a Hettlandic event's players are registered players (their phase is "
                     "rated, R45): give a player id")
    check_conditions(event, player, f"{player.player_id} has")


# --- pairing (R44; R46 for a match of two) -------------------------------------------------------

def medal_parent(event: Event) -> Hettlandic | None:
    """The Hettlandic event whose phase 2 ``event`` is, if it is one."""
    return Hettlandic.objects.filter(medals=event).select_related("event").first()


def pairs(event: Event, entrants: int) -> bool:
    """Does this module pair ``event``'s next round (phase 1; a phase 2 of two players)?"""
    return event.system == SYSTEM or (entrants == 2 and medal_parent(event) is not None)


def refuse_early(event: Event, number: int, absent: dict | None) -> None:
    """What ``pair_round`` would refuse without pairing, said when the arbiter asks for the
    round (the worker pairs it, issue 40): byes on request, a closed phase 1, a 21st round,
    a third game of a match of two."""
    if event.system != SYSTEM:
        if number > 2 and event.entries.count() == 2 and medal_parent(event) is not None:
            raise _error("the match of two has its two games (R46)", "conflict")
        return
    if absent:
        raise _error("a Hettlandic round has no byes on request: its bye is R44's, and an "
                     "absent player's game is decided by the arbiter (R41)")
    het = Hettlandic.objects.filter(event=event).first()
    if het is not None and het.phase1_closed is not None:
        raise _error("phase 1 is closed (R45)", "conflict")
    if number > r44.ROUNDS:
        raise _error(f"phase 1 has its {r44.ROUNDS} rounds (R44): close it", "conflict")


def pair_round(event: Event, t: core.Tournament, absent: dict | None) -> core.Round:
    """The next round of ``event`` (inside the services' pairing transaction): phase 1 by R44,
    or one game of a phase-2 match of two (R46)."""
    number = len(t.rounds) + 1
    if event.system != SYSTEM:
        return _match_round(t, number)
    if absent:
        raise _error("a Hettlandic round has no byes on request: its bye is R44's, and an "
                     "absent player's game is decided by the arbiter (R41)")
    het = _phase_one(event)
    if het.phase1_closed is not None:
        raise _error("phase 1 is closed (R45)", "conflict")
    if number > r44.ROUNDS:
        raise _error(f"phase 1 has its {r44.ROUNDS} rounds (R44): close it", "conflict")
    entries = list(event.entries.select_related("player__body"))
    field = [r44.Entrant(e.key, int(e.rating),
                         e.player.body.registrar_id if e.player and e.player.body else None)
             for e in entries if e.withdrawn_after is None]
    history = r44.History(_history(t))
    try:
        paired = r44.pair_round(field, history)
    except r44.PairingError as exc:
        raise _error(str(exc), "conflict") from None
    games = [core.BoardPairing(g.i, g.o, None, board) for board, g in enumerate(paired.games, 1)]
    byes = [core.Bye(paired.bye, "Z")] if paired.bye else []  # no game, no score (R44)
    return core.Round(number, games, byes)


def _history(t: core.Tournament) -> list[r44.Round]:
    """The rounds paired so far as the R44 core's history (meetings, sides, byes)."""
    out = []
    for rnd in t.rounds:
        games = tuple(r44.SidedPair(g.white, g.black) for g in rnd.games)
        bye = next((b.player for b in rnd.byes), None)
        out.append(r44.Round(games, bye, 0, False))
    return out


def _phase_one(event: Event) -> Hettlandic:
    """The event's phases; round 1 opens its rating phase (R45) and fixes every participant's
    rating at the phase's start (R44 costs, R45 Ec), as the ledger reads them."""
    from registry.phases import open_phase, start_ratings

    het, _ = Hettlandic.objects.select_for_update().get_or_create(event=event)
    if het.phase_id is None:
        entries = list(event.entries.select_related("player"))
        if any(e.player is None for e in entries):  # the rating conditions were at entry
            raise _error("a Hettlandic event's players are registered players (their phase "
                         "is rated, R45): withdraw the guests")
        het.phase = open_phase(f"{event.name}: phase 1"[:200], body=event.body)
        het.save(update_fields=["phase"])
        start = start_ratings(het.phase, [e.player for e in entries])
        for e in entries:
            if e.rating != start[e.player_id]:
                e.rating = start[e.player_id]
                e.save(update_fields=["rating"])
    return het


def _match_round(t: core.Tournament, number: int) -> core.Round:
    """R46, N = 2: two games with sides swapped; pairing number 1 (rating, then id) is `I`
    first."""
    if number > 2:
        raise _error("the match of two has its two games (R46)", "conflict")
    a, b = sorted(t.entrants, key=lambda e: (-e.rating, e.key))
    i, o = phase2.match_of_two(a.key, b.key)[number - 1]
    return core.Round(number, [core.BoardPairing(i, o, None, 1)], [])


def registry_fields(event: Event) -> dict:
    """What a phase-1 game's registry row carries: its rating phase (R45)."""
    het = Hettlandic.objects.filter(event=event).only("phase_id").first()
    return {"phase_id": het.phase_id} if het and het.phase_id else {}


def adopt_record(event: Event, archived: RegistryGame) -> None:
    """Over the board: a phase-1 game's submitted records become a game of the phase, S3 for
    both players (R44); the ledger takes back the rating it gave the game on its own (R45)."""
    from registry.ledger import hold_lock, recompute_from

    if event.system != SYSTEM:
        return
    het = _phase_one(event)
    if het.phase1_closed is not None:
        raise _error("phase 1 is closed (R45): its games are rated", "conflict")
    if archived.played_at < het.phase.opened_at:
        raise _error("that game was played before phase 1 began")
    if archived.phase_id == het.phase_id:
        return
    if archived.phase_id is not None:
        raise _error("that game belongs to another rating phase", "conflict")
    hold_lock()
    archived.phase_id, archived.scoring_model = het.phase_id, r44.MODEL
    archived.save(update_fields=["phase", "scoring_model", "updated"])
    recompute_from(archived)


# --- the phase-1 table and its close (R44, R28, R45) --------------------------------------------

def phase_games(event: Event) -> tuple[list[PhaseGame], dict[int, Hashable], list[Uncounted]]:
    """The event's finished phase-1 games (annulled ones are out, R30) as the table's games,
    keyed by entry key, the byes by round, and the results that carry no coefficient: an
    unplayed game (R41: not rated, whatever its game did after the arbiter's decision) and a
    played result typed over the board without its records (R23: no tally, no NPc)."""
    het = Hettlandic.objects.filter(event=event).first()
    if het is None or het.phase_id is None:
        return [], {}, []
    rows = (RegistryGame.objects.filter(phase_id=het.phase_id, status=RegistryGame.FINISHED,
                                        rated=True)
            .select_related("player_i", "player_o"))
    annulled = {(g.live_id, str(g.game_id)) for g in RegistryGame.objects.filter(
        phase_id=het.phase_id, status=RegistryGame.ANNULLED).only("live_id", "game_id")}
    annulled_live = {live for live, _ in annulled if live}
    annulled_ids = {gid for _, gid in annulled}
    by_live = {}
    by_id = {}
    for g in rows:
        by_id[str(g.game_id)] = g
        if g.live_id:
            by_live[g.live_id] = g
    games, byes, uncounted = [], {}, []
    for p in Pairing.objects.filter(round__event=event).select_related("round", "white",
                                                                       "black"):
        if p.black_id is None:
            byes[p.round.number] = p.white.key
            continue
        if p.decided_by == "annulled":  # R30/R39 (events.results.game_annulled)
            uncounted.append(Uncounted(p.round.number, p.white.key, p.black.key, p.result,
                                       ANNULLED))
            continue
        if p.result in UNPLAYED_RESULTS:
            uncounted.append(Uncounted(p.round.number, p.white.key, p.black.key, p.result,
                                       UNPLAYED))
            continue
        g = by_live.get(p.game_id) if p.game_id else None
        if g is None and p.note.startswith(RECORDS):
            g = by_id.get(p.note.removeprefix(RECORDS))
        if g is None:
            if (p.game_id in annulled_live or p.note.removeprefix(RECORDS) in annulled_ids) \
                    and p.result:  # R30; R39: out of the standings as unplayed
                uncounted.append(Uncounted(p.round.number, p.white.key, p.black.key, p.result,
                                           ANNULLED))
            elif p.game_id is None and p.result in PLAYED and not p.note.startswith(RECORDS):
                uncounted.append(Uncounted(p.round.number, p.white.key, p.black.key, p.result,
                                           NO_RECORDS))
            continue
        figures = g.figures if figcache.is_current(g.figures) else \
            figcache.figures_json_of_tally(g.tally)
        games.append(PhaseGame(p.round.number, RatedGame(
            g.pk, g.player_i.player_id, g.player_o.player_id, figcache.from_json(figures),
            r44.MODEL)))
    return games, byes, uncounted


def table(event: Event) -> list[TableRow]:
    """R44/R28: per player every phase-1 game with NPc, Ec, APc and the running victory
    score, best first; Ec from the ratings at the start of the phase (the entries')."""
    games, byes, uncounted = phase_games(event)
    start = {e.key: int(e.rating) for e in event.entries.all()}
    return phase_table(start, games, byes, uncounted)


def stamp(het: Hettlandic | None) -> str:
    """What the table depends on beside the event's revision: its games' rows (an annulment,
    R30, changes one without touching the event)."""
    if het is None or het.phase_id is None:
        return "-"
    got = RegistryGame.objects.filter(phase_id=het.phase_id).aggregate(n=Count("id"),
                                                                      at=Max("updated"))
    return f"{got['n']}.{got['at'].timestamp() if got['at'] else 0}"


def cached_table(event: Event, het: Hettlandic | None) -> tuple[str, list[TableRow]]:
    """The table once per change (a 300-player phase's 3,000 games take ~0.3 s)."""
    from django.core.cache import cache

    key = f"talu:event:{event.pk}:{event.revision}:{stamp(het)}:hettlandic"
    rows = cache.get(key)
    if rows is None:
        rows = table(event) if het and het.phase_id else []
        cache.set(key, rows, 24 * 3600)
    return key, rows


def close_phase_one(user, event: Event):
    """The arbiter closes phase 1 after its 20 rounds: one entry of the R30 list moves every
    participant by their final coefficient (R45, audited), and the co-champions are named
    (R44: victory score >= 115, none, one or several)."""
    from registry.phases import PhaseStateConflict, close_phase

    manage(user, event)
    if event.system != SYSTEM:
        raise _error("only a Hettlandic event has a phase 1")
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        het = Hettlandic.objects.select_for_update().filter(event=event).first()
        if het is None or het.phase_id is None:
            raise _error("phase 1 has not begun: pair round 1", "conflict")
        if het.phase1_closed is not None:
            raise _error("phase 1 is already closed", "conflict")
        rounds = list(event.event_rounds.all())
        if len(rounds) < r44.ROUNDS:
            raise _error(f"phase 1 has {r44.ROUNDS} rounds (R44); {len(rounds)} are paired",
                         "conflict")
        open_rounds = [r.number for r in rounds if not round_complete(r)]
        if open_rounds:
            raise _error(f"round {open_rounds[0]} has games without a result", "conflict")
        missing = without_records(event)
        if missing:
            p = missing[0]
            raise _error(
                f"round {p.round.number}, board {p.board} ({p.white.name} v {p.black.name}): "
                f"the result {p.result} has no records. Phase 1 is rated from the games' "
                "records (R45: NPc comes from the tally, R23): match the submitted records "
                "to it, or decide it as unplayed (+-, -+, --) if it was not played", "conflict")
        try:
            summary = close_phase(het.phase, reason=f"{event.name}: phase 1 closed by the "
                                                    f"arbiter (R45)", actor_user=user)
        except PhaseStateConflict as exc:
            raise _error(str(exc), "conflict") from None
        het.phase1_closed = timezone.now()
        het.save(update_fields=["phase1_closed"])
        follow_phase(het)  # the co-champions, from the close's own victory scores
        touch(event.pk)
    return summary


def follow_phase(het: Hettlandic, *, audit: bool = False) -> dict | None:
    """The co-champions as the closed phase's victory scores now name them (R44: a score of
    at least 115, R28; the scores are the ledger's, ``PhaseRatingChange``, so the title always
    follows the ratings' own figures), and the entries' start ratings as the ledger read them
    (R45: an annulment before the phase moves them, R30). At the close this names them; after
    a correction or an annulment (R30) they follow, audited (``audit``):

    - phase 2 not begun: a player newly at 115 joins (to accept or decline), one below it
      leaves with their answer, the others' scores follow; phase 2's field is still the
      co-champions who accept when it starts;
    - phase 2 begun (its Swiss is paired among those who accepted then, R46; its number of
      rounds depends on them): the title still follows the score, R44 being a function of the
      phase-1 games, and the event's results may be corrected until it closes (R41). A player
      newly at 115 is a co-champion who could not play phase 2: the title, no award, as a
      decliner (R46). A player below 115 loses the title; if they are playing phase 2 their
      games stand for their opponents (the arbiter may withdraw them, C.04.1), and they get no
      award: awards go to the co-champions in phase 2's ranking, from the lowest up, and are
      given again if they were already given.

    What changed (for the audit), or None."""
    from registry.models import AuditEntry, PhaseRatingChange

    if het.phase1_closed is None or het.phase_id is None:
        return None
    figures = {key: (score, start) for key, score, start in PhaseRatingChange.objects.filter(
        phase_id=het.phase_id).values_list("player__player_id", "victory_score",
                                           "start_rating")}
    entries = {e.key: e for e in het.event.entries.all()}
    wanted = {k: score for k, (score, _) in figures.items()
              if k in entries and score is not None and is_champion(score)}
    current = {c.entry.key: c for c in het.champions.select_related("entry")}
    moved = {k: (int(entries[k].rating), start) for k, (_, start) in figures.items()
             if k in entries and start is not None and int(entries[k].rating) != start}
    for k, (_, start) in moved.items():
        Entry.objects.filter(pk=entries[k].pk).update(rating=start)
    removed = sorted(set(current) - set(wanted))
    added = sorted(set(wanted) - set(current), key=lambda k: (-wanted[k], k))
    rescored = {k: (current[k].victory_score, wanted[k]) for k in set(current) & set(wanted)
                if current[k].victory_score != wanted[k]}
    if not (removed or added or rescored or moved):
        return None
    CoChampion.objects.filter(hettlandic=het, entry__key__in=removed).delete()
    CoChampion.objects.bulk_create([CoChampion(hettlandic=het, entry=entries[k],
                                               victory_score=wanted[k]) for k in added])
    for k, (_, score) in rescored.items():
        CoChampion.objects.filter(pk=current[k].pk).update(victory_score=score)
    if het.awarded is not None and (removed or added or rescored):
        # the awards follow the titles (only a co-champion gets one, R46)
        het.champions.update(rank=None, award="")
        if het.medals_id:
            medals.award(het, medals.final_ranking(het))
        else:  # N = 1: the one acceptor's award, if they still hold the title
            keep = [c.entry.key for c in het.champions.select_related("entry")
                    if c.answer == CoChampion.ACCEPTED]
            medals.award(het, [medals.Placed(1, k, 0.0, {}, phase2.awards(keep)[k]) for k in keep])
        het.save(update_fields=["awarded"])
    change = {"event": het.event_id, "co_champions": sorted(wanted),
              "named": added, "withdrawn": removed,
              "victory_scores": {k: list(v) for k, v in sorted(rescored.items())},
              "start_ratings": {k: list(v) for k, v in sorted(moved.items())},
              "phase2_started": het.phase2_started is not None}
    if audit:
        AuditEntry.objects.create(
            action=AuditEntry.PHASE,
            reason=f"{het.event.name}: the co-champions follow the recomputed phase-1 victory "
                   "scores (R30, R44)",
            before={"phase": het.phase_id, "co_champions": sorted(current)},
            after={"phase": het.phase_id, **change})
    touch(het.event_id)
    return change


def phases_rerated(phases: list[int]) -> dict | None:
    """The ledger's listener (``registry.ledger.on_phases_rerated``): a recompute re-rated
    these closed phases (an annulment or a correction, R30); a Hettlandic event's
    co-champions follow (:func:`follow_phase`). What changed, by event id."""
    changed = {}
    for het in (Hettlandic.objects.select_for_update(of=("self",)).select_related("event")
                .filter(phase_id__in=phases, phase1_closed__isnull=False)):
        got = follow_phase(het, audit=True)
        if got:
            changed[str(het.event_id)] = got
    return changed or None


def without_records(event: Event) -> list[Pairing]:
    """Over the board: the phase-1 results the arbiter typed (a played result: 1-0, 0-1, =)
    with no game behind them (no records matched, no online game). They carry no
    coefficient: NPc comes from the game's tally, which only its records give (R23, R45)."""
    return list(Pairing.objects.filter(round__event=event, black__isnull=False,
                                       game__isnull=True, result__in=PLAYED)
                .exclude(note__startswith=RECORDS)
                .select_related("round", "white", "black").order_by("round__number", "board"))


# --- closing (R41, R46) ------------------------------------------------------------------------

def closing(event: Event) -> None:
    """Inside the services' close (R41): a Hettlandic event closes after its phases; closing
    its phase-2 event gives the awards (R46)."""
    if event.system == SYSTEM:
        het = Hettlandic.objects.filter(event=event).first()
        if het is None or het.phase1_closed is None:
            raise _error("close phase 1 first (R45: its ratings move at its close)",
                         "conflict")
        if het.medals_id and het.medals.status != Event.CLOSED:
            raise _error("phase 2 is still being played: close its event first", "conflict")
        return
    het = medal_parent(event)
    if het is not None:
        medals.award(het, medals.final_ranking(het))
        het.save(update_fields=["awarded"])
        touch(het.event_id)


def form_values(values: dict, event: Event | None = None) -> dict:
    """A page's form sends every setting; for a Hettlandic event the ones R44 fixes are not
    the arbiter's to give, and are left to :func:`settle`."""
    system = values.get("system", event.system if event else core.SWISS)
    if system != SYSTEM:
        return values
    return {k: v for k, v in values.items() if k not in FIXED}


def summary(event: Event) -> dict:
    """The Hettlandic part of an event, for its page and the API: the phase-1 table, the
    co-champions with their answers, phase 2 and the awards."""
    het = Hettlandic.objects.filter(event=event).select_related("phase", "medals").first()
    names = dict(event.entries.values_list("key", "name"))
    key, rows = cached_table(event, het)
    champions = list(het.champions.select_related("entry__player")) if het else []
    ranking = []
    if het and het.medals_id:
        ranking = medals.final_ranking(het)
    return {"het": het, "names": names, "rows": rows, "key": key, "champions": champions,
            "ranking": ranking, "rounds": r44.ROUNDS,
            "phase2_rounds": phase2.rounds_for(
                sum(c.answer == CoChampion.ACCEPTED for c in champions))}


def as_json(event: Event) -> dict:
    """:func:`summary` as the API's JSON."""
    s = summary(event)
    het = s["het"]

    def line(t) -> dict:
        return {"round": t.round, "bye": t.bye, "opponent": t.opponent,
                "side": t.side, "won": t.won, "npc": t.npc, "ec": t.ec, "apc": t.apc,
                "victory_score": t.running_score, "uncounted": t.uncounted}

    medals = het.medals if het else None
    return {
        "phase1": {"rounds": s["rounds"],
                   "closed": het.phase1_closed.isoformat() if het and het.phase1_closed
                   else None,
                   "table": [{"key": r.player, "name": s["names"].get(r.player, r.player),
                              "start_rating": r.start_rating, "games": r.games,
                              "wins": r.wins, "final_coefficient": r.final_coefficient,
                              "victory_score": r.victory_score, "at_115": r.at_115,
                              "lines": [line(t) for t in r.lines]} for r in s["rows"]]},
        "co_champions": [{"key": c.entry.key, "name": c.entry.name,
                          "victory_score": c.victory_score, "answer": c.answer or None,
                          # R30/R46: named by a correction after phase 2 began (no award)
                          "named_after_phase2": not c.answer and bool(het.phase2_started),
                          "rank": c.rank, "award": c.award or None}
                         for c in s["champions"]],
        "phase2": {"started": het.phase2_started.isoformat() if het and het.phase2_started
                   else None,
                   "event": medals.pk if medals else None,
                   "rounds": medals.rounds if medals else None,
                   "status": medals.status if medals else None,
                   "ranking": [{"rank": p.rank, "key": p.key, "points": p.points,
                                "tiebreaks": p.values, "award": p.award}
                               for p in s["ranking"]]},
    }
