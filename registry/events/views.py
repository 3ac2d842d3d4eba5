"""Event pages: the list, an event's page for everyone (settings, players, rounds with pairings
and results, standings with tie-breaks, crosstable, TRF download), the arbiter's controls on
the same page (set up, pair, start, enter and correct results, close), and "my pairings".

Every form posts to ``act``, which calls one service; a refusal comes back as a message in the
service's words and changes nothing (the services are transactions)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_http_methods

from play.games import clock
from play.games.registry import two_seat_choices, variant_label
from registry.events import (
    bye_requests,
    hettlandic,
    hettlandic_views,
    manual_pairing,
    pairer,
    rounds,
    schedule,
    services,
    standings,
    state,
    walk_in,
)
from registry.events.models import MODELS, POLICIES, SYSTEMS, VENUES, Entry, Event, Pairing
from registry.events.pairing.model import GAME_RESULTS
from registry.events.pairing.tiebreaks import LABELS, order
from registry.events.results import ANNULLED, result_of
from registry.models import AffiliatedBody

RESULT_WORDS = {"1-0": "1–0", "0-1": "0–1", "=": "½–½", "+-": "+ – − (unplayed)",
                "-+": "− – + (unplayed)", "--": "− – − (both absent)"}
BYE_WORDS = {"U": "bye (1 point)", "H": "half-point bye", "F": "full-point bye",
             "Z": "no game (0)"}


#: the announcement form's values before anything is typed
NEW_EVENT = {"body": "", "name": "", "variant": "standard", "system": "swiss", "rounds": "5",
             # issue 38: two half-point byes on request, lichess's and many opens' number
             "max_byes": "2",
             "scoring_model": "S1", "venue": "online", "auto_arbiter": "warn",
             "time_control": "untimed", "rated": True, "min_rating": "", "min_stratum": ""}


def event_list(request, form: dict | None = None, status: int = 200):
    """The events, and the announcement form; ``form`` the values of a refused announcement,
    shown again as typed (issue 38: a refusal kept nothing)."""
    events = Event.objects.select_related("body")[:100]
    bodies = []
    if request.user.is_authenticated:
        bodies = list(AffiliatedBody.objects.all() if request.user.is_staff
                      else request.user.registrar_of.all())
    return render(request, "events/list.html", {
        "events": events, "bodies": bodies, "systems": SYSTEMS, "models": MODELS,
        "venues": VENUES, "policies": POLICIES, "form": form or NEW_EVENT,
        "variants": two_seat_choices()}, status=status)


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@login_required
@require_http_methods(["POST"])
def event_new(request):
    typed = {k: request.POST.get(k, "") for k in NEW_EVENT if k != "rated"}
    typed["rated"] = request.POST.get("rated") == "on"
    body = AffiliatedBody.objects.filter(registrar_id=request.POST.get("body", "")).first()
    if body is None:
        messages.error(request, "Choose the body the event belongs to.")
        return event_list(request, typed, 400)
    values = {"name": request.POST.get("name", ""),
              # the event's game (issue 42): any two-seat variant, talu's by its name
              "variant": request.POST.get("variant", "standard") or "standard",
              "system": request.POST.get("system", "swiss"),
              "rounds": _int(request.POST.get("rounds"), 0),
              "scoring_model": request.POST.get("scoring_model", "S1"),
              "venue": request.POST.get("venue", "online"),
              "auto_arbiter": request.POST.get("auto_arbiter", "warn"),
              "rated": request.POST.get("rated") == "on",
              "time_control": request.POST.get("time_control", "") or "untimed",
              "min_rating": _int(request.POST.get("min_rating")),
              "min_stratum": _int(request.POST.get("min_stratum"))}
    if values["system"] == "swiss":  # byes on request are a Swiss's (issue 38)
        values["max_byes"] = _int(request.POST.get("max_byes"), 0)
    values = hettlandic.form_values(values)  # R44 fixes phase 1's rounds, model, rating
    try:
        event = services.create_event(request.user, body, **values)
    except services.EventError as exc:
        messages.error(request, str(exc))
        return event_list(request, typed, 400)  # every value kept, as typed
    messages.success(request, f"{event.name} is announced. Enter its players, then pair "
                              "round 1.")
    return redirect("event", event.pk)


#: the results of an unplayed game the arbiter decides (R41: an absent player)
UNPLAYED = ("+-", "-+", "--")
#: a round robin's every round is on its page (its players see the whole schedule, issue 38)
ALL_ROUNDS = ("round_robin", "double_round_robin")


def _how(p: Pairing) -> str:
    """Who gave an online game's result, when not the game itself (issue 38: a corrected
    result looked like a played one)."""
    if p.decided_by == ANNULLED:
        return "annulled: unplayed in the event"
    if p.decided_by != "arbiter" or p.game is None:
        return ""
    if p.result in UNPLAYED:  # an absent player (R41): the decision ended the game (its forfeit)
        return "decided by the arbiter"
    if p.game.status != "live" and result_of(p.game) not in (None, p.result):
        return "corrected by the arbiter"
    return "decided by the arbiter"


def _rounds(event: Event, user, number: int | None) -> list[dict]:
    """The round shown (one: a 500-player Swiss has 250 boards a round); a round robin's
    every round, the shown one first."""
    mine = None
    if user.is_authenticated:
        mine = Entry.objects.filter(event=event, player__user=user).values_list(
            "pk", flat=True).first()
    every = event.system in ALL_ROUNDS
    wanted = Pairing.objects.filter(round__event=event)
    if not every:
        wanted = wanted.filter(round__number=number)
    rows: dict[int, list] = {}
    by_hand = manual_pairing.notes(event, None if every else number)
    for p in wanted.select_related("white", "black", "game").order_by("round__number", "bye",
                                                                       "board"):
        p.words = RESULT_WORDS.get(p.result, "") if p.black_id else BYE_WORDS.get(p.bye, p.bye)
        p.how = _how(p) if p.black_id else ""
        p.mine = mine in (p.white_id, p.black_id)
        p.by_hand = by_hand.get(p.pk, [])  # issue 38: "changed by hand: reason"
        rows.setdefault(p.round_id, []).append(p)
    rounds = list(event.event_rounds.all() if every
                  else event.event_rounds.filter(number=number))
    rounds.sort(key=lambda r: (r.number != number, r.number))
    return [{"round": r, "pairings": rows.get(r.pk, []), "complete": services.round_complete(r)}
            for r in rounds]


def _settings_form(event: Event, typed=None) -> dict:
    """The settings form's values: the event's, or those of a refused change as typed."""
    form = {"name": event.name, "system": event.system, "rounds": event.rounds,
            "scoring_model": event.scoring_model, "venue": event.venue,
            "auto_arbiter": event.auto_arbiter, "rated": event.rated,
            "time_control": clock.time_label(event.time_control), "max_byes": event.max_byes,
            "arbiters": ", ".join(a.username for a in event.arbiters.all())}
    if typed is not None:
        form.update({k: typed.get(k, "") for k in form if k != "rated"})
        form["rated"] = typed.get("rated") == "on"
    return form


def event_page(request, event_id: int, typed=None, status: int = 200, walk_in_typed=None):
    """``typed``: the values of a refused settings change, shown again (issue 38).

    The round being paired is read first: the worker writes a round and deletes its request in
    one transaction, but this page reads in many statements, so read after the event and its
    rounds it could find the request gone and the round not yet there, and show neither
    (a page that would never reload; seen in CI)."""
    pairing = pairer.state_of(event_id)
    event = get_object_or_404(Event.objects.select_related("body"), pk=event_id)
    numbers = list(event.event_rounds.values_list("number", flat=True))
    shown = _int(request.GET.get("round"), numbers[-1] if numbers else None)
    if numbers and shown not in numbers:
        shown = numbers[-1]
    rows, _ = standings.cached(event)
    # the victory score (R28) breaks ties in S3 events only (R42/R43)
    criteria = [c for c in order(event.system)
                if c != "victory_score" or event.scoring_model == "S3"]
    table = [{"row": r, "values": [r.values.get(c, 0) for c in criteria]} for r in rows]
    is_arbiter = services.is_arbiter(request.user, event)
    # "Pair round N" only while a round is left to pair (issue 38)
    total = state.total_rounds(event, event.entries.count()) if numbers else 0
    entered = request.user.is_authenticated and event.entries.filter(
        player__user=request.user).first()
    return render(request, "events/event.html", {
        # a callable: the template calls it only when its cached fragment is stale
        "event": event, "rounds": lambda: _rounds(event, request.user, shown),
        "numbers": numbers, "mine": entered.pk if entered else 0,
        "shown": shown, "next_round": len(numbers) + 1, "table": table,
        "all_paired": bool(numbers) and len(numbers) >= total, "total_rounds": total,
        "every_round": event.system in ALL_ROUNDS,
        "last_round": event.event_rounds.order_by("-number").first() if is_arbiter else None,
        "labels": [LABELS[c] for c in criteria], "entries": event.entries.all(),
        "is_arbiter": is_arbiter, "entered": entered,
        "het": hettlandic_views.context(request, event),  # R44-R46
        "results": [(r, RESULT_WORDS[r]) for r in GAME_RESULTS],
        "arbiters": event.arbiters.all(), "locked": bool(numbers),
        "systems": SYSTEMS, "models": MODELS, "venues": VENUES, "policies": POLICIES,
        "pairing": pairing, "time_label": clock.time_label(event.time_control),
        "variant_label": variant_label(event.variant),
        "sf": _settings_form(event, typed), "refused": typed is not None,
        "may_register": walk_in.may_register(request.user, event),
        "body_players": _body_players(event) if is_arbiter else [],
        "walk_in": walk_in_typed or {},
        **_byes_and_changes(event, entered, is_arbiter, shown)}, status=status)


def _body_players(event: Event) -> list:
    """The players registered with the event's body and not entered yet, offered to its
    arbiter by name in "Enter a player" (issue 38's walk-through: the arbiter had to copy each
    18-character player id from the club's page). An online event's games are played from
    accounts, so only players with one are offered there."""
    if event.status == Event.CLOSED:
        return []
    players = event.body.players.select_related("user").exclude(
        player_id__in=event.entries.values("key"))
    if event.venue == "online":
        players = players.filter(user__isnull=False)
    return sorted(players[:1000], key=lambda p: p.name.lower())


def _byes_and_changes(event: Event, entered, is_arbiter: bool, shown) -> dict:
    """Issue 38 on the event page: a player's bye requests and the rounds they may ask for;
    the arbiter's waiting requests and the shown round's changes by hand."""
    out: dict = {"bye_rounds": [], "my_byes": [], "byes_left": 0, "waiting_byes": [],
                 "changes": [], "changeable": None}
    paired = len(event.event_rounds.all())
    if event.system == "swiss" and event.max_byes and event.status != Event.CLOSED:
        if entered and entered.withdrawn_after is None:
            mine = bye_requests.of_entry(event, entered)
            asked = {b["number"] for b in mine}
            out["my_byes"] = mine
            out["bye_rounds"] = [n for n in range(paired + 1, event.rounds + 1)
                                 if n not in asked]
            out["byes_left"] = max(0, event.max_byes - bye_requests.half_byes(event, entered))
        if is_arbiter:
            out["waiting_byes"] = bye_requests.waiting(event)
    if shown is not None:
        rnd = event.event_rounds.filter(number=shown).first()
        if rnd is not None:
            out["changes"] = manual_pairing.of_round(rnd)
            if is_arbiter and rnd.state == rnd.PAIRED and paired == rnd.number and \
                    event.system == "swiss" and event.status != Event.CLOSED:
                out["changeable"] = rnd
    return out


def event_pairing(request, event_id: int):
    """The round being paired (issue 40), polled by the event page (static/events/pairing.js)
    until it is there: ``{"pairing": null}`` when none is asked."""
    event = get_object_or_404(Event, pk=event_id)
    return JsonResponse({"pairing": pairer.state(event)})


def event_crosstable(request, event_id: int):
    event = get_object_or_404(Event.objects.select_related("body"), pk=event_id)
    _, crosstable = standings.cached(event)
    numbers = list(event.event_rounds.values_list("number", flat=True))
    return render(request, "events/crosstable.html", {"event": event, "crosstable": crosstable,
                                                      "numbers": numbers})


def event_trf(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    response = HttpResponse(services.export_trf(event), content_type="text/plain; "
                                                                    "charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.trf"'
    return response


def _act(request, event: Event, action: str) -> str:
    user, post = request.user, request.POST
    if action == "register":
        services.register(user, event)
        return "You are entered."
    if action == "withdraw":
        entry = get_object_or_404(Entry, event=event, key=post.get("key", ""))
        services.withdraw(user, event, entry)
        return f"{entry.name} has withdrawn."
    if action == "enter":
        rating = _int(post.get("rating") or 0)
        if rating is None:
            raise services.EventError("the rating is a whole number")
        entry = services.enter_player(user, event, post.get("name", ""), rating,
                                      post.get("player_id", "").strip())
        return f"{entry.name} is entered."
    if action == "settings":
        values = {"name": post.get("name", event.name),
                  "rounds": _int(post.get("rounds"), event.rounds),
                  "system": post.get("system", event.system),
                  "scoring_model": post.get("scoring_model", event.scoring_model),
                  "venue": post.get("venue", event.venue),
                  "auto_arbiter": post.get("auto_arbiter", event.auto_arbiter),
                  "time_control": post.get("time_control", event.time_control) or "untimed",
                  "rated": post.get("rated") == "on"}
        if values["system"] == "swiss":  # byes on request are a Swiss's (issue 38)
            values["max_byes"] = _int(post.get("max_byes"), event.max_byes)
        elif event.max_byes:
            values["max_byes"] = 0
        services.change_settings(user, event, **hettlandic.form_values(values, event))
        names = [n.strip() for n in post.get("arbiters", "").split(",") if n.strip()]
        if names:
            users = list(get_user_model().objects.filter(username__in=names))
            missing = set(names) - {u.get_username() for u in users}
            if missing:
                raise services.EventError(f"no account {sorted(missing)[0]!r}")
            services.set_arbiters(user, event, users)
        return "Settings saved."
    if action == "chat":  # issue 39: chat beside the event's games, off by default
        allowed = post.get("chat") == "on"
        services.set_chat(user, event, allowed)
        return ("Chat is on beside this event's games." if allowed else
                "Chat is off beside this event's games.")
    if action == "pair":
        asked = rounds.request_pairing(user, event, force=post.get("force") == "on")
        return f"Round {asked.number} is being paired: the page shows it when it is done."
    if action == "start":
        rnd = rounds.start_round(user, event, _int(post.get("round")))
        return f"Round {rnd.number} has started."
    if action == "schedule":
        number, text = _int(post.get("round")), post.get("at", "").strip()
        try:
            at = parse_datetime(text) if text else None
        except ValueError:  # well formed, but no such day or hour
            at = None
        if text and at is None:
            raise services.EventError(f"{text!r} is not a date and time (YYYY-MM-DD HH:MM)")
        rnd = schedule.schedule_round(user, event, number, at)
        if at is None:
            return f"Round {rnd.number} has no start time: start it with the button."
        return (f"Round {rnd.number} starts at {rnd.scheduled:%Y-%m-%d %H:%M} UTC: the "
                "site starts it then.")
    if action == "result":
        p = services.set_result(user, event, _int(post.get("pairing"), -1),
                                post.get("result", ""), _int(post.get("round")),
                                post.get("note", ""))
        return f"Board {p.board}: {RESULT_WORDS[p.result]}."
    if action == "bye_request":  # issue 38: a player's bye for a future round
        bye = bye_requests.request_bye(user, event, _int(post.get("round")), post.get("kind"))
        return f"You asked for a {bye_requests.KIND_WORDS[bye.kind]} in round {bye.number}."
    if action == "bye_cancel":
        number = _int(post.get("round"))
        bye_requests.cancel(user, event, number)
        return f"Your bye in round {number} is cancelled."
    if action == "change":  # issue 38: an arbiter's change by hand to a paired round
        kind = post.get("change", "")
        manual_pairing.change(
            user, event, _int(post.get("round")), kind, reason=post.get("reason", ""),
            boards=[_int(post.get("board_a")), _int(post.get("board_b"))],
            players=[post.get("player_a", ""), post.get("player_b", "")],
            board=_int(post.get("board")))
        return "The round is changed by hand; the reason is shown beside its boards."
    if action == "close":
        services.close_event(user, event)
        return "The event is closed; its results are final."
    raise services.EventError(f"unknown action {action!r}")


#: the actions that cannot be taken back by a click: asked again on a page of their own
#: (issue 38); the second post carries ``confirm=1``. No script: the site's CSP allows none
#: inline, and a page works everywhere.
CONFIRMED = ("close", "result", "withdraw")


def _question(request, event: Event, action: str) -> tuple[str, str] | None:
    """The question a confirmation page asks and its button's words, or None when there is
    nothing to confirm (the service then refuses in its own words)."""
    post = request.POST
    if action == "close":
        return (f"Close {event.name}? Its results become final (R41): no result can be "
                "entered or corrected after this.", "Close the event")
    if action == "withdraw":
        entry = Entry.objects.filter(event=event, key=post.get("key", "")).first()
        if entry is None:
            return None
        who = ("you" if entry.player_id and entry.player.user_id == request.user.pk
               else entry.name)
        return (f"Withdraw {who} from {event.name}? {'You are' if who == 'you' else 'They are'}"
                " paired in no later round; the results so far stay.", "Withdraw")
    if action == "result":
        p = Pairing.objects.filter(pk=_int(post.get("pairing"), -1), round__event=event,
                                   black__isnull=False).select_related(
            "round", "white", "black").first()
        words = RESULT_WORDS.get(post.get("result", ""))
        if p is None or words is None:
            return None
        was = RESULT_WORDS.get(p.result, "no result yet")
        return (f"Round {p.round.number}, board {p.board}: {p.white.name} – {p.black.name}. "
                f"Set the result to {words}? (Now: {was}.)", "Set the result")
    return None


@login_required
@require_http_methods(["POST"])
def event_walk_in(request, event_id: int):
    """A registrar registers and enters a walk-in player (``registry.events.walk_in``); a new
    account's first password is shown on this page once (never in a message, which a cookie
    may carry)."""
    event = get_object_or_404(Event.objects.select_related("body"), pk=event_id)
    try:
        entry, password = walk_in.register_walk_in(
            request.user, event, request.POST.get("name", ""),
            request.POST.get("username", ""))
    except services.EventError as exc:
        messages.error(request, str(exc))
        return event_page(request, event.pk, status=403 if exc.code == "forbidden" else 400,
                          walk_in_typed=request.POST)
    if not password:
        messages.success(request, f"{entry.name} is registered (no account, player id "
                                  f"{entry.key}) and entered.")
        return redirect("event", event.pk)
    return render(request, "events/walk_in.html", {"event": event, "entry": entry,
                                                   "username": entry.player.user.username,
                                                   "password": password})


@login_required
@require_http_methods(["POST"])
def event_act(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    action = request.POST.get("action", "")
    if action in CONFIRMED and request.POST.get("confirm") != "1" and (
            asked := _question(request, event, action)) is not None:
        fields = [(k, v) for k, v in request.POST.items()
                  if k not in ("csrfmiddlewaretoken", "confirm")]
        return render(request, "events/confirm.html", {
            "event": event, "question": asked[0], "button": asked[1], "fields": fields,
            "danger": action != "result"})
    try:
        messages.success(request, _act(request, event, action))
    except services.EventError as exc:
        messages.error(request, str(exc))
        if action == "settings":  # the form again, with every value as typed
            return event_page(request, event.pk, typed=request.POST, status=400)
    return redirect("event", event.pk)


@login_required
def my_pairings(request):
    """The signed-in player's pairings in events not closed, newest round first, with their
    game's page for an online round that has started."""
    entries = Entry.objects.filter(player__user=request.user)
    pairings = (Pairing.objects.filter(Q(white__in=entries) | Q(black__in=entries))
                .select_related("round__event", "white__player", "black", "game")
                .order_by("-round__event__created", "-round__number")[:50])
    rows = []
    for p in pairings:
        me_white = p.white.player_id is not None and p.white.player.user_id == request.user.pk
        rows.append({"p": p, "event": p.round.event, "colour": "I" if me_white else "O",
                     "opponent": (p.black if me_white else p.white) if p.black_id else None,
                     "words": RESULT_WORDS.get(p.result, "") if p.black_id
                     else BYE_WORDS.get(p.bye, p.bye)})
    return render(request, "events/mine.html", {"rows": rows})
