from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "registry"
    verbose_name = "talu registry"

    def ready(self) -> None:
        from play import lifecycle, ports

        # signals: every account is a player
        from registry import archiving, other_games, signals  # noqa: F401
        from registry.play_directory import RegistryDirectory

        ports.provide(RegistryDirectory())
        from play import demo_hooks
        from registry import demo
        demo_hooks.register("registry.standings", demo.standings)  # issue 39, finding 8
        lifecycle.subscribe_finished("registry.archive", archiving.archive)
        # the other games' records and ratings (issue 36); talu's are the archive's
        lifecycle.subscribe_finished("registry.other_games", other_games.archive_other_game)
        lifecycle.subscribe_adjourned("registry.sessions", archiving.write_ended_sessions)
