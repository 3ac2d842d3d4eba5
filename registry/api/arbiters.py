"""The arbiter's REST API (R39): appointments of a game, and the arbiter's actions on it.

* ``GET /games/<id>/arbiters/``: the game's arbiters (public, like the game).
* ``POST /games/<id>/arbiters/``: appoint an account (the game's body: its token, a registrar
  login; or staff), audited; 409 for a game of an event, whose arbiters are the event's
  (R39). ``DELETE /games/<id>/arbiters/<username>/``: remove, audited.
* ``POST /games/<id>/arbiter/``: an action of the arbiter logged in (session or basic auth),
  or sent with the game's body token for an arbiter that body appointed (``arbiter``: the
  account; an arbiter is a person, R39, and the record names them): ``warn``,
  ``count_as_pass``, ``forfeit``, ``null``, ``adjourn``, ``resume`` (R38) and ``add_time``
  (R39, R36: ``seconds`` to ``side``'s clock) on a game in play, through the one command path
  (``play.commands.arbiter``); ``annul`` after the game, through the R30 cascade
  (``registry.corrections``).
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from play.commands import arbiter as arbiter_commands
from play.games import ARBITER_COMMANDS
from registry import arbiters
from registry.api.auth import body_of
from registry.api.errors import Conflict
from registry.api.schema import ErrorSerializer
from registry.corrections import GameStateConflict, annul_game
from registry.models import RegistryGame

ACTIONS = (*ARBITER_COMMANDS, "annul")
ERROR = OpenApiResponse(ErrorSerializer, description="Refused; nothing was changed.")

#: The command path's refusal codes as HTTP statuses.
STATUS = {"not_found": 404, "forbidden": 403, "bad_step": 400, "illegal": 409,
          "finished": 409, "busy": 503, "stale": 409, "not_your_turn": 409}


class AppointSerializer(serializers.Serializer):
    arbiter = serializers.CharField(max_length=150, help_text="The account's username.")
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True,
                                   default="")


class AppointmentSerializer(serializers.Serializer):
    arbiter = serializers.CharField(source="user.username")
    body = serializers.CharField(source="body.registrar_id")
    appointed = serializers.DateTimeField(source="created")


class ActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=ACTIONS)
    reason = serializers.CharField(max_length=500, help_text="Why, in words (R39).")
    side = serializers.ChoiceField(choices=["I", "O"], required=False,
                                   help_text="warn, forfeit: the side; add_time: the side "
                                             "whose clock gets the time; count_as_pass: "
                                             "optional, the side that played the turn.")
    turn = serializers.CharField(max_length=12, required=False,
                                 help_text="count_as_pass: a turn already played, '014 O'.")
    seconds = serializers.IntegerField(required=False,
                                       help_text="add_time: the seconds to add to the side's "
                                                 "clock (a timed game; at most an hour to a "
                                                 "live clock, 14 days to a correspondence "
                                                 "one).")
    arbiter = serializers.CharField(max_length=150, required=False,
                                    help_text="With a body token only: the username of the "
                                              "arbiter the body appointed, acting.")
    at = serializers.DateTimeField(required=False,
                                   help_text="resume: the time play resumes (R38), later than "
                                             "now; the worker resumes the adjourned game "
                                             "then. Without it, resume at once.")


class ActionResultSerializer(serializers.Serializer):
    action = serializers.CharField()
    version = serializers.IntegerField(help_text="The game's version after the action.")
    events = serializers.ListField(child=serializers.DictField())
    outcome = serializers.DictField(allow_null=True)


def _archived(game_id) -> RegistryGame:
    game = RegistryGame.objects.select_related("body", "live").filter(game_id=game_id).first()
    if game is None:
        raise Http404("No such game.")
    return game


def _user(request):
    user = request.user
    return user if user is not None and user.is_authenticated else None


def _form(serializer_class, request):
    if not isinstance(request.data, dict):
        raise exceptions.ValidationError({"non_field_errors": ["Expected a JSON object."]})
    form = serializer_class(data=request.data)
    form.is_valid(raise_exception=True)
    return form.validated_data


def _check_appointer(request, game: RegistryGame) -> None:
    if body_of(request) is None and _user(request) is None:
        raise exceptions.NotAuthenticated()
    if not arbiters.can_appoint(game, user=_user(request), body=body_of(request)):
        raise exceptions.PermissionDenied(
            "Only the game's affiliated body (its token or a registrar) or staff may appoint "
            "or remove its arbiters.")


@extend_schema(tags=["arbiters"])
class GameArbiters(APIView):
    """The arbiters appointed for one game (R39)."""

    permission_classes = [AllowAny]  # reads are public; writes checked below, per game

    @extend_schema(summary="The game's arbiters", responses={200: AppointmentSerializer(many=True)})
    def get(self, request, game_id):
        game = _archived(game_id)
        return Response(AppointmentSerializer(arbiters.arbiters_of(game), many=True).data)

    @extend_schema(summary="Appoint an arbiter for a game outside any event (its body, "
                           "registrar or staff; an event's games are its arbiters', R39)",
                   request=AppointSerializer,
                   responses={201: AppointmentSerializer, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, game_id):
        game = _archived(game_id)
        _check_appointer(request, game)
        data = _form(AppointSerializer, request)
        account = arbiters.account(data["arbiter"])
        if account is None:
            raise exceptions.ValidationError({"arbiter": ["No active account of that name."]})
        try:
            appointment = arbiters.appoint(game, account, by_user=_user(request),
                                           by_body=body_of(request), reason=data["reason"])
        except arbiters.ArbiterError as err:
            return Response({"detail": str(err)}, status=err.status)
        return Response(AppointmentSerializer(appointment).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["arbiters"])
class GameArbiter(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Remove an arbiter of the game (its body, registrar or staff)",
                   responses={204: None, 403: ERROR, 404: ERROR})
    def delete(self, request, game_id, username):
        game = _archived(game_id)
        _check_appointer(request, game)
        account = arbiters.account(username)
        if account is None:
            raise Http404("No active account of that name.")
        try:
            arbiters.dismiss(game, account, by_user=_user(request), by_body=body_of(request))
        except arbiters.ArbiterError as err:
            return Response({"detail": str(err)}, status=err.status)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["arbiters"])
class GameArbiterAction(APIView):
    """An arbiter's action on a game (R39), as the person logged in."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="Act as arbiter: warn, count_as_pass, forfeit, null, adjourn, resume, add_time "
                "(in play) or annul (after)",
        request=ActionSerializer,
        responses={200: ActionResultSerializer, 400: ERROR, 401: ERROR, 403: ERROR,
                   404: ERROR, 409: ERROR})
    def post(self, request, game_id):
        game = _archived(game_id)
        user, body = _user(request), body_of(request)
        if user is None and body is None:
            raise exceptions.NotAuthenticated()
        live = game.live
        if body is not None:
            # A body's token acts for one of the arbiters it appointed (named in the request).
            name = request.data.get("arbiter") if isinstance(request.data, dict) else None
            user = arbiters.account(name)
            if live is None or user is None or not arbiters.appointed_by(live, user, body):
                raise exceptions.PermissionDenied(
                    "An arbiter is a person (R39): with a body's token, name in 'arbiter' an "
                    "arbiter this body appointed for this game.")
        elif live is None or not arbiter_commands.may_arbitrate(live, user):
            raise exceptions.PermissionDenied(arbiter_commands.FORBIDDEN)
        data = _form(ActionSerializer, request)
        action = data["action"]
        if action == "annul":
            return self._annul(game, user, body, data["reason"])
        message = {"type": action, "reason": data["reason"]}
        for key in ("side", "turn", "seconds"):
            if key in data:
                message[key] = data[key]
        if "at" in data:  # R38: an aware datetime (DRF's), as the protocol's ms
            message["at"] = int(data["at"].timestamp() * 1000)
        outcome = arbiter_commands.act(live.uuid, user, message, body)
        if not outcome.ok:
            return Response({"detail": outcome.reason, "code": outcome.code,
                             "version": outcome.version},
                            status=STATUS.get(outcome.code, 400))
        return Response({"action": action, "version": outcome.version,
                         "events": outcome.events,
                         "outcome": (outcome.state or {}).get("outcome")})

    def _annul(self, game: RegistryGame, user, body, reason: str) -> Response:
        if not reason.strip():
            raise exceptions.ValidationError({"reason": ["An annulment needs a reason."]})
        if game.status == RegistryGame.PLAYING:
            raise Conflict("The game is still in play: annul it after it ends (R39); in play, "
                           "use forfeit or null.")
        try:
            annul_game(game, reason=reason, actor_user=user, actor_body=body)
        except GameStateConflict as err:
            raise Conflict(str(err)) from None
        game.refresh_from_db()
        return Response({"action": "annul", "version": game.live.version if game.live else 0,
                         "events": [], "outcome": {"status": game.status}})
