"""Serializers of the API: how registry rows look as JSON, and what requests may carry.

Output serializers read only fields the views load (``select_related`` / ``only``), so a page
costs a constant number of queries. Record names: ``stge``, ``stse-<n>``, ``stdgs``, ``stgn``.
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from play.games import text
from play.games.talu import VARIANTS
from registry import submission
from registry.models import (
    AffiliatedBody,
    GameRecord,
    Player,
    RatingChange,
    RegistryGame,
    StratumRecord,
)
from registry.profiles import profile_of
from registry.scoring import strata

MAX_RECORD_BYTES = 1_000_000  # one STGE/STSE file; a real one is a few kilobytes
MAX_SESSIONS = submission.MAX_SESSIONS  # the core's limit, so the schema tells the truth
RECORD_ORDER = [GameRecord.STGE, GameRecord.STSE, GameRecord.STDGS, GameRecord.STGN]
RECORD_MEDIA_TYPES = {GameRecord.STGN: "text/plain", GameRecord.STGE: "application/yaml",
                      GameRecord.STSE: "application/yaml", GameRecord.STDGS: "application/yaml"}


def record_name(kind: str, session: int) -> str:
    """The URL name of a record: ``stse-2`` for session 2, else the kind in lower case."""
    return f"stse-{session}" if kind == GameRecord.STSE else kind.lower()


def _absolute(request, url: str) -> str:
    return request.build_absolute_uri(url) if request is not None else url


# --- external text (play.games.text: the one check of every string from outside) -----------------

class LineField(serializers.CharField):
    """One printable line: no NUL, lone surrogate, control or bidi character."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        reason = text.problem(value)
        if reason is not None:
            raise serializers.ValidationError(f"This field {reason}.")
        return value


class NameField(serializers.CharField):
    """A display name, normalised and checked as every name is (``text.clean_name``)."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return text.clean_name(value, max_length=self.max_length or 200)
        except text.TextError as err:
            raise serializers.ValidationError(f"A name {err}.") from None


# --- small references ---------------------------------------------------------------------------

class PlayerRefSerializer(serializers.Serializer):
    """A player as named inside another object."""

    player_id = serializers.CharField()
    name = serializers.CharField()


class SeatSerializer(serializers.Serializer):
    """A seat of a game and who held it (issue 36: the seat form beside ``player_i`` and
    ``player_o``): the game's id of the seat (talu's ``I``, ``O``), its label, the player."""

    seat = serializers.CharField()
    label = serializers.CharField()
    player = PlayerRefSerializer()


class BodySerializer(serializers.ModelSerializer):
    """An affiliated body's public information (list form: no key block)."""

    scoring_model = serializers.CharField(
        help_text='The body\'s fixed scoring model ("S1"/"S2"/"S3"), or "" for SX.')
    url = serializers.SerializerMethodField()

    class Meta:
        model = AffiliatedBody
        fields = ["registrar_id", "name", "stratum", "scoring_model", "key_id", "created", "url"]

    def get_url(self, body) -> str:
        return _absolute(self.context.get("request"),
                         reverse("api:body-detail", args=[body.registrar_id]))


class BodyDetailSerializer(BodySerializer):
    """A body with its ASCII-armoured OpenPGP public key, to verify its records with."""

    class Meta(BodySerializer.Meta):
        fields = [*BodySerializer.Meta.fields, "public_key"]


# --- players ------------------------------------------------------------------------------------

class PlayerSerializer(serializers.ModelSerializer):
    """A player in lists: identity, stratum, rating and counts."""

    name = serializers.CharField(read_only=True)
    stratum = serializers.CharField(source="stratum_code", read_only=True)
    sub_stratum = serializers.CharField(read_only=True)
    body = serializers.SlugRelatedField(slug_field="registrar_id", read_only=True,
                                        allow_null=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["player_id", "name", "stratum", "sub_stratum", "rating", "body", "games",
                  "wins", "stratum_games", "stratum_wins", "url"]

    def get_url(self, player) -> str:
        return _absolute(self.context.get("request"),
                         reverse("api:player-detail", args=[player.player_id]))


class PromotionSerializer(serializers.Serializer):
    """Progress against R26's three promotion conditions (20 games, 75% wins, rating)."""

    games = serializers.IntegerField()
    games_needed = serializers.IntegerField()
    games_ok = serializers.BooleanField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="Percent, one decimal.")
    win_rate_needed = serializers.IntegerField()
    win_rate_ok = serializers.BooleanField()
    rating = serializers.IntegerField()
    rating_limit = serializers.IntegerField()
    rating_ok = serializers.BooleanField()
    next = serializers.CharField(help_text="The stratum promotion leads to.")


