from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "registry.events"
    label = "events"
    verbose_name = "talu events"

    def ready(self) -> None:
        from play import lifecycle
        from play.worker import jobs
        from registry import ledger
        from registry.events import hettlandic, pairer, results, schedule

        # after the registry's archive (its app is ready first): a finished event game's
        # result reaches the standings at once (R41)
        lifecycle.subscribe_finished("events.results", results.game_finished)
        # R41: rounds started by the worker at their scheduled time, and their start notices
        jobs.register("events.rounds", schedule.run_due)
        # issue 40: the rounds arbiters asked to pair, paired off the request path
        jobs.register("events.pairing", pairer.run_due)
        # R30/R44: a Hettlandic event's co-champions follow a recomputed phase 1
        ledger.on_phases_rerated("hettlandic", hettlandic.phases_rerated)
