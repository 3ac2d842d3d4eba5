from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "registry.events"
    label = "events"
    verbose_name = "talu events"

    def ready(self) -> None:
        from play import lifecycle
        from play.worker import jobs
        from registry.events import results, schedule

        # after the registry's archive (its app is ready first): a finished event game's
        # result reaches the standings at once (R41)
        lifecycle.subscribe_finished("events.results", results.game_finished)
        # R41: rounds started by the worker at their scheduled time, and their start notices
        jobs.register("events.rounds", schedule.run_due)
