from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "live play"

    def ready(self) -> None:
        from play.lobby import deactivation  # noqa: F401  (a deactivated account leaves its pool)
