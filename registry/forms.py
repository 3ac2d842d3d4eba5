from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from play.games import text
from registry import logins
from registry.accounts.addresses import clean_address
from registry.accounts.forms import email_field


class SignupForm(UserCreationForm):
    """Sign-up: an account is a registered player (S1, 250, an 18-character id; R26). The
    email address is optional and not the account's until its link is followed (issue 39,
    ``registry.accounts.verify``): the view asks for it after the account is made."""

    email = email_field(required=False)
    field_order = ("username", "email", "password1", "password2")

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def clean_email(self) -> str:
        value = self.cleaned_data.get("email") or ""
        return clean_address(value) if value else ""

    def clean_username(self) -> str:
        # Django's validator already keeps names to letters, digits and @.+-_; the one check
        # of every name (play.games.text) says the same words here as elsewhere.
        name = super().clean_username()
        try:
            return text.clean_name(name, max_length=150)
        except text.TextError as err:
            raise forms.ValidationError(f"A name {err}.") from None


class AnpcForm(forms.Form):
    """A player's own aNPc (R27), used for their PSF instead of the default from their last
    ten S3 games; empty goes back to the default. NPc lies in (0, 2), so aNPc must too."""

    anpc = forms.FloatField(required=False, min_value=0.01, max_value=2.0, label="Your aNPc",
                            help_text="between 0.01 and 2; empty for the default (R27)")


class _SaysWhenToTryAgain:
    """A log-in form whose error, when the log-in limits refused the attempt unchecked
    (``registry.logins``), says so and when to try again, not "wrong password"."""

    def get_invalid_login_error(self):
        refusal = logins.refusal_of(self.request)
        if refusal is None:
            return super().get_invalid_login_error()
        return forms.ValidationError(refusal.message, code="rate_limited")


class LoginForm(_SaysWhenToTryAgain, AuthenticationForm):
    """The site's log-in form."""


class AdminLoginForm(_SaysWhenToTryAgain, AdminAuthenticationForm):
    """Django admin's log-in form (``admin.site.login_form``, set in registry/admin.py)."""
