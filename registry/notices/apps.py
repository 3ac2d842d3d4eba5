from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "registry.notices"
    label = "notices"
    verbose_name = "talu notifications"
