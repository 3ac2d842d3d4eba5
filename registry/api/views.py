"""API views: thin HTTP wrappers over the registry models and services.

Lists load only what they show (``select_related`` / ``only``), so a page costs the same small
number of queries whatever the page size. Each write calls its service inside
``transaction.atomic``: a rejected submission or correction leaves no trace.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, generics, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from play.games import text
from registry.api import serializers as s
from registry.api.auth import body_of
from registry.api.errors import Conflict, Rejected
from registry.api.pagination import DeferredJoinPagination
from registry.api.permissions import BodyTokenOnly, CanManageGame, is_writer
from registry.api.schema import ErrorSerializer
from registry.corrections import GameStateConflict, annul_game, correct_game
from registry.models import AffiliatedBody, GameRecord, Player, RatingChange, RegistryGame
from registry.submission import SubmissionRejected, submit_game

REJECTED = OpenApiResponse(ErrorSerializer, description=(
    "The registry rejected the records: `reasons` lists every reason; nothing was changed."))
CONFLICT = OpenApiResponse(ErrorSerializer, description="The game cannot be changed so.")

GAME_LIST_FIELDS = (
    "id", "game_id", "variant", "rated", "source", "status", "winner", "reason", "rounds",
    "played_at", "revision", "body__registrar_id",
    "player_i__player_id", "player_i__display_name", "player_i__user__username",
    "player_o__player_id", "player_o__display_name", "player_o__user__username",
)


def _acting_user(request):
    user = request.user
    return user if user is not None and user.is_authenticated else None


def _bad(field: str, message: str) -> exceptions.ValidationError:
    return exceptions.ValidationError({field: [message]})


# --- reading request bodies ---------------------------------------------------------------------

def _request_mapping(request) -> Mapping:
    data = request.data
    if not isinstance(data, Mapping):
        raise _bad("non_field_errors", "Expected a JSON object or a multipart form.")
    return data


def _stse_texts(data: Mapping) -> list[str]:
    values = data.getlist("stse") if hasattr(data, "getlist") else data.get("stse")
    if isinstance(values, str):
        values = [values]
    if not values or not isinstance(values, list):
        raise _bad("stse", "At least one session entry (STSE) is required.")
    if len(values) > s.MAX_SESSIONS:
        raise _bad("stse", f"At most {s.MAX_SESSIONS} session entries.")
    return [s.record_text(v, "stse") for v in values]


def _text_field(data: Mapping, name: str, *, required: bool, max_length: int) -> str | None:
    value = data.get(name)
    if value is None or value == "":
        if required:
            raise _bad(name, "This field is required.")
        return None
    if not isinstance(value, str):
        raise _bad(name, "Expected a string.")
    if (reason := text.problem(value)) is not None:  # one check of external text
        raise _bad(name, f"This field {reason}.")
    value = value.strip()
    if required and not value:
        raise _bad(name, "This field may not be blank.")
    if len(value) > max_length:
        raise _bad(name, f"At most {max_length} characters.")
    return value


def _acting_body(request, registrar_id: str | None) -> AffiliatedBody:
    """The body a write speaks for: the token's, or one the logged-in user may act for."""
    body = body_of(request)
    if body is not None:
        if registrar_id and registrar_id != body.registrar_id:
            raise exceptions.PermissionDenied(
                f"This token belongs to {body.registrar_id}: a body submits only its own "
                "games.")
        return body
    user = request.user
    if not registrar_id:
        mine = list(user.registrar_of.all()[:2])
        if len(mine) == 1:
            return mine[0]
        raise _bad("body", "Name the submitting body (its registrar id).")
    body = AffiliatedBody.objects.filter(registrar_id=registrar_id).first()
    if body is None:
        raise _bad("body", f"No affiliated body {registrar_id!r}.")
    if not (user.is_staff or user.registrar_of.filter(pk=body.pk).exists()):
        raise exceptions.PermissionDenied(f"You are not a registrar of {registrar_id}.")
    return body


# --- players ------------------------------------------------------------------------------------

def _players():
    return Player.objects.select_related("user", "body")


