"""Admin pages. Ratings, games and rating changes are written by the ledger only (R30): here
they are read-only, so an edit cannot leave the cache out of step with the cascade; annul and
correct through the API or ``registry.ledger``."""

from django import forms
from django.contrib import admin

from play.games import text
from registry.forms import AdminLoginForm
from registry.models import (
    AffiliatedBody,
    ArbiterAppointment,
    AuditEntry,
    BodyKey,
    BodyToken,
    GameRecord,
    PhaseRatingChange,
    Player,
    RatingChange,
    RatingPhase,
    RegistryGame,
    StratumRecord,
)

# The admin's log-in is limited as every log-in is (registry.logins, the backend); its form
# says when to try again when the limits refused an attempt.
admin.site.login_form = AdminLoginForm


class PlayerForm(forms.ModelForm):
    """A display name typed here is checked as every name is (``play.games.text``)."""

    def clean_display_name(self) -> str:
        name = self.cleaned_data.get("display_name") or ""
        if not name:
            return name  # a site account's player shows its username
        try:
            return text.clean_name(name)
        except text.TextError as err:
            raise forms.ValidationError(f"A name {err}.") from None


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ("player_id", "user", "display_name", "stratum", "rating", "stratum_games",
                    "stratum_wins")
    search_fields = ("player_id", "user__username", "display_name")
    raw_id_fields = ("user",)
    readonly_fields = ("stratum", "rating", "stratum_games", "stratum_wins", "exposure_sum",
                       "games", "wins", "elimination_wins", "invasion_wins", "recent_npc",
                       "start_stratum", "start_rating")


@admin.register(AffiliatedBody)
class AffiliatedBodyAdmin(admin.ModelAdmin):
    list_display = ("registrar_id", "name", "stratum", "scoring_model", "key_id")
    filter_horizontal = ("registrars",)


@admin.register(BodyToken)
class BodyTokenAdmin(admin.ModelAdmin):
    list_display = ("body", "label", "created", "last_used", "revoked")
    readonly_fields = ("key_hash",)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(BodyKey)
class BodyKeyAdmin(ReadOnlyAdmin):
    """A body's signing keys, to look at: they are added, rotated and revoked on the club's
    keys page only (``registry.clubs.keys``: each checked, audited, in one transaction), since
    a key edited here would change which records verify (R33) with no trace in the audit."""

    list_display = ("body", "key_id", "fingerprint", "origin", "added", "retired", "revoked")
    list_filter = ("origin",)
    search_fields = ("body__registrar_id", "body__name", "key_id", "fingerprint")


@admin.register(RegistryGame)
class ArchivedGameAdmin(ReadOnlyAdmin):
    list_display = ("game_id", "body", "source", "status", "winner", "reason", "played_at")
    list_filter = ("status", "source", "variant")
    raw_id_fields = ("player_i", "player_o", "live", "phase")
    search_fields = ("game_id",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("player", "game", "model", "old_rating", "new_rating", "promoted_to")
    raw_id_fields = ("player", "game")


@admin.register(StratumRecord)
class StratumRecordAdmin(ReadOnlyAdmin):
    list_display = ("player", "stratum", "games", "wins", "rating_start", "rating_end", "ended")
    raw_id_fields = ("player", "promoted_by")


@admin.register(GameRecord)
class GameRecordAdmin(ReadOnlyAdmin):
    list_display = ("game", "kind", "session", "revision", "superseded", "created")
    raw_id_fields = ("game",)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Read-only: the audit trail is append-only."""

    list_display = ("created", "action", "game", "actor_user", "actor_body")
    list_filter = ("action",)


@admin.register(RatingPhase)
class RatingPhaseAdmin(ReadOnlyAdmin):
    """Read-only: a phase is opened and closed by its event (``registry.phases``, R45)."""

    list_display = ("name", "body", "status", "opened_at", "closed_at")
    list_filter = ("status",)


@admin.register(PhaseRatingChange)
class PhaseRatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("player", "phase", "old_rating", "new_rating", "games", "victory_score",
                    "promoted_to")
    raw_id_fields = ("player", "phase")


@admin.register(ArbiterAppointment)
class ArbiterAppointmentAdmin(ReadOnlyAdmin):
    """Read-only: appointments are made and removed through the API (audited, R39)."""

    list_display = ("user", "game", "body", "created", "removed")
    list_filter = ("body",)
    raw_id_fields = ("game",)
