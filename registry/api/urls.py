"""URLs of the API, mounted at ``/api/v1/`` (names in the ``api`` namespace)."""

from django.urls import path, re_path, register_converter

from registry.api import arbiters, views
from registry.api import pool as pool_api
from registry.api.errors import not_found
from registry.events import api as events
from registry.events import hand_api, hettlandic_api

app_name = "api"


class KeyConverter:
    """A player or registrar id in a path: no slash and no control character (PostgreSQL
    refuses NUL in text, so ``/players/%00/`` must be a 404 before any query)."""

    regex = r"[^/\x00-\x1f\x7f]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(KeyConverter, "key")

event_urls = [
    path("events/", events.EventList.as_view(), name="event-list"),
    path("events/import/", events.EventImport.as_view(), name="event-import"),
    path("events/<int:event_id>/", events.EventDetail.as_view(), name="event-detail"),
    path("events/<int:event_id>/entries/", events.EntryCreate.as_view(), name="event-entries"),
    path("events/<int:event_id>/entries/<key:key>/withdraw/", events.EntryWithdraw.as_view(),
         name="event-withdraw"),
    path("events/<int:event_id>/rounds/", events.RoundPair.as_view(), name="event-pair"),
    path("events/<int:event_id>/rounds/<int:number>/start/", events.RoundStart.as_view(),
         name="event-start"),
    path("events/<int:event_id>/rounds/<int:number>/schedule/",
         events.RoundSchedule.as_view(), name="event-schedule"),
    path("events/<int:event_id>/rounds/<int:number>/results/", events.RoundResult.as_view(),
         name="event-result"),
    path("events/<int:event_id>/close/", events.EventClose.as_view(), name="event-close"),
    path("events/<int:event_id>/standings/", events.EventStandings.as_view(),
         name="event-standings"),
    path("events/<int:event_id>/trf/", events.EventTRF.as_view(), name="event-trf"),
    # issue 38: changes by hand and bye requests (registry/events/hand_api.py)
    path("events/<int:event_id>/rounds/<int:number>/changes/",
         hand_api.RoundChanges.as_view(), name="event-changes"),
    path("events/<int:event_id>/byes/", hand_api.ByeRequests.as_view(), name="event-byes"),
    path("events/<int:event_id>/byes/<int:number>/cancel/", hand_api.ByeCancel.as_view(),
         name="event-bye-cancel"),
    # issue 22: the Hettlandic system (registry/events/hettlandic_api.py)
    path("events/<int:event_id>/hettlandic/", hettlandic_api.HettlandicDetail.as_view(),
         name="event-hettlandic"),
    path("events/<int:event_id>/hettlandic/close-phase-1/",
         hettlandic_api.ClosePhaseOne.as_view(), name="event-hettlandic-close"),
    path("events/<int:event_id>/hettlandic/answer/", hettlandic_api.Answer.as_view(),
         name="event-hettlandic-answer"),
    path("events/<int:event_id>/hettlandic/phase-2/", hettlandic_api.StartPhaseTwo.as_view(),
         name="event-hettlandic-phase2"),
]

urlpatterns = [
    path("", views.ApiIndex.as_view(), name="index"),
    path("players/", views.PlayerList.as_view(), name="player-list"),
    path("players/<key:player_id>/", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/<key:player_id>/ratings/", views.PlayerRatings.as_view(),
         name="player-ratings"),
    path("games/", views.GameList.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", views.GameDetail.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/annul/", views.GameAnnul.as_view(), name="game-annul"),
    path("games/<uuid:game_id>/correct/", views.GameCorrect.as_view(), name="game-correct"),
    path("games/<uuid:game_id>/records/", views.GameRecords.as_view(), name="game-records"),
    path("games/<uuid:game_id>/arbiters/", arbiters.GameArbiters.as_view(),
         name="game-arbiters"),
    path("games/<uuid:game_id>/arbiters/<key:username>/", arbiters.GameArbiter.as_view(),
         name="game-arbiter"),
    path("games/<uuid:game_id>/arbiter/", arbiters.GameArbiterAction.as_view(),
         name="game-arbiter-action"),
    path("games/<uuid:game_id>/records/<key:name>/", views.GameRecordText.as_view(),
         name="game-record"),
    re_path(r"^leaderboards/(?P<code>S[123])/$", views.Leaderboard.as_view(),
            name="leaderboard"),
    path("pool/", pool_api.PoolList.as_view(), name="pool-list"),
    path("pool/me/", pool_api.MyPairing.as_view(), name="pool-me"),
    path("bodies/", views.BodyList.as_view(), name="body-list"),
    path("bodies/<key:registrar_id>/", views.BodyDetail.as_view(), name="body-detail"),
    *event_urls,  # issue 21: club events (registry/events/api.py)
    re_path(r"^[\s\S]*$", not_found),  # any other path, newlines included
]
