"""The events API (mounted under ``/api/v1/events/``): anyone reads an event, its standings and
its TRF; a body's registrars announce events; only the event's arbiters manage it (R39).
Thin wrappers over ``registry.events.services``: a refused action is a JSON error naming what
is wrong, and nothing changed (each service is one transaction)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from registry.api.errors import Conflict
from registry.api.schema import ErrorSerializer
from registry.events import pairer, rounds, schedule, services, standings
from registry.events.models import MODELS, POLICIES, SYSTEMS, VENUES, Entry, Event, Pairing
from registry.events.pairing import trf
from registry.events.pairing.model import GAME_RESULTS
from registry.models import AffiliatedBody

ERROR = OpenApiResponse(ErrorSerializer, description="Refused: `detail` says why; nothing "
                                                     "was changed.")


class Invalid(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "The request cannot be done so."
    default_code = "invalid"


def _raise(exc: services.EventError):
    if exc.code == "forbidden":
        raise exceptions.PermissionDenied(str(exc))
    if exc.code == "conflict":
        raise Conflict(str(exc))
    raise Invalid(str(exc))


class ReadOrSignedIn(permissions.BasePermission):
    """Reads for everyone; writes for a signed-in person, whose right to the action the
    service decides (an event's arbiter, a body's registrar, the player themselves)."""

    message = "Log in to do that."

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(
            request.user and request.user.is_authenticated)


class EventView(APIView):
    """Every write of the events API (and its Hettlandic part) takes a JSON object (or a
    form, or no body): one rule, checked here after the permissions, so a list, a string, a
    number or null is a 400 in words and never read as an empty body (a list to the pairing
    endpoint paired the next round, issue 41). ``body_fields`` names what the body holds."""

    permission_classes = [ReadOrSignedIn]
    body_fields = "{} or nothing: this action takes no fields"

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if request.method not in permissions.SAFE_METHODS:
            _object(request, self.body_fields)


def cached_json(event: Event, part: str, build) -> HttpResponse:
    """The JSON of ``part`` at the event's revision, built once per change (a 500-player
    event's full JSON takes a second to build; BENCHMARKS.md)."""
    from django.core.cache import cache

    key = f"talu:event:{event.pk}:{event.revision}:{part}.json"
    body = cache.get(key)
    if body is None:
        body = JSONRenderer().render(build())
        cache.set(key, body, 24 * 3600)
    return HttpResponse(body, content_type="application/json")


def _user(request):
    return request.user if request.user and request.user.is_authenticated else None


def _object(request, fields: str) -> dict:
    """The request's body as a JSON object (or a form; no body is an empty one): a list, a
    string, a number or null is refused in words, not read as an empty body (a list on the
    entries endpoint was "enter me", issue 41). ``EventView`` asks it of every write."""
    if not isinstance(request.data, dict):
        raise Invalid(f"the body is a JSON object: {fields}")
    return request.data


class SettingsSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    variant = serializers.CharField(max_length=16, required=False)
    time_control = serializers.CharField(max_length=40, required=False)
    rated = serializers.BooleanField(required=False)
    scoring_model = serializers.ChoiceField([c for c, _ in MODELS], required=False)
    system = serializers.ChoiceField([c for c, _ in SYSTEMS], required=False)
    rounds = serializers.IntegerField(min_value=0, max_value=trf.MAX_ROUNDS, required=False)
    auto_arbiter = serializers.ChoiceField([c for c, _ in POLICIES], required=False)
    venue = serializers.ChoiceField([c for c, _ in VENUES], required=False)
    min_rating = serializers.IntegerField(min_value=0, max_value=10**6, required=False,
                                          allow_null=True)
    min_stratum = serializers.IntegerField(min_value=1, max_value=3, required=False,
                                           allow_null=True)
    max_byes = serializers.IntegerField(
        min_value=0, max_value=trf.MAX_ROUNDS, required=False,
        help_text="the half-point byes a player may request (a Swiss's; 0: no requests)")
    arbiters = serializers.ListField(child=serializers.CharField(max_length=150),
                                     required=False, allow_empty=False,
                                     help_text="usernames of the event's arbiters")


class CreateSerializer(SettingsSerializer):
    body = serializers.CharField(max_length=64, help_text="the body's registrar id")
    name = serializers.CharField(max_length=200)


