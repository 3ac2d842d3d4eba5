from django.contrib import admin

from registry.accounts.models import AccountSettings, QueuedMail


@admin.register(QueuedMail)
class QueuedMailAdmin(admin.ModelAdmin):
    """The queue seen by staff: what went, what waits, what failed and why."""

    list_display = ("created_at", "kind", "to", "subject", "status", "attempts", "last_error")
    list_filter = ("status", "kind")
    search_fields = ("to", "subject")
    readonly_fields = [f.name for f in QueuedMail._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False  # mail is queued by the site (mailqueue.enqueue), not typed here


@admin.register(AccountSettings)
class AccountSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "pending_email", "theme", "closed_at")
    search_fields = ("user__username",)
