"""/accounts/ (issue 39): settings, verification, unsubscribe, closing, and Django's password
views under the names Django's own templates and views reverse."""

from django.contrib.auth import views as auth_views
from django.urls import path

from registry.accounts import views

urlpatterns = [
    path("settings/", views.settings_page, name="accounts_settings"),
    path("verify/<str:token>/", views.verify_email, name="accounts_verify"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="accounts_unsubscribe"),
    path("close/", views.close_account, name="accounts_close"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
]