def _settings(data: dict) -> tuple[dict, list | None]:
    values = {k: v for k, v in data.items() if k not in ("arbiters", "body")}
    names = data.get("arbiters")
    if names is None:
        return values, None
    users = list(get_user_model().objects.filter(username__in=names))
    missing = set(names) - {u.get_username() for u in users}
    if missing:
        raise exceptions.ValidationError({"arbiters": [f"no account {sorted(missing)[0]!r}"]})
    return values, users


def pairing_json(p: Pairing) -> dict:
    return {"id": p.pk, "board": p.board,
            "white": {"key": p.white.key, "name": p.white.name},
            "black": {"key": p.black.key, "name": p.black.name} if p.black_id else None,
            "bye": p.bye or None, "result": p.result or None,
            "game": str(p.game.uuid) if p.game_id else None,
            "decided_by": p.decided_by or None, "note": p.note or None}


def event_json(event: Event, full: bool = True) -> dict:
    # the round being paired first: once it reads None, the rounds read below hold the round
    # (pairer.state_of); read after them, the round could be missing from both
    pairing = pairer.state(event) if full else None
    out = {"id": event.pk, "name": event.name, "body": event.body.registrar_id,
           "status": event.status, "settings": {name: getattr(event, name)
                                                for name in Event.SETTINGS if name != "name"},
           "arbiters": [u.get_username() for u in event.arbiters.all()],
           "initial_colour": event.initial_colour or None}
    if not full:
        return out
    out["players"] = [{"key": e.key, "name": e.name, "rating": e.rating,
                       "joined_round": e.joined_round, "withdrawn_after": e.withdrawn_after,
                       "registered": e.player_id is not None}
                      for e in event.entries.all()]
    pairings: dict[int, list] = {}
    for p in Pairing.objects.filter(round__event=event).select_related(
            "white", "black", "game").order_by("round__number", "bye", "board"):
        pairings.setdefault(p.round_id, []).append(pairing_json(p))
    out["rounds"] = [{"number": r.number, "state": r.state, "forced": r.forced,
                      "scheduled": r.scheduled, "started": r.started,
                      "complete": services.round_complete(r),
                      "pairings": pairings.get(r.pk, [])} for r in event.event_rounds.all()]
    out["pairing"] = pairing  # the round being paired, if one is asked
    return out


EVENT = inline_serializer("Event", {"id": serializers.IntegerField(),
                                    "name": serializers.CharField(),
                                    "status": serializers.CharField(),
                                    "settings": serializers.DictField(),
                                    "players": serializers.ListField(),
                                    "rounds": serializers.ListField()})


EVENT_LIST = inline_serializer("EventList", {
    "results": serializers.ListField(child=serializers.DictField(),
                                     help_text="the newest 100 events: id, name, body, status, "
                                               "settings, arbiters")})


class EventList(EventView):
    body_fields = "body (the registrar id), name and the event's settings"

    @extend_schema(summary="Events, newest first", operation_id="events_list",
                   responses={200: EVENT_LIST})
    def get(self, request):
        events = Event.objects.select_related("body").prefetch_related("arbiters")[:100]
        return Response({"results": [event_json(e, full=False) for e in events]})

    @extend_schema(summary="Announce an event (a registrar of its body)",
                   request=CreateSerializer, responses={201: EVENT, 400: ERROR, 403: ERROR})
    def post(self, request):
        data = CreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = AffiliatedBody.objects.filter(registrar_id=data.validated_data["body"]).first()
        if body is None:
            raise exceptions.ValidationError({"body": ["no such affiliated body"]})
        values, arbiters = _settings(data.validated_data)
        try:
            event = services.create_event(_user(request), body, arbiters, **values)
        except services.EventError as exc:
            _raise(exc)
        return Response(event_json(event), status=status.HTTP_201_CREATED)


class EventDetail(EventView):
    body_fields = "the settings to change, and arbiters"

    @extend_schema(summary="An event: settings, players, rounds with pairings and results",
                   responses={200: EVENT})
    def get(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)
        return cached_json(event, "detail", lambda: event_json(event))

    @extend_schema(summary="Change settings (an arbiter, before round 1) or the arbiters",
                   request=SettingsSerializer,
                   responses={200: EVENT, 400: ERROR, 403: ERROR, 409: ERROR})
    def patch(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)
        data = SettingsSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values, arbiters = _settings(data.validated_data)
        try:
            if values or arbiters is None:
                services.change_settings(_user(request), event, **values)
            if arbiters is not None:
                services.set_arbiters(_user(request), event, arbiters)
        except services.EventError as exc:
            _raise(exc)
        return Response(event_json(Event.objects.get(pk=event.pk)))


