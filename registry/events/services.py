"""What arbiters and players do to an event (R41-R43), each in one transaction: a refused
action raises ``EventError`` in words a person understands and changes nothing.

Only the event's arbiters manage it (R39): settings (fixed once round 1 is paired, R41), board
players, results and their corrections, closing, the TRF. Players register and withdraw
themselves. Pairing and starting rounds are ``registry.events.rounds``; online games' results
come back through the "game finished" subscription (``registry.events.results``).
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from play.chat import restrictions
from play.games import clock
from play.games.registry import variant_of
from play.games.text import TextError, clean_name, problem
from registry.events import hettlandic, manual_pairing, state
from registry.events.access import (  # noqa: F401  (is_arbiter: the pages and API ask here)
    EventError,
    check_conditions,
    is_arbiter,
    round_complete,
)
from registry.events.access import manage as _manage
from registry.events.models import (
    MODELS,
    POLICIES,
    SYSTEMS,
    VENUES,
    Entry,
    Event,
    Pairing,
    Round,
)
from registry.events.pairing import trf
from registry.events.pairing.model import (
    GAME_RESULTS,
    SWISS,
)
from registry.events.revision import touch
from registry.models import AffiliatedBody, Player, check_scoring_model
from registry.services import is_book_game, player_of


def can_create(user, body: AffiliatedBody) -> bool:
    """A body's events are announced by its registrars (or site staff)."""
    return bool(user and user.is_authenticated and (
        user.is_staff or body.registrars.filter(pk=user.pk).exists()))


def _choice(name: str, value, choices) -> None:
    if value not in [c for c, _ in choices]:
        allowed = ", ".join(c for c, _ in choices)
        raise EventError(f"{name} {value!r} is not one of {allowed}")


def _check_settings(body: AffiliatedBody, values: dict) -> None:
    unknown = set(values) - set(Event.SETTINGS)
    if unknown:
        raise EventError(f"unknown setting {sorted(unknown)[0]!r}")
    if "name" in values:
        values["name"] = _name(values["name"], "an event's name")
    if "variant" in values:  # the event's game: any two-seat variant (talu's by its name)
        try:
            spec = variant_of(values["variant"]) if isinstance(values["variant"], str) \
                else None
        except KeyError:
            spec = None
        if spec is None:
            raise EventError(f"unknown variant {values['variant']!r}")
        if len(spec.played) != 2:
            raise EventError(f"{spec.title} is played by {len(spec.played)}: an event pairs "
                             "two players a game (round robin and Swiss)")
        if not is_book_game(spec.game) and values.get("system") == "hettlandic":
            raise EventError("the Hettlandic system is talu's (R44-R46)")
    if "time_control" in values:  # R36, checked as a challenge's; kept in canonical form
        try:
            values["time_control"] = str(clock.read(values["time_control"]))
        except clock.TimeControlError as err:
            raise EventError(str(err)) from None
    for name, choices in (("scoring_model", MODELS), ("system", SYSTEMS),
                          ("auto_arbiter", POLICIES), ("venue", VENUES)):
        if name in values:
            _choice(name, values[name], choices)
    if "scoring_model" in values:
        try:
            check_scoring_model(body.stratum, values["scoring_model"])
        except Exception as exc:  # ValidationError: its words
            raise EventError(f"{'; '.join(getattr(exc, 'messages', [str(exc)]))}") from None
    # rounds: the API's limit and a TRF's (trf.MAX_ROUNDS); more was PostgreSQL's "smallint
    # out of range" (a 500) from the page's form (issue 41)
    for name, high in (("rounds", trf.MAX_ROUNDS), ("min_rating", 10**6), ("min_stratum", 3)):
        value = values.get(name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or value < 0 or value > high):
            raise EventError(f"{name} must be a whole number from 0 to {high}, not "
                             f"{str(value)[:20]!r}")
    # issue 38: the half-point byes a player may ask for (registry.events.bye_requests)
    byes = values.get("max_byes")
    if byes is not None and (not isinstance(byes, int) or isinstance(byes, bool)
                             or not 0 <= byes <= trf.MAX_ROUNDS):
        raise EventError(f"max_byes (the byes a player may request) must be a whole number "
                         f"from 0 to {trf.MAX_ROUNDS}, not {str(byes)[:20]!r}")
    if values.get("min_stratum") is not None and values["min_stratum"] not in (1, 2, 3):
        raise EventError("min_stratum is 1, 2 or 3")


