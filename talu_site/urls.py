"""URL map: accounts, lobby and games (play), profiles (registry), admin, API schema."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("registry.urls")),
    path("", include("play.urls")),
]

handler404 = "talu_site.views.not_found"
handler500 = "talu_site.views.server_error"
