"""Live play's tables: games and their numbered event logs, the outbox of finished games,
challenges, the quick-pairing pools, the presence of open sockets, the computer
opponent's games, and chat beside a game (its reports, mutes and restrictions); tables of
more than two seats and the pool for three (issue 37)."""

from play.models.chat import ChatMessage, ChatMute, ChatReport, Restriction
from play.models.computer import ComputerAccount, ComputerGame
from play.models.game import Game, GameEvent
from play.models.lobby import Challenge
from play.models.outbox import Outbox
from play.models.pool import Pool, PoolEntry
from play.models.presence import Watcher
from play.models.seat import Seat
from play.models.tables import Table, TableSeat, ThreeEntry

__all__ = ["Challenge", "ChatMessage", "ChatMute", "ChatReport", "ComputerAccount",
           "ComputerGame", "Game", "GameEvent", "Outbox", "Pool", "PoolEntry", "Restriction",
           "Seat", "Table", "TableSeat", "ThreeEntry", "Watcher"]
