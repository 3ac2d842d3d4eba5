from django.apps import AppConfig


class GameRatingsConfig(AppConfig):
    """The ratings of the games other than talu (issue 36). Nothing subscribes yet: the seat
    model's archive of a finished game calls ``services.rate_finished``."""

    name = "registry.game_ratings"
    label = "game_ratings"
    verbose_name = "ratings of the other games"
