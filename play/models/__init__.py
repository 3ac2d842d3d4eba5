"""Live play's tables: games and their numbered event logs, the outbox of finished games,
challenges, the quick-pairing pools, the presence of open sockets, the computer
opponent's games, and chat beside a game (its reports, mutes and restrictions)."""

from play.models.chat import ChatMessage, ChatMute, ChatReport, Restriction
from play.models.computer import ComputerAccount, ComputerGame
from play.models.game import Game, GameEvent
from play.models.lobby import Challenge
from play.models.outbox import Outbox
from play.models.pool import Pool, PoolEntry
from play.models.presence import Watcher
from play.models.seat import Seat

__all__ = ["Challenge", "ChatMessage", "ChatMute", "ChatReport", "ComputerAccount",
           "ComputerGame", "Game", "GameEvent", "Outbox", "Pool", "PoolEntry", "Restriction",
           "Seat", "Watcher"]
