"""Notifications on the site (issue 39): a notice stored for its player (the page
``/notifications/`` and the bell on every page, live over the lobby's socket) and the same by
mail where they asked for it, through one function, ``services.notify``. What a player gets
where is their choice on the settings page (``registry.accounts.prefs``)."""
