from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "registry"
    verbose_name = "talu registry"

    def ready(self) -> None:
        from play import lifecycle, ports
        from registry import archiving, signals  # noqa: F401  (every account is a player)
        from registry.play_directory import RegistryDirectory

        ports.provide(RegistryDirectory())
        lifecycle.subscribe_finished("registry.archive", archiving.archive)
        lifecycle.subscribe_adjourned("registry.sessions", archiving.write_ended_sessions)
