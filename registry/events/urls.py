"""Event pages, mounted at ``/events/``."""

from django.urls import path

from registry.events import downloads, hettlandic_views, views

urlpatterns = [
    path("", views.event_list, name="events"),
    path("new/", views.event_new, name="event_new"),
    path("mine/", views.my_pairings, name="my_pairings"),
    path("<int:event_id>/", views.event_page, name="event"),
    path("<int:event_id>/act/", views.event_act, name="event_act"),
    path("<int:event_id>/walk-in/", views.event_walk_in, name="event_walk_in"),
    path("<int:event_id>/trf/", views.event_trf, name="event_trf"),
    path("<int:event_id>/standings.csv", downloads.standings_csv, name="event_standings_csv"),
    path("<int:event_id>/rounds/<int:number>/pairings.csv", downloads.pairings_csv,
         name="event_pairings_csv"),
    path("<int:event_id>/pairing/", views.event_pairing, name="event_pairing"),
    path("<int:event_id>/crosstable/", views.event_crosstable, name="event_crosstable"),
    path("<int:event_id>/hettlandic/", hettlandic_views.act, name="hettlandic_act"),
]
