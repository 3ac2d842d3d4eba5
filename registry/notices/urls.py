"""/notifications/ (issue 39)."""

from django.urls import path

from registry.notices import views

urlpatterns = [
    path("", views.notifications_page, name="notifications"),
    path("read/", views.mark_all_read, name="notifications_read"),
    path("unread.json", views.unread_json, name="notifications_unread"),
]
