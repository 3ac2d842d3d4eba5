"""The computer opponent on the site (issue 25): its account, starting a game against it, and
the worker's job that plays its turns through the one command path (R40).

- ``think``: pure (no Django): a game's stored events in, the computer's turn out; what the
  worker's pool of processes runs (``pool``), so a search never holds the event loop.
- ``account``: the computer's site account, marked as the computer (``ComputerAccount``).
- ``start``: "Play the computer" (variant, level, side), freeplay only (R47).
- ``mover``: the worker's job: claim the games where the computer is to move (a lease), think in
  the pool, then play the turn step by step as an actor of kind ``computer``, so the board
  animates it like a person's; resign a lost position at the levels that do.

This package's ``__init__`` imports nothing: the pool's processes import ``think`` alone.
"""
