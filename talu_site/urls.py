"""URL map: accounts, lobby and games (play), profiles (registry), admin, the REST API."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from talu_site.health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page says (it was a 404, issue 24).
    path("favicon.ico", RedirectView.as_view(url=static("play/favicon.svg"), permanent=True)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file, not inline: the site's
    # Content-Security-Policy runs no inline script (issue 27).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"),
         name="api-docs"),
    path("api/v1/", include("registry.api.urls")),
    path("events/", include("registry.events.urls")),  # issue 21
    path("clubs/", include("registry.clubs.urls")),  # issue 38
    path("accounts/", include("registry.accounts.urls")),  # issue 39
    path("notifications/", include("registry.notices.urls")),  # issue 39
    path("", include("registry.urls")),
    path("", include("play.urls")),
]

handler404 = "talu_site.views.not_found"
handler500 = "talu_site.views.server_error"
