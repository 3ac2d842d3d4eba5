from django.contrib import admin

from registry.models import AffiliatedBody, GameRecord, Player, RatingChange


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("player_id", "user", "stratum", "rating", "stratum_games", "stratum_wins")
    search_fields = ("player_id", "user__username")


@admin.register(AffiliatedBody)
class AffiliatedBodyAdmin(admin.ModelAdmin):
    list_display = ("registrar_id", "name", "stratum", "key_id")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("player", "game", "model", "old_rating", "new_rating", "promoted_to")
    raw_id_fields = ("player", "game")


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = ("game", "kind", "session", "created")
    raw_id_fields = ("game",)