class MetricsSerializer(serializers.Serializer):
    """Book 6.6 / R27 / R29 metrics of a player (``Player.profile``)."""

    stratum = serializers.CharField()
    substratum = serializers.CharField()
    rating = serializers.IntegerField()
    outcome_ratio = serializers.FloatField(source="or", allow_null=True,
                                           help_text="OR = wins / games (R29); null before any.")
    ocs = serializers.IntegerField(help_text="Outcome confidence score 0-100 (R29).")
    ei_percent = serializers.FloatField(help_text="Exposure index in percent (R29).")
    breadth_depth = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, min_length=2, max_length=2,
        help_text="Elimination : invasion wins scaled to 100 (R29); null before any.")
    anpc = serializers.FloatField(allow_null=True, help_text="aNPc (R27).")
    anpc_set_by_player = serializers.BooleanField(
        required=False, help_text="Present (true) when aNPc is the player's own S3 setting.")
    psf = serializers.FloatField(allow_null=True,
                                 help_text="Performance safety floor (R27), S3 only.")
    promotion = PromotionSerializer(allow_null=True, help_text="Null in S3 (no higher stratum).")


class StratumRecordSerializer(serializers.ModelSerializer):
    class Meta:
        model = StratumRecord
        fields = ["stratum", "games", "wins", "rating_start", "rating_end", "started", "ended"]


class PlayerDetailSerializer(PlayerSerializer):
    """A player with metrics and their career by stratum."""

    metrics = serializers.SerializerMethodField()
    strata = StratumRecordSerializer(many=True, read_only=True)
    ratings_url = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "elimination_wins", "invasion_wins", "created",
                  "metrics", "strata", "ratings_url"]

    @extend_schema_field(MetricsSerializer)
    def get_metrics(self, player) -> dict:
        return MetricsSerializer(profile_of(player)).data

    def get_ratings_url(self, player) -> str:
        return _absolute(self.context.get("request"),
                         reverse("api:player-ratings", args=[player.player_id]))


class PlayerCreateSerializer(serializers.Serializer):
    """A body registers an over-the-board player (book 5.3.6): the body is the token's."""

    display_name = NameField(max_length=200)
    player_id = serializers.CharField(
        required=False, min_length=strata.PLAYER_ID_LENGTH, max_length=strata.PLAYER_ID_LENGTH,
        help_text="An R26 id (18 upper-case letters and digits) already issued; "
                  "omit it to have one issued.")

    def validate_player_id(self, value: str) -> str:
        if not strata.is_player_id(value):
            raise serializers.ValidationError("A player id is 18 upper-case letters or digits.")
        if Player.objects.filter(player_id=value).exists():
            raise serializers.ValidationError("This player id is already registered.")
        return value


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.CharField()
    name = serializers.CharField()
    rating = serializers.IntegerField()
    sub_stratum = serializers.CharField()
    stratum_games = serializers.IntegerField()
    stratum_wins = serializers.IntegerField()


class RatingChangeSerializer(serializers.ModelSerializer):
    """One game's effect on one player's rating, with the figures of the model (R30)."""

    game_id = serializers.UUIDField(source="game.game_id", read_only=True)
    player_id = serializers.CharField(source="player.player_id", read_only=True)
    delta = serializers.IntegerField(read_only=True)
    figures = serializers.JSONField(help_text="The model's intermediate figures.")

    class Meta:
        model = RatingChange
        fields = ["game_id", "player_id", "side", "model", "stratum", "old_rating",
                  "new_rating", "rating_after", "delta", "won", "promoted_to", "played_at",
                  "figures"]


# --- games --------------------------------------------------------------------------------------

class GameSerializer(serializers.ModelSerializer):
    """A game in lists."""

    body = serializers.CharField(source="body.registrar_id", read_only=True)
    player_i = PlayerRefSerializer(read_only=True)
    player_o = PlayerRefSerializer(read_only=True)
    seats = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = RegistryGame
        fields = ["game_id", "variant", "rated", "source", "status", "body", "player_i",
                  "player_o", "seats", "winner", "reason", "rounds", "played_at", "revision",
                  "url"]

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game) -> list[dict]:
        """The registry's games are talu's (the book's records): light I, dark O."""
        return [{"seat": seat, "label": label,
                 "player": {"player_id": p.player_id, "name": p.name}}
                for seat, label, p in (("I", "light", game.player_i),
                                       ("O", "dark", game.player_o))]

    def get_url(self, game) -> str:
        return _absolute(self.context.get("request"),
                         reverse("api:game-detail", args=[game.game_id]))


class RecordLinkSerializer(serializers.Serializer):
    """One record file of a game, without its text."""

    name = serializers.CharField(help_text="stge, stse-<n>, stdgs or stgn")
    kind = serializers.ChoiceField(choices=[k for k, _ in GameRecord.KINDS])
    session = serializers.IntegerField()
    revision = serializers.IntegerField()
    hash = serializers.CharField()
    media_type = serializers.CharField()
    url = serializers.CharField()


