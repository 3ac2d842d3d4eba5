from django.contrib import admin

from play.models import Challenge, Game, GameEvent, Outbox


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("uuid", "variant", "rated", "player_i", "player_o", "status", "version",
                    "winner", "reason")
    list_filter = ("status", "variant", "rated")


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ("game", "version", "kind", "side", "actor", "text", "seq")
    raw_id_fields = ("game",)


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("creator", "opponent", "variant", "rated", "status", "created")


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    list_display = ("game", "topic", "created", "due", "attempts", "claimed_by", "done")
    list_filter = ("topic",)
    raw_id_fields = ("game",)