def _byes_of_swiss(system: str, max_byes) -> None:
    """Byes on request are a Swiss's (issue 38, C.04.1): a round robin's schedule is fixed
    (R42), a Hettlandic round's bye is R44's."""
    if max_byes and system != SWISS:
        raise EventError("only a Swiss takes bye requests: a round robin has no byes on "
                         "request (R42), a Hettlandic round its own bye (R44); set the byes "
                         "a player may request to 0")


def _name(value, what: str) -> str:
    """A name as every name is checked and stored (``play.games.text``, issue 27): one line,
    normalised, no bidirectional control, at most the 200 characters the column holds (more
    was a PostgreSQL ``DataError``, a 500)."""
    try:
        return clean_name(value if isinstance(value, str) else str(value), max_length=200)
    except TextError as err:
        if str(err) == "must not be empty":
            raise EventError(f"{what} must not be empty: an event and its players need "
                             "names") from None
        raise EventError(f"{what} {err}") from None


def create_event(user, body: AffiliatedBody, arbiters=None, **values) -> Event:
    if not can_create(user, body):
        raise EventError("only a registrar of the body (or staff) announces its events",
                         "forbidden")
    if body.suspended is not None:  # the federation's suspension (issue 38, registry.clubs)
        raise EventError(f"{body.name} is suspended by the federation: it announces no "
                         "events until the suspension is lifted", "forbidden")
    values.setdefault("name", "")
    _check_settings(body, values)
    values = hettlandic.settle(values)  # R44: phase 1's fixed settings
    system = values.get("system", SWISS)
    if system == SWISS and not values.get("rounds"):
        raise EventError("a Swiss needs its number of rounds (R41)")
    _byes_of_swiss(system, values.get("max_byes"))
    with transaction.atomic():
        event = Event.objects.create(body=body, created_by=user, **values)
        event.arbiters.set(arbiters or [user])
    return event


def change_settings(user, event: Event, **values) -> Event:
    _manage(user, event)
    if event.event_rounds.exists():
        raise EventError("the settings are fixed: round 1 has been paired (R41)", "conflict")
    _check_settings(event.body, values)
    values = hettlandic.settle(values, event)
    merged_system = values.get("system", event.system)
    if merged_system == SWISS and not values.get("rounds", event.rounds):
        raise EventError("a Swiss needs its number of rounds (R41)")
    _byes_of_swiss(merged_system, values.get("max_byes", event.max_byes))
    with transaction.atomic():
        for name, value in values.items():
            setattr(event, name, value)
        event.revision += 1
        event.save()
    return event


def set_chat(user, event: Event, allowed: bool) -> Event:
    """The event's arbiters allow chat beside its games, or take it away (issue 39): at any
    time, not only before round 1 (a setting of conduct, not of the competition); it holds
    from the next message on."""
    _manage(user, event)
    Event.objects.filter(pk=event.pk).update(chat=bool(allowed))
    event.chat = bool(allowed)
    touch(event.pk)
    return event


def set_arbiters(user, event: Event, users) -> None:
    _manage(user, event)
    if not users:
        raise EventError("an event needs at least one arbiter")
    playing = event.entries.filter(player__user__in=users).first()
    if playing is not None:
        raise EventError(f"{playing.name} plays in this event: an event's players do not "
                         "arbitrate it (R39)", "conflict")
    event.arbiters.set(users)
    touch(event.pk)


# --- entries ------------------------------------------------------------------------------------

def _rounds_paired(event: Event) -> int:
    return event.event_rounds.count()


def _late_byes(event: Event, entry: Entry) -> None:
    """A late entrant's rounds already paired are zero-point byes (C.04.1), so every round of
    every player is in the TRF and the scores add up."""
    for rnd in event.event_rounds.all():
        Pairing.objects.create(round=rnd, white=entry, bye="Z", result="",
                               decided_by="system", note="late entry")


def _not_an_arbiter(event: Event, player, who: str) -> None:
    """R39: an event's arbiters arbitrate its games, its players never do; so an arbiter does
    not play in their own event (entered, they would arbitrate their opponents' games)."""
    if player is not None and event.arbiters.filter(pk=player.user_id).exists():
        raise EventError(f"{who} an arbiter of this event: an arbiter does not play in the "
                         "event they arbitrate (R39)", "conflict")