@extend_schema_view(
    get=extend_schema(tags=["players"], summary="Search players",
                      parameters=[s.PlayerFilterSerializer]),
    post=extend_schema(tags=["players"], summary="Register a player (body token)",
                       request=s.PlayerCreateSerializer,
                       responses={201: s.PlayerDetailSerializer}),
)
class PlayerList(generics.ListCreateAPIView):
    """Players by name or id prefix, stratum or body; a body registers its players."""

    serializer_class = s.PlayerSerializer
    permission_classes = [BodyTokenOnly]

    def get_queryset(self):
        f = s.PlayerFilterSerializer(data=self.request.query_params.dict())
        f.is_valid(raise_exception=True)
        qs = _players()
        if q := f.validated_data.get("q", "").strip():
            qs = qs.filter(Q(display_name__icontains=q) | Q(user__username__icontains=q)
                           | Q(player_id__startswith=q.upper()))
        if code := f.validated_data.get("stratum"):
            qs = qs.filter(stratum=int(code[1]))
        if registrar_id := f.validated_data.get("body"):
            qs = qs.filter(body__registrar_id=registrar_id)
        return qs.order_by("-rating", "player_id")

    def create(self, request, *args, **kwargs):
        form = s.PlayerCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        fields = {"display_name": form.validated_data["display_name"], "body": body_of(request)}
        if pid := form.validated_data.get("player_id"):
            fields["player_id"] = pid
        try:
            with transaction.atomic():
                player = Player.objects.create(**fields)
        except IntegrityError:
            raise _bad("player_id", "This player id is already registered.") from None
        player = _players().prefetch_related("strata").get(pk=player.pk)
        data = s.PlayerDetailSerializer(player, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data["url"]})


@extend_schema(tags=["players"], summary="A player with metrics")
class PlayerDetail(generics.RetrieveAPIView):
    """Rating, stratum, sub-stratum, promotion progress, OR, OCS, EI, Breadth:Depth, PSF."""

    serializer_class = s.PlayerDetailSerializer
    lookup_field = "player_id"

    def get_queryset(self):
        return _players().prefetch_related("strata")


@extend_schema(tags=["players"], summary="A player's rating history")
class PlayerRatings(generics.ListAPIView):
    """Every rating change of the player, oldest first, with the figures that explain it."""

    serializer_class = s.RatingChangeSerializer

    def get_queryset(self):
        player = generics.get_object_or_404(Player.objects.only("id"),
                                            player_id=self.kwargs["player_id"])
        return (RatingChange.objects.filter(player=player)
                .select_related("game", "player")
                .only(*[f.name for f in RatingChange._meta.concrete_fields],
                      "game__game_id", "player__player_id")
                .order_by("played_at", "game_id"))


@extend_schema(tags=["leaderboards"], summary="A stratum's leaderboard", parameters=[
    OpenApiParameter("code", OpenApiTypes.STR, OpenApiParameter.PATH, enum=["S1", "S2", "S3"],
                     description="The stratum."),
], responses={200: s.LeaderboardEntrySerializer(many=True)})
class Leaderboard(generics.ListAPIView):
    """Players of a stratum who have played a rated game, best rating first."""

    serializer_class = s.LeaderboardEntrySerializer

    def get_queryset(self):
        return _players().ranked(int(self.kwargs["code"][1]))

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        first = self.paginator.page.start_index()
        rows = [{"rank": first + n, "player_id": p.player_id, "name": p.name,
                 "rating": p.rating, "sub_stratum": p.sub_stratum,
                 "stratum_games": p.stratum_games, "stratum_wins": p.stratum_wins}
                for n, p in enumerate(page)]
        return self.get_paginated_response(s.LeaderboardEntrySerializer(rows, many=True).data)


# --- games --------------------------------------------------------------------------------------

def _game_detail_queryset():
    return (RegistryGame.objects.select_related("body", "player_i__user", "player_o__user")
            .prefetch_related(
                Prefetch("rating_changes",
                         queryset=RatingChange.objects.select_related("game", "player")
                         .only(*[f.name for f in RatingChange._meta.concrete_fields],
                               "game__game_id", "player__player_id")),
                Prefetch("records", queryset=GameRecord.objects.defer("content")),
            ))


