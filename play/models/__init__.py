"""Live play's tables: games and their numbered event logs, the outbox of finished games,
challenges, and the presence of open sockets."""

from play.models.game import Game, GameEvent
from play.models.lobby import Challenge
from play.models.outbox import Outbox
from play.models.presence import Watcher

__all__ = ["Challenge", "Game", "GameEvent", "Outbox", "Watcher"]