def _open_for_entries(event: Event) -> int:
    if event.status == Event.CLOSED:
        raise EventError("the event is closed", "conflict")
    paired = _rounds_paired(event)
    if paired and event.system == hettlandic.SYSTEM:
        raise EventError("a Hettlandic phase 1 takes no entries after round 1 is paired (R44: "
                         "ratings at the start of the phase)", "conflict")
    if paired and event.system != SWISS:
        raise EventError("a round robin takes no entries after round 1 is paired (R42)",
                         "conflict")
    if paired and event.system == SWISS and paired >= event.rounds:
        raise EventError("every round is paired: too late to enter", "conflict")
    # An event built on the site holds what an imported one may (issue 41): its rows, its
    # pairing and its pages cost what docs/events.md measured at trf.MAX_PLAYERS; past it, a
    # self-entry or a guest was one more row each, without end. Read at call time (tests).
    if event.entries.count() >= trf.MAX_PLAYERS:
        raise EventError(f"the event is full: an event holds at most {trf.MAX_PLAYERS:,} "
                         "players", "conflict")
    return paired


def _may_play_rated(event: Event, user, who: str) -> None:
    """A rated event takes no entry of an account a moderator restricted from rated play
    (issue 39), in words."""
    if event.rated and (refusal := restrictions.rated_refusal(user, who)) is not None:
        raise EventError(refusal, "forbidden")


def register(user, event: Event) -> Entry:
    """A player enters an online (or board) event themselves, if they meet its conditions."""
    if not (user and user.is_authenticated):
        raise EventError("log in to enter an event", "forbidden")
    player = player_of(user)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        paired = _open_for_entries(event)
        if event.entries.filter(key=player.player_id).exists():
            raise EventError("you are already entered", "conflict")
        _not_an_arbiter(event, player, "you are")
        check_conditions(event, player, "yours is")
        _may_play_rated(event, user, "you")
        entry = Entry.objects.create(event=event, player=player, key=player.player_id,
                                     name=user.get_username(), rating=player.rating,
                                     joined_round=paired + 1)
        if paired:
            _late_byes(event, entry)
        touch(event.pk)
    return entry


def enter_player(user, event: Event, name: str, rating: int = 0,
                 player_id: str = "") -> Entry:
    """The arbiter enters a player: a registered one by player id, or (over the board) a guest
    without an account."""
    _manage(user, event)
    name = _name(name, "a player's name") if (name or "").strip() else ""
    if player_id:
        if problem(player_id, max_length=40) is not None:
            raise EventError(f"no player with id {player_id[:40]!r}")
        player = Player.objects.filter(player_id=player_id).select_related("user").first()
        if player is None:
            raise EventError(f"no player with id {player_id!r}")
        if player.user_id is None and event.venue == "online":
            raise EventError(f"{player_id} has no account: an online event's games are "
                             "played from one")
        key, rating = player.player_id, player.rating
        name = name or (player.user.get_username() if player.user else player.display_name)
    else:
        if event.venue == "online":
            raise EventError("an online event's players need an account: give a player id")
        if not name:
            raise EventError("a player needs a name")
        if not isinstance(rating, int) or isinstance(rating, bool) or not 0 <= rating < 10**6:
            raise EventError(f"rating must be a whole number, not {rating!r}")
        player = None
        key = f"BOARD-{secrets.token_hex(4).upper()}"
    return enter(event, player, key, name, rating)