def record_links(game, records, request) -> list[dict]:
    out = []
    for r in sorted(records, key=lambda r: (RECORD_ORDER.index(r.kind), r.session)):
        name = record_name(r.kind, r.session)
        out.append({
            "name": name, "kind": r.kind, "session": r.session, "revision": r.revision,
            "hash": r.hash, "media_type": RECORD_MEDIA_TYPES[r.kind],
            "url": _absolute(request, reverse("api:game-record", args=[game.game_id, name])),
        })
    return out


class GameDetailSerializer(GameSerializer):
    """A game with its notation, tally, rating changes and record links."""

    tally = serializers.JSONField(help_text="The game's tally (R16-R19).")
    stgn = serializers.CharField(help_text="The game's notation (STGN).")
    rating_changes = RatingChangeSerializer(many=True, read_only=True)
    records = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "scoring_model", "tally", "stgn",
                  "rating_changes", "records", "created", "updated"]

    @extend_schema_field(RecordLinkSerializer(many=True))
    def get_records(self, game) -> list[dict]:
        current = [r for r in game.records.all() if not r.superseded]
        return record_links(game, current, self.context.get("request"))


class GameFilterSerializer(serializers.Serializer):
    """Query parameters of the game list."""

    player = LineField(required=False, max_length=64, help_text="A player id (either side).")
    status = serializers.ChoiceField(required=False,
                                     choices=[s for s, _ in RegistryGame.STATUSES])
    variant = serializers.ChoiceField(required=False, choices=sorted(VARIANTS))
    source = serializers.ChoiceField(required=False, choices=[s for s, _ in RegistryGame.SOURCES])
    body = LineField(required=False, max_length=64, help_text="A body's registrar id.")
    rated = serializers.BooleanField(required=False)


class PlayerFilterSerializer(serializers.Serializer):
    """Query parameters of the player list."""

    q = LineField(required=False, max_length=200,
                  help_text="Part of a name, or the start of a player id.")
    stratum = serializers.ChoiceField(required=False, choices=["S1", "S2", "S3"])
    body = LineField(required=False, max_length=64, help_text="A body's registrar id.")


# --- writes -------------------------------------------------------------------------------------

def record_text(value, field: str) -> str:
    """An uploaded file or a string, as UTF-8 text (bounded in size) the database can hold:
    no NUL, no lone surrogate (a JSON string may carry one: ``"\\ud800"``), no control
    character but tabs and line breaks (``play.games.text``)."""
    if hasattr(value, "read"):
        raw = value.read(MAX_RECORD_BYTES + 1)
        if len(raw) > MAX_RECORD_BYTES:
            raise serializers.ValidationError({field: f"larger than {MAX_RECORD_BYTES} bytes"})
        try:
            value = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise serializers.ValidationError({field: "not UTF-8 text"}) from None
    elif not isinstance(value, str):
        raise serializers.ValidationError({field: "expected a file or a string"})
    elif len(value) > MAX_RECORD_BYTES:  # characters first: encoding a huge string costs
        raise serializers.ValidationError({field: f"larger than {MAX_RECORD_BYTES} bytes"})
    reason = text.problem(value, multiline=True, allow_bidi=True)
    if reason is not None:
        raise serializers.ValidationError({field: f"a record file {reason}"})
    if len(value.encode("utf-8")) > MAX_RECORD_BYTES:
        raise serializers.ValidationError({field: f"larger than {MAX_RECORD_BYTES} bytes"})
    return value


class SubmissionJSONSerializer(serializers.Serializer):
    """Submit a game's records as JSON strings."""

    stge = serializers.CharField(help_text="The signed game entry (STGE, YAML).",
                                 trim_whitespace=False)
    stse = serializers.ListField(child=serializers.CharField(trim_whitespace=False),
                                 min_length=1, max_length=MAX_SESSIONS,
                                 help_text="The signed session entries (STSE, YAML), in order.")
    body = serializers.CharField(required=False, help_text=(
        "Registrar id of the submitting body: only for a staff or registrar login (a token "
        "always speaks for its own body)."))


class SubmissionUploadSerializer(serializers.Serializer):
    """Submit a game's records as uploaded files (multipart/form-data)."""

    stge = serializers.FileField(help_text="The signed game entry (STGE) file.")
    stse = serializers.ListField(child=serializers.FileField(), min_length=1,
                                 max_length=MAX_SESSIONS,
                                 help_text="The signed session entry (STSE) files, in order.")
    body = serializers.CharField(required=False)


class AnnulSerializer(serializers.Serializer):
    reason = LineField(max_length=2000, help_text="Why the game is annulled.")


class CorrectionJSONSerializer(serializers.Serializer):
    reason = LineField(max_length=2000)
    stse = serializers.ListField(child=serializers.CharField(trim_whitespace=False),
                                 min_length=1, max_length=MAX_SESSIONS,
                                 help_text="The corrected session entries (STSE), in order.")


class CorrectionUploadSerializer(serializers.Serializer):
    reason = LineField(max_length=2000)
    stse = serializers.ListField(child=serializers.FileField(), min_length=1,
                                 max_length=MAX_SESSIONS)
