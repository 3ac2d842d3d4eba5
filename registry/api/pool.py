"""The quick-pairing pool's REST API (R47), for apps and bots.

* ``GET /pool/``: the pools (variant x time control x rated) and how many wait in each.
* ``GET /pool/me/``: the caller's pairing state: idle, waiting (for how long, how many are in
  their range) or paired (the game to open).
* ``POST /pool/me/``: join a pool (rate limited; refused while the caller is playing a game
  of one sitting); ``DELETE /pool/me/``: leave it at once (rate limited too).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from play.games.registry import VARIANT_NAMES
from play.live import lobby as lobby_live
from play.live.delivery import wake_worker
from play.lobby import pool
from registry.api.errors import Conflict
from registry.api.schema import ErrorSerializer
from talu_site import clientaddr

ERROR = OpenApiResponse(ErrorSerializer, description="Refused; nothing was changed.")


class JoinSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANT_NAMES, default="standard")
    time_control = serializers.ChoiceField(choices=pool.POOL_TIME_CONTROLS,
                                           default="fischer 600+5")
    rated = serializers.BooleanField(default=True)
    psf_only = serializers.BooleanField(
        default=False, help_text="S3 players only: never be paired below your PSF (R27).")


class PoolSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    variant = serializers.CharField()
    time_control = serializers.CharField()
    time = serializers.CharField(help_text="The short form, e.g. '3+2'.")
    rated = serializers.BooleanField()
    waiting = serializers.IntegerField(required=False)


class PairingGameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    url = serializers.CharField()


class PairingStateSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="idle, waiting or paired.")
    pool = PoolSerializer(required=False)
    waited_seconds = serializers.IntegerField(required=False)
    waves = serializers.IntegerField(required=False, help_text="Waves waited (R47).")
    range = serializers.IntegerField(required=False,
                                     help_text="Rating distance accepted now (widens, R47).")
    psf_only = serializers.BooleanField(required=False)
    players_waiting = serializers.IntegerField(required=False)
    in_range = serializers.IntegerField(required=False,
                                        help_text="Waiting players you could be paired with now.")
    game = PairingGameSerializer(required=False, help_text="When paired: the game to open.")


@extend_schema(tags=["pool"])
class PoolList(APIView):
    """The quick-pairing pools and their waiting players."""

    permission_classes = [AllowAny]

    @extend_schema(summary="The pools and how many players wait in each",
                   responses={200: PoolSerializer(many=True)})
    def get(self, request):
        return Response(pool.pool_listing())


@extend_schema(tags=["pool"])
class MyPairing(APIView):
    """The caller's place in the pool."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your pairing state",
                   responses={200: PairingStateSerializer, 401: ERROR, 403: ERROR})
    def get(self, request):
        return Response(pool.state(request.user))

    @extend_schema(summary="Join a pool (leaves any other)", request=JoinSerializer,
                   responses={201: PairingStateSerializer, 400: ERROR, 401: ERROR, 403: ERROR,
                              409: OpenApiResponse(ErrorSerializer, description=(
                                  "You are playing a game of one sitting (a live time "
                                  "control, not adjourned): finish it first.")),
                              429: ERROR})
    def post(self, request):
        if not isinstance(request.data, dict):
            raise exceptions.ValidationError({"non_field_errors": ["Expected a JSON object."]})
        form = JoinSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            entry = pool.join(request.user, **form.validated_data,
                              address=clientaddr.limit_key(clientaddr.of_request(request)))
        except pool.RateLimited as err:
            raise exceptions.Throttled(detail=str(err)) from None
        except pool.Busy as err:
            raise Conflict(str(err)) from None
        except pool.PoolError as err:
            raise exceptions.ValidationError({"non_field_errors": [str(err)]}) from None
        if pool.wants_wave_now(entry):  # R47: a pair found now need not wait for the wave
            async_to_sync(wake_worker)()
        async_to_sync(lobby_live.notify)()
        return Response(pool.state(request.user), status=status.HTTP_201_CREATED)

    @extend_schema(summary="Leave the pool at once",
                   responses={204: None, 401: ERROR, 403: ERROR, 409: ERROR, 429: ERROR})
    def delete(self, request):
        try:
            left = pool.leave(request.user)
        except pool.RateLimited as err:
            raise exceptions.Throttled(detail=str(err)) from None
        if not left:
            raise Conflict("You are not waiting in a pool (a game may have started: read "
                           "your pairing state).")
        async_to_sync(lobby_live.notify)()
        return Response(status=status.HTTP_204_NO_CONTENT)