@extend_schema_view(
    get=extend_schema(tags=["games"], summary="List games",
                      parameters=[s.GameFilterSerializer]),
    post=extend_schema(
        tags=["games"], summary="Submit a game's records",
        description=("Upload the signed STGE and the STSE files (multipart fields `stge` and "
                     "`stse`, repeated) or send them as JSON strings. Accepted: 201 with the "
                     "game. Rejected: 422 with every reason; nothing is written."),
        request={"multipart/form-data": s.SubmissionUploadSerializer,
                 "application/json": s.SubmissionJSONSerializer},
        responses={201: s.GameDetailSerializer, 422: REJECTED},
    ),
)
class GameList(generics.ListCreateAPIView):
    """Games, newest first, filtered by player, status, variant, source, body or rated."""

    serializer_class = s.GameSerializer
    pagination_class = DeferredJoinPagination

    def get_queryset(self):
        f = s.GameFilterSerializer(data=self.request.query_params.dict())
        f.is_valid(raise_exception=True)
        args = f.validated_data
        qs = RegistryGame.objects.select_related("body", "player_i__user", "player_o__user")
        if pid := args.get("player"):
            # By primary key, so each side's (player, played_at) index serves the OR; a join
            # on player_id made the database scan every game.
            pk = Player.objects.filter(player_id=pid).values_list("pk", flat=True).first()
            qs = qs.filter(Q(player_i_id=pk) | Q(player_o_id=pk)) if pk else qs.none()
        for name in ("status", "variant", "source"):
            if args.get(name):
                qs = qs.filter(**{name: args[name]})
        if args.get("body"):
            qs = qs.filter(body__registrar_id=args["body"])
        if args.get("rated") is not None:
            qs = qs.filter(rated=args["rated"])
        return qs.only(*GAME_LIST_FIELDS).order_by("-played_at", "-id")

    def create(self, request, *args, **kwargs):
        data = _request_mapping(request)
        stge = data.get("stge")
        if stge is None or stge == "":
            raise _bad("stge", "The game entry (STGE) is required.")
        stge_text = s.record_text(stge, "stge")
        stse_texts = _stse_texts(data)
        body = _acting_body(request, _text_field(data, "body", required=False, max_length=64))
        try:
            with transaction.atomic():
                game = submit_game(body, stge_text, stse_texts, actor_user=_acting_user(request))
        except SubmissionRejected as exc:
            raise Rejected(exc.reasons) from None
        game = _game_detail_queryset().get(pk=game.pk)
        out = s.GameDetailSerializer(game, context=self.get_serializer_context()).data
        return Response(out, status=status.HTTP_201_CREATED, headers={"Location": out["url"]})


@extend_schema(tags=["games"], summary="A game with notation, result and rating changes")
class GameDetail(generics.RetrieveAPIView):
    serializer_class = s.GameDetailSerializer
    lookup_field = "game_id"

    def get_queryset(self):
        return _game_detail_queryset()


class _GameChange(generics.GenericAPIView):
    """Base of annul / correct: the game, its object permission, the reply."""

    permission_classes = [CanManageGame]
    serializer_class = s.GameDetailSerializer
    lookup_field = "game_id"

    def get_queryset(self):
        return _game_detail_queryset()

    def check_permissions(self, request):
        super().check_permissions(request)
        if not is_writer(request):  # anonymous: 401; a plain player: 403
            self.permission_denied(request, message=CanManageGame.message)

    def reply(self, game) -> Response:
        game = self.get_queryset().get(pk=game.pk)
        return Response(self.get_serializer(game).data)

    def run(self, action):
        try:
            with transaction.atomic():
                return action()
        except SubmissionRejected as exc:
            raise Rejected(exc.reasons) from None
        except GameStateConflict as exc:
            raise Conflict(str(exc)) from None


@extend_schema(tags=["games"], summary="Annul a game (its body, registrar or staff)",
               request=s.AnnulSerializer,
               responses={200: s.GameDetailSerializer, 409: CONFLICT})
class GameAnnul(_GameChange):
    """Annul a game: it stops counting, and ratings are recomputed (R30)."""

    def post(self, request, game_id):
        game = self.get_object()
        form = s.AnnulSerializer(data=_request_mapping(request))
        form.is_valid(raise_exception=True)
        self.run(lambda: annul_game(game, reason=form.validated_data["reason"],
                                    actor_user=_acting_user(request),
                                    actor_body=body_of(request)))
        return self.reply(game)


@extend_schema(
    tags=["games"], summary="Correct a game's session entries (its body, registrar or staff)",
    request={"multipart/form-data": s.CorrectionUploadSerializer,
             "application/json": s.CorrectionJSONSerializer},
    responses={200: s.GameDetailSerializer, 409: CONFLICT, 422: REJECTED},
)
class GameCorrect(_GameChange):
    """Replace a game's STSE files; the old ones are kept as superseded (R30 recompute)."""

    def post(self, request, game_id):
        game = self.get_object()
        data = _request_mapping(request)
        reason = _text_field(data, "reason", required=True, max_length=2000)
        texts = _stse_texts(data)
        self.run(lambda: correct_game(game, texts, reason=reason,
                                      actor_user=_acting_user(request),
                                      actor_body=body_of(request)))
        return self.reply(game)


