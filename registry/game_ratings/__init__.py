"""Ratings of the games other than talu (issue 36): a Django app of its own (``game_ratings``).

``rating`` is the pure maths (openskill's Weng-Lin Plackett-Luce and the Elo-like display);
``catalog`` the games the site rates; ``models`` the ratings and their history; ``services``
the one writer (``rate_finished``); ``views`` the leaderboard per game and ``templatetags``
the profile's section. Talu's ratings are the book's ledger (``registry.ledger``), not these.
"""
