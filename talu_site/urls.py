"""URL map: accounts, lobby and games (play), profiles (registry), admin, API schema."""

from django.contrib import admin
from django.urls import include, path

from talu_site.health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("", include("registry.urls")),
    path("", include("play.urls")),
]

handler404 = "talu_site.views.not_found"
handler500 = "talu_site.views.server_error"
