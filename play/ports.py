"""What live play needs from the rest of the site, as one interface the registry fills in.

Play imports nothing of the registry: the registry depends on play (it archives play's finished
games, ``play.lifecycle``'s subscribers), never the other way round, so the two apps do not
import each other (``tests/test_import_cycles.py``). What play must still ask, the players' names
and standings, a new game's records and a finished game's records and rating changes, it asks
through ``directory()``, which the registry provides at start-up
(``registry.apps.RegistryConfig.ready``). Without it (play alone) players are shown by their
account names and nothing is recorded.
"""

from __future__ import annotations

from typing import Any, Protocol

from play.games.registry import DEFAULT_GAME, DEFAULT_VARIANT


class Directory(Protocol):
    """The registry as play sees it."""

    def ratings(self, game: str, variant: str, players: Any) -> list[int | None]:
        """The ratings ``players`` bring to a new game of ``game`` and ``variant`` (a game keeps
        them: talu's S3 expectations, R23; another game's own rating, None for a newcomer).
        ``keeps_book_ratings`` says whose they are."""
        ...

    def keeps_book_ratings(self, game: str) -> bool:
        """Whether ``game``'s games are rated by the book's ledger (talu's, R30: their ratings
        at the start are kept on the game's row for S3)."""
        ...

    def standing(self, user: Any, game: str = DEFAULT_GAME, variant: str = DEFAULT_VARIANT
                 ) -> dict[str, Any]:
        """A player's standing for matchmaking in ``game``'s ``variant`` (R47): ``rating``,
        ``stratum`` (1-3, None without the registry or for a game without strata), and for a
        talu S3 player their ``anpc`` and ``psf`` (R27; None otherwise). A newcomer to a game
        gets the rating that game's players start at."""
        ...

    def ratings_of(self, user_ids: Any, game: str = DEFAULT_GAME, variant: str = DEFAULT_VARIANT
                   ) -> dict[int, int]:
        """The current ratings of these accounts in ``game``'s ``variant`` (the pools' and the
        lobby's PSF marks, R47), a newcomer's as ``standing`` says."""
        ...

    def psf_hints(self, user: Any, opponents: dict[Any, int]) -> dict[str, Any] | None:
        """R47 for an S3 ``user``: their ``rating``, ``anpc``, ``psf`` and, for each key of
        ``opponents`` (an opponent's rating), ``against[key]`` = ``expected`` rating after a
        game at aNPc, its ``change`` and whether the opponent is ``below`` the PSF. None for
        anyone else: S1/S2 players see nothing S3-specific."""
        ...

    def game_started(self, game: Any) -> None:
        """A game was created (in the caller's transaction): its registry entry and records."""
        ...

    def players(self, game: Any) -> dict[str, dict[str, Any]]:
        """Both players of ``game`` as clients show them (docs/protocol.md ``game.players``)."""
        ...

    def archive(self, game: Any) -> dict[str, Any]:
        """A finished game's ``records`` (download links) and ``rating_changes``."""
        ...

    def may_arbitrate(self, game: Any, user: Any) -> bool:
        """R39: whether ``user`` may act as arbiter on ``game`` (an arbiter of its event,
        appointed for it by its body, or staff for a game outside any event; never its
        players)."""
        ...

    def arbiter_acted(self, game: Any, user: Any, command: dict[str, Any],
                      version: int, body: Any = None) -> None:
        """An arbiter's action was stored at ``version``: the audit trail's entry (``body``:
        the affiliated body whose token sent it for its arbiter, if one did)."""
        ...

    def chat_allowed(self, game: Any) -> bool:
        """Whether an event's game has chat beside it (issue 39): only when the event's
        arbiters allowed it (the event's ``chat`` setting)."""
        ...

    def notify(self, user: Any, kind: str, text: str, url: str, subject: str = "",
               body: str = "") -> bool | None:
        """Tell ``user`` ``text`` (a notice of ``kind``: turn, challenge, round, decision,
        club), leading to the path ``url``, on the site and by mail as they chose (issue 39;
        ``subject`` and ``body``: the mail's own words, if not the text's): whether a mail was
        queued. None where the site keeps no notices (play alone): the caller mails itself."""
        ...


class _AccountsOnly:
    """Play on its own: account names, no ratings, no records."""

    def ratings(self, game: str, variant: str, players: Any) -> list[int | None]:
        return [0 for _ in players]

    def keeps_book_ratings(self, game: str) -> bool:
        return False

    def standing(self, user: Any, game: str = DEFAULT_GAME, variant: str = DEFAULT_VARIANT
                 ) -> dict[str, Any]:
        return {"rating": 0, "stratum": None, "anpc": None, "psf": None}

    def ratings_of(self, user_ids: Any, game: str = DEFAULT_GAME, variant: str = DEFAULT_VARIANT
                   ) -> dict[int, int]:
        return {pk: 0 for pk in user_ids}

    def psf_hints(self, user: Any, opponents: dict[Any, int]) -> dict[str, Any] | None:
        return None

    def game_started(self, game: Any) -> None:
        return None

    def players(self, game: Any) -> dict[str, dict[str, Any]]:
        return {side: {"name": user.get_username(), "player_id": None, "rating": None,
                       "rating_at_start": None, "stratum": None, "profile": None}
                for side, user in (("I", game.player_i), ("O", game.player_o))}

    def archive(self, game: Any) -> dict[str, Any]:
        return {"records": [], "rating_changes": {}}

    def may_arbitrate(self, game: Any, user: Any) -> bool:
        """Without the registry nobody is appointed: staff only, never a player (R39)."""
        return bool(user is not None and getattr(user, "is_authenticated", False)
                    and user.is_staff and game.side_of(user) is None)

    def arbiter_acted(self, game: Any, user: Any, command: dict[str, Any],
                      version: int, body: Any = None) -> None:
        return None

    def chat_allowed(self, game: Any) -> bool:
        """Without the registry there are no events: no event's game has chat."""
        return False

    def notify(self, user: Any, kind: str, text: str, url: str, subject: str = "",
               body: str = "") -> bool | None:
        """Without the registry no notice is kept: the caller mails, if it mails at all."""
        return None


_directory: Directory = _AccountsOnly()


def provide(directory: Directory) -> None:
    """Install the registry's directory (once, at start-up)."""
    global _directory
    _directory = directory


def directory() -> Directory:
    return _directory
