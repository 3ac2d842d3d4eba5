from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "registry.events"
    label = "events"
    verbose_name = "talu events"

    def ready(self) -> None:
        from play import lifecycle
        from registry.events import results

        # after the registry's archive (its app is ready first): a finished event game's
        # result reaches the standings at once (R41)
        lifecycle.subscribe_finished("events.results", results.game_finished)