class EntryCreate(EventView):
    body_fields = "empty to enter yourself; or player_id, or name and rating"

    @extend_schema(
        summary="Enter the event: yourself (no body), or as its arbiter a player by id or an "
                "over-the-board guest by name and rating",
        request=inline_serializer("EntryIn", {
            "player_id": serializers.CharField(required=False),
            "name": serializers.CharField(required=False),
            "rating": serializers.IntegerField(required=False)}),
        responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)
        data = request.data  # an object: EventView
        try:
            if not data:
                entry = services.register(_user(request), event)
            else:
                rating = data.get("rating", 0)
                if not isinstance(rating, int):
                    raise services.EventError(f"rating must be a whole number, not {rating!r}")
                entry = services.enter_player(_user(request), event, str(data.get("name", "")),
                                              rating, str(data.get("player_id", "") or ""))
        except services.EventError as exc:
            _raise(exc)
        return Response({"key": entry.key, "name": entry.name, "rating": entry.rating,
                         "joined_round": entry.joined_round}, status=status.HTTP_201_CREATED)


class EntryWithdraw(EventView):
    @extend_schema(summary="Withdraw (the player, or an arbiter)", request=None,
                   responses={200: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int, key: str):
        event = get_object_or_404(Event, pk=event_id)
        entry = get_object_or_404(Entry, event=event, key=key)
        if _user(request) is None:
            raise exceptions.NotAuthenticated()
        try:
            entry = services.withdraw(request.user, event, entry)
        except services.EventError as exc:
            _raise(exc)
        return Response({"key": entry.key, "withdrawn_after": entry.withdrawn_after})


PAIRING = inline_serializer("EventRoundAsked", {
    "number": serializers.IntegerField(help_text="the round asked"),
    "state": serializers.CharField(help_text="queued, running or failed"),
    "done": serializers.IntegerField(help_text="players in pairs fixed so far"),
    "total": serializers.IntegerField(help_text="players to pair (0 until it starts)"),
    "error": serializers.CharField(allow_null=True, help_text="why it failed, in words")},
    allow_null=True, help_text="null: no round is being paired")
PAIRING_STATE = inline_serializer("EventPairingState", {
    "pairing": PAIRING, "rounds": serializers.IntegerField(help_text="rounds paired")})


def pairing_state(event: Event) -> dict:
    """The round being paired (null once it is: it is then in the event's rounds)."""
    return {"pairing": pairer.state(event), "rounds": event.event_rounds.count()}


class RoundPair(EventView):
    body_fields = "force (true or false) and absent (player keys to H or Z), or nothing"

    @extend_schema(summary="The round being paired (issue 40): poll until pairing is null",
                   responses={200: PAIRING_STATE})
    def get(self, request, event_id: int):
        return Response(pairing_state(get_object_or_404(Event, pk=event_id)))

    @extend_schema(
        summary="Ask for the next round (an arbiter): the worker pairs it (202 and the "
                "pairing's state; GET this URL, or the event, until it is paired)",
        request=inline_serializer("PairIn", {
            "force": serializers.BooleanField(required=False),
            "absent": serializers.DictField(child=serializers.ChoiceField(["H", "Z"]),
                                            required=False)}),
        responses={202: PAIRING_STATE, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)
        data = request.data  # an object: EventView
        force, absent = data.get("force", False), data.get("absent") or {}
        if not isinstance(force, bool) or not isinstance(absent, dict):
            raise Invalid("force is true or false; absent maps player keys to H or Z")
        try:
            rounds.request_pairing(_user(request), event, force=force, absent=absent)
        except services.EventError as exc:
            _raise(exc)
        return Response(pairing_state(event), status=status.HTTP_202_ACCEPTED)


class RoundStart(EventView):
    @extend_schema(summary="Start a paired round: online, its games are created",
                   request=None, responses={200: EVENT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int, number: int):
        event = get_object_or_404(Event, pk=event_id)
        try:
            rounds.start_round(_user(request), event, number)
        except services.EventError as exc:
            _raise(exc)
        return Response(event_json(event))


class ScheduleSerializer(serializers.Serializer):
    at = serializers.DateTimeField(allow_null=True, help_text=(
        "when the worker starts the round (ISO 8601; without a zone, UTC); null takes the "
        "time away"))


class RoundSchedule(EventView):
    body_fields = "at (an ISO 8601 time, or null)"

    @extend_schema(
        summary="Give a paired round its start time (an arbiter): the worker starts it then, "
                "as the start button does (R41)",
        request=ScheduleSerializer, responses={200: EVENT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int, number: int):
        event = get_object_or_404(Event, pk=event_id)
        data = ScheduleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            schedule.schedule_round(_user(request), event, number, data.validated_data["at"])
        except services.EventError as exc:
            _raise(exc)
        return Response(event_json(Event.objects.get(pk=event.pk)))


class RoundResult(EventView):
    body_fields = "pairing and result (or game_id), and a note"

    @extend_schema(
        summary="Enter, correct or decide a result of the round (an arbiter); or give the "
                "registry game (`game_id`) whose submitted records are this board's",
        request=inline_serializer("ResultIn", {
            "pairing": serializers.IntegerField(),
            "result": serializers.ChoiceField(list(GAME_RESULTS), required=False),
            "game_id": serializers.UUIDField(required=False),
            "note": serializers.CharField(required=False)}),
        responses={200: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int, number: int):
        event = get_object_or_404(Event, pk=event_id)
        data = request.data  # an object: EventView
        pairing = data.get("pairing")
        try:
            if data.get("game_id"):
                found = services.match_record(_user(request), event, pairing,
                                              str(data["game_id"]), number)
                return Response(pairing_json(found))
            found = services.set_result(_user(request), event, pairing,
                                        str(data.get("result", "")), number,
                                        str(data.get("note", "") or ""))
        except services.EventError as exc:
            _raise(exc)
        return Response(pairing_json(found))


class EventClose(EventView):
    @extend_schema(summary="Close the event: its results are final (an arbiter)",
                   request=None, responses={200: EVENT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)
        try:
            services.close_event(_user(request), event)
        except services.EventError as exc:
            _raise(exc)
        return Response(event_json(Event.objects.get(pk=event.pk)))


class EventStandings(EventView):
    @extend_schema(summary="Standings with tie-breaks (R42/R43) and the crosstable",
                   responses={200: OpenApiTypes.OBJECT})
    def get(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)

        def build():
            rows, crosstable = standings.cached(event)
            return {"standings": [{"rank": r.rank, "key": r.key, "name": r.name,
                                   "points": r.points, "number": r.number,
                                   "withdrawn": r.withdrawn, "tiebreaks": r.values}
                                  for r in rows],
                    "crosstable": crosstable}

        return cached_json(event, "standings", build)


class EventTRF(EventView):
    @extend_schema(summary="The event as FIDE's TRF (R43)",
                   responses={(200, "text/plain"): OpenApiTypes.STR})
    def get(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)
        response = HttpResponse(services.export_trf(event), content_type="text/plain; "
                                                                        "charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.trf"'
        return response


class EventImport(EventView):
    body_fields = "body (the registrar id), trf (the file's text) and name"

    @extend_schema(
        summary="Import a tournament started elsewhere from its TRF (a registrar of the body; "
                f"at most {trf.MAX_PLAYERS:,} players, {trf.MAX_ROUNDS} rounds, "
                f"{trf.MAX_PLAYER_ROUNDS:,} rounds of players, {trf.MAX_CHARS:,} characters: "
                "docs/events.md)",
        request=inline_serializer("ImportIn", {"body": serializers.CharField(),
                                               "trf": serializers.CharField(),
                                               "name": serializers.CharField(required=False)}),
        responses={201: EVENT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request):
        data = request.data  # an object: EventView
        body = AffiliatedBody.objects.filter(registrar_id=str(data.get("body", ""))).first()
        if body is None:
            raise exceptions.ValidationError({"body": ["no such affiliated body"]})
        text = data.get("trf")
        if not isinstance(text, str):
            raise exceptions.ValidationError({"trf": ["the TRF file's text"]})
        try:  # the registrar first, then the file's size, then its contents (the service)
            event = services.import_trf(_user(request), body, text,
                                        name=str(data.get("name", "") or ""))
        except services.EventError as exc:
            _raise(exc)
        return Response(event_json(event), status=status.HTTP_201_CREATED)
