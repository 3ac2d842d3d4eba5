"""Chat beside a game (issue 39): two channels a game, its players' and its spectators',
over the game's own socket (docs/protocol.md, "Chat"); reports of a message or a player; a
viewer's mutes; the restrictions a moderator puts on an account (chatting, rated play).

- ``messages``: what may be said and who reads it (the one text check, the rate limit, the
  event's setting, a restriction), the history a page shows;
- ``reports``: a report of something the reporter could see, a mute;
- ``restrictions``: whether an account may chat or play rated games now, in words;
- ``socket``: the game socket's part (``play.live.consumer`` hands chat messages here).

The moderators' page and actions are the registry's (``registry.moderation``): they audit.
"""
