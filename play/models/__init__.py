"""Live play's tables: games and their numbered event logs, the outbox of finished games,
challenges, the quick-pairing pools, the presence of open sockets, and the computer
opponent's games."""

from play.models.computer import ComputerAccount, ComputerGame
from play.models.game import Game, GameEvent
from play.models.lobby import Challenge
from play.models.outbox import Outbox
from play.models.pool import Pool, PoolEntry
from play.models.presence import Watcher
from play.models.seat import Seat

__all__ = ["Challenge", "ComputerAccount", "ComputerGame", "Game", "GameEvent", "Outbox",
           "Pool", "PoolEntry", "Seat", "Watcher"]