def enter(event: Event, player, key: str, name: str, rating: int) -> Entry:
    """The entry itself, under the event's lock, once the caller checked who may make it
    (``enter_player``; ``registry.events.walk_in``): open for entries, not entered already,
    not an arbiter, the event's conditions; late entries get their byes (R41, C.04.1)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        paired = _open_for_entries(event)
        if event.entries.filter(key=key).exists():
            raise EventError(f"{name} is already entered", "conflict")
        _not_an_arbiter(event, player, f"{name} is")
        hettlandic.check_entry(event, player)  # registered players meeting the conditions
        if player is not None and player.user_id is not None:
            _may_play_rated(event, player.user, name)
        entry = Entry.objects.create(event=event, player=player, key=key, name=name[:200],
                                     rating=rating, joined_round=paired + 1)
        if paired:
            _late_byes(event, entry)
        touch(event.pk)
    return entry


def withdraw(user, event: Event, entry: Entry) -> Entry:
    """The player (or an arbiter) withdraws: not paired from the next round on (C.04.1; R42
    for a round robin's standings)."""
    if entry.event_id != event.pk:
        raise EventError("that player is not in this event")
    own = entry.player is not None and user.is_authenticated and entry.player.user_id == user.pk
    if not own:
        _manage(user, event)
    if event.status == Event.CLOSED:
        raise EventError("the event is closed", "conflict")
    if entry.withdrawn_after is not None:
        raise EventError(f"{entry.name} has already withdrawn", "conflict")
    with transaction.atomic():
        paired = _rounds_paired(event)
        touch(event.pk)
        if paired == 0:
            entry.delete()  # before round 1 a withdrawal is simply no entry
            return entry
        entry.withdrawn_after = paired
        entry.save(update_fields=["withdrawn_after"])
    return entry


def set_result(user, event: Event, pairing_id: int, result: str,
               round_number: int | None = None, note: str = "") -> Pairing:
    """The arbiter enters or corrects a result (over the board), or decides an online game
    (an absent player: ``+-``/``-+``, an unplayed game, R41). Until the event is closed."""
    _manage(user, event)
    if result not in GAME_RESULTS:
        raise EventError(f"unknown result {result!r}: one of {', '.join(GAME_RESULTS)}")
    with transaction.atomic():
        found = Pairing.objects.select_related("round", "game").filter(
            pk=pairing_id, round__event=event).first() if isinstance(pairing_id, int) else None
        if found is None or (round_number is not None and found.round.number != round_number):
            where = f"round {round_number}" if round_number is not None else "this event"
            raise EventError(f"game {pairing_id!r} is not in {where}")
        if found.black_id is None:
            raise EventError("a bye has no result to enter")
        game = found.game
        if game is not None and game.status == "live" and result not in ("+-", "-+", "--"):
            raise EventError("this game is being played on the site: its result comes from "
                             "the game, or decide it as unplayed (+-, -+, --)", "conflict")
        found.result = result
        found.decided_by = "arbiter"
        if (reason := problem(note or "", max_length=200)) is not None:
            raise EventError(f"the note {reason}")
        found.note = note or ""
        found.save(update_fields=["result", "decided_by", "note"])
        if game is not None and result in ("+-", "-+", "--"):
            from registry.events.results import not_rated

            not_rated(game)  # R41: an unplayed game is not rated, even if it ends later
        touch(event.pk)
        if game is not None and game.status == "live":
            from registry.events.results import announce_decision

            transaction.on_commit(lambda: announce_decision(game, found, user))
    return found


def match_record(user, event: Event, pairing_id: int, game_id: str,
                 round_number: int | None = None) -> Pairing:
    """Over the board: the club submitted the game's signed records (the submission API, book
    5.3.4); the arbiter matches that registry game to its pairing, whose result it then gives.
    The players must be the pairing's, `I` the pairing's white (R43)."""
    _manage(user, event)
    from registry.models import RegistryGame

    archived = RegistryGame.objects.filter(game_id=game_id).select_related(
        "player_i", "player_o").first() if _uuid(game_id) else None
    if archived is None:
        raise EventError(f"no registry game {game_id!r}")
    with transaction.atomic():
        found = Pairing.objects.select_related("round", "white", "black").filter(
            pk=pairing_id, round__event=event).first() if isinstance(pairing_id, int) else None
        if found is None or (round_number is not None and found.round.number != round_number):
            where = f"round {round_number}" if round_number is not None else "this event"
            raise EventError(f"game {pairing_id!r} is not in {where}")
        if found.black_id is None:
            raise EventError("a bye has no game")
        sides = (archived.player_i.player_id, archived.player_o.player_id)
        if sides != (found.white.key, found.black.key):
            raise EventError(f"that game was played by {sides[0]} (I) and {sides[1]} (O), not "
                             f"by this pairing's {found.white.key} (I) and {found.black.key} (O)")
        if archived.status != RegistryGame.FINISHED or archived.winner not in ("I", "O", "-"):
            raise EventError("that game has no result in the registry", "conflict")
        hettlandic.adopt_record(event, archived)  # a phase-1 game: rated in its phase (R45)
        found.result = {"I": "1-0", "O": "0-1", "-": "="}[archived.winner]
        found.decided_by = "arbiter"
        found.note = f"records {archived.game_id}"
        found.save(update_fields=["result", "decided_by", "note"])
        touch(event.pk)
    return found


def _uuid(value) -> bool:
    import uuid

    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def close_event(user, event: Event) -> Event:
    _manage(user, event)
    with transaction.atomic():
        rounds = list(event.event_rounds.all())
        if not rounds:
            raise EventError("no round has been paired", "conflict")
        open_rounds = [r.number for r in rounds if not round_complete(r)]
        if open_rounds:
            raise EventError(f"round {open_rounds[0]} has games without a result", "conflict")
        hettlandic.closing(event)  # a Hettlandic event's phases; a phase 2's awards (R46)
        event.status = Event.CLOSED
        event.closed = timezone.now()
        event.save(update_fields=["status", "closed"])
        touch(event.pk)
    return event


# --- TRF ----------------------------------------------------------------------------------------

def export_trf(event: Event) -> str:
    from registry.events.standings import ranked

    t = state.tournament(event)
    ranks = {row.key: row.rank for row in ranked(event, t)}
    arbiters = ", ".join(u.get_username() for u in event.arbiters.all())
    header = trf.Header(name=event.name, place=event.body.name,
                        start=event.created.strftime("%Y/%m/%d"),
                        end=event.closed.strftime("%Y/%m/%d") if event.closed else "",
                        arbiter=arbiters)
    # an arbiter's changes by hand, as ### comment lines (issue 38)
    return trf.export(t, header, ranks, manual_pairing.comment_lines(event))


def import_trf(user, body: AffiliatedBody, text: str, **values) -> Event:
    """A tournament started elsewhere: its players (linked to registered players by id when
    the TRF's ``TLP`` lines name them), rounds, pairings and results. Over the board.

    The registrar is checked before a byte of the file is read (parsing a large file costs a
    second of CPU: anyone could have it done before their 403, issue 41); the file is checked
    whole by ``trf.parse`` (ranges, caps, duplicates) before anything is written, and its rows
    are written in a few statements, so the largest file the caps let in holds the database's
    write lock (SQLite's only one) for a moment, not for minutes."""
    if not can_create(user, body):
        raise EventError("only a registrar of the body (or staff) imports its events",
                         "forbidden")
    if not isinstance(text, str) or len(text) > trf.MAX_CHARS:
        raise EventError(f"the TRF file is too large: at most {trf.MAX_CHARS:,} characters "
                         f"({trf.MAX_PLAYERS} players, {trf.MAX_ROUNDS} rounds)")
    if (reason := problem(text, multiline=True)) is not None:
        raise EventError(f"the TRF file {reason}")
    try:
        t = trf.parse(text)
    except trf.TRFError as exc:
        raise EventError(f"the TRF file has an error: {exc}") from None
    name = values.pop("name", "") or next(
        (ln[4:].strip() for ln in text.splitlines() if ln.startswith("012")), "") or "Imported"
    values.setdefault("system", t.system if t.system != "hettlandic" else SWISS)
    values.setdefault("rounds", t.total_rounds or len(t.rounds))
    values.setdefault("venue", "board")
    names = {e.key: _name(e.name or e.key, f"the name of player {e.key}") for e in t.entrants}
    players = {p.player_id: p for p in Player.objects.filter(
        player_id__in=[e.key for e in t.entrants])}
    for player in players.values():
        if player.user_id == user.pk:
            raise EventError(f"player {player.player_id} of the TRF is you, and you would be "
                             "its arbiter: an arbiter does not play in the event they "
                             "arbitrate (R39)", "conflict")
    with transaction.atomic():
        event = create_event(user, body, name=name, **values)
        entries = {e.key: e for e in Entry.objects.bulk_create([
            Entry(event=event, player=players.get(e.key), key=e.key, name=names[e.key],
                  rating=e.rating, joined_round=e.joined_round,
                  withdrawn_after=e.withdrawn_after) for e in t.entrants])}
        rounds = Round.objects.bulk_create([
            Round(event=event, number=r.number, state=Round.STARTED) for r in t.rounds])
        Pairing.objects.bulk_create([
            pairing for rnd, core_round in zip(rounds, t.rounds, strict=True)
            for pairing in _imported_pairings(rnd, core_round, entries)], batch_size=2000)
        event.initial_colour = t.initial_colour
        event.status = Event.RUNNING if t.rounds else Event.ANNOUNCED
        event.save(update_fields=["initial_colour", "status"])
    return event


def _imported_pairings(rnd: Round, core_round, entries: dict) -> list[Pairing]:
    """The rows of an imported round: its boards (results entered by the arbiter elsewhere)
    and its byes."""
    return ([Pairing(round=rnd, board=g.board, white=entries[g.white],
                     black=entries[g.black], result=g.result or "",
                     decided_by="arbiter" if g.result else "") for g in core_round.games]
            + [Pairing(round=rnd, white=entries[b.player], bye=b.kind, decided_by="system")
               for b in core_round.byes])