# --- records ------------------------------------------------------------------------------------

def _game_or_404(game_id) -> RegistryGame:
    game = RegistryGame.objects.filter(game_id=game_id).only("id", "game_id").first()
    if game is None:
        raise Http404("No such game.")
    return game


@extend_schema(tags=["records"], summary="A game's record files",
               responses={200: s.RecordLinkSerializer(many=True)})
class GameRecords(APIView):
    """The game's current records (STGE, STSE per session, STDGS, STGN), without their text."""

    def get(self, request, game_id):
        game = _game_or_404(game_id)
        records = GameRecord.objects.filter(game=game, superseded=False).defer("content")
        return Response(s.record_links(game, list(records), request))


@extend_schema(
    tags=["records"], summary="One record file, as text",
    parameters=[
        OpenApiParameter("name", OpenApiTypes.STR, OpenApiParameter.PATH,
                         pattern=r"^(stge|stdgs|stgn|stse-[0-9]+)$",
                         description="stge, stse-<session>, stdgs or stgn"),
        OpenApiParameter("revision", OpenApiTypes.INT, OpenApiParameter.QUERY,
                         description="An earlier revision (kept after a correction)."),
    ],
    responses={(200, "text/plain"): OpenApiTypes.STR,
               (200, "application/yaml"): OpenApiTypes.STR},
)
class GameRecordText(APIView):
    """STGN as ``text/plain``; STGE, STSE and STDGS as ``application/yaml``."""

    renderer_classes = [JSONRenderer]  # errors; the record itself is a plain HttpResponse

    def get(self, request, game_id, name):
        kind, session = self.parse_name(name)
        game = _game_or_404(game_id)
        qs = GameRecord.objects.filter(game=game, kind=kind, session=session)
        raw_revision = request.query_params.get("revision")
        if raw_revision is not None:
            if not raw_revision.isdigit() or len(raw_revision) > 9:
                raise _bad("revision", "A revision is a whole number.")
            qs = qs.filter(revision=int(raw_revision))
        else:
            qs = qs.filter(superseded=False)
        record = qs.order_by("-revision").first()
        if record is None:
            raise Http404(f"This game has no record {name}.")
        media = s.RECORD_MEDIA_TYPES[record.kind]
        response = HttpResponse(record.content, content_type=f"{media}; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{record.filename}"'
        if record.hash:
            response["ETag"] = f'"{record.hash}"'
        return response

    @staticmethod
    def parse_name(name: str) -> tuple[str, int]:
        simple = {"stge": GameRecord.STGE, "stdgs": GameRecord.STDGS, "stgn": GameRecord.STGN}
        if name in simple:
            return simple[name], 0
        if name.startswith("stse-") and name[5:].isdigit() and len(name) <= 12:
            return GameRecord.STSE, int(name[5:])
        raise Http404("Record names are stge, stse-<session>, stdgs and stgn.")


# --- bodies -------------------------------------------------------------------------------------

@extend_schema(tags=["bodies"], summary="Affiliated bodies")
class BodyList(generics.ListAPIView):
    serializer_class = s.BodySerializer
    queryset = AffiliatedBody.objects.defer("public_key").order_by("registrar_id")


@extend_schema(tags=["bodies"], summary="An affiliated body with its public key")
class BodyDetail(generics.RetrieveAPIView):
    serializer_class = s.BodyDetailSerializer
    queryset = AffiliatedBody.objects.all()
    lookup_field = "registrar_id"


@extend_schema(tags=["index"], summary="What the API holds, with links",
               responses={200: OpenApiTypes.OBJECT})
class ApiIndex(APIView):
    """``/api/v1/`` itself: the collections and where the schema and its docs are (issue 24:
    the root was a 404)."""

    def get(self, request):
        def url(path: str) -> str:
            return request.build_absolute_uri(path)

        return Response({
            "name": "talu registry API", "version": "v1",
            "schema": url("/api/schema/"), "docs": url("/api/docs/"),
            "players": url("/api/v1/players/"), "games": url("/api/v1/games/"),
            "bodies": url("/api/v1/bodies/"),
            "leaderboards": [url(f"/api/v1/leaderboards/S{n}/") for n in (1, 2, 3)],
        })
