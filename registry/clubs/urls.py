"""Clubs' pages, mounted at ``/clubs/`` (issue 38). The fixed paths come before a body's
registrar id (the federation's ids, GTF-..., never take those names)."""

from django.urls import path

from registry.clubs import keys_views, views

urlpatterns = [
    path("", views.club_list, name="clubs"),
    path("apply/", views.apply, name="club_apply"),
    path("claim/", views.claim, name="club_claim"),
    path("federation/", views.federation, name="club_federation"),
    path("federation/act/", views.federation_act, name="club_federation_act"),
    path("<str:registrar_id>/", views.body_page, name="club"),
    path("<str:registrar_id>/people/", views.people, name="club_people"),
    path("<str:registrar_id>/people/act/", views.people_act, name="club_people_act"),
    path("<str:registrar_id>/people/import/", views.import_players, name="club_import"),
    path("<str:registrar_id>/keys/", keys_views.keys_page, name="club_keys"),
    path("<str:registrar_id>/keys/act/", keys_views.keys_act, name="club_keys_act"),
    path("<str:registrar_id>/keys.asc", keys_views.public_keys, name="club_public_keys"),
]
