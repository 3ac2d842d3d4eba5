"""The forms of the accounts pages: an address, the settings, closing; and Django's password
reset form with its mail sent through the queue."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib.auth.forms import PasswordResetForm
from django.template import loader
from django.utils import timezone

from registry.accounts import mailqueue, prefs
from registry.accounts.addresses import MAX_LENGTH, clean_address
from registry.accounts.models import AccountSettings, QueuedMail

#: Password reset mails one account gets in an hour at most, whoever asks.
RESETS_PER_HOUR = 3

_USE = ("Used only for the notices you choose (your turn in a correspondence game, your "
        "event's rounds) and to reset a forgotten password; never shown to anyone.")
EMAIL_HELP = f"Optional. {_USE} We send a link to confirm it."


def email_field(required: bool, help_text: str = EMAIL_HELP) -> forms.CharField:
    """A text field checked by ``clean_address`` (not EmailField: its words first, then
    ours, would say two things about one address)."""
    return forms.CharField(required=required, strip=True, label="Email address",
                           help_text=help_text,
                           widget=forms.EmailInput(attrs={"maxlength": MAX_LENGTH,
                                                          "autocomplete": "email"}))


class EmailForm(forms.Form):
    """A new address for the account: used once its link is followed."""

    email = email_field(required=True, help_text=f"{_USE} We send a link to confirm it; until "
                                                 f"then your mail goes where it went.")

    def clean_email(self) -> str:
        return clean_address(self.cleaned_data["email"])


def notice_field(kind: str, channel: str) -> str:
    return f"notice_{kind}_{channel}"


class SettingsForm(forms.ModelForm):
    """The notices by channel (one box per kind and channel, ``prefs.KINDS``) and the board
    preferences."""

    class Meta:
        model = AccountSettings
        fields = ("theme", "sound", "confirm_moves", "show_overlaps")
        labels = {"theme": "Theme", "sound": "Sounds in games",
                  "confirm_moves": "Confirm each move before it is sent",
                  "show_overlaps": "Show overlapping pieces' marks on the board"}
        widgets = {"theme": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind, (words, _, _) in prefs.KINDS.items():
            for channel in prefs.CHANNELS:
                self.fields[notice_field(kind, channel)] = forms.BooleanField(
                    required=False, label=f"{words}: {channel}",
                    initial=prefs.chosen(self.instance.notices, kind, channel))

    def notice_rows(self):
        """(words, email field, site field) per kind, for the page's table."""
        return [(words, self[notice_field(kind, prefs.EMAIL)],
                 self[notice_field(kind, prefs.SITE)])
                for kind, (words, _, _) in prefs.KINDS.items()]

    def save(self, commit: bool = True) -> AccountSettings:
        settings = super().save(commit=False)
        settings.notices = {kind: {channel: self.cleaned_data[notice_field(kind, channel)]
                                   for channel in prefs.CHANNELS} for kind in prefs.KINDS}
        if commit:
            settings.save()
        return settings


class CloseForm(forms.Form):
    """Closing an account asks for its password and a tick, so no stray click closes it."""

    password = forms.CharField(label="Your password", strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete":
                                                                 "current-password"}))
    understood = forms.BooleanField(
        label="I understand that I can no longer sign in, and that my player and my games stay "
              "in the registry")

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's password reset, its mail sent through the queue. Django's form finds only
    active accounts with a usable password whose address matches: a verified address (the
    account's email holds only such), never a closed account's."""

    email = email_field(required=True, help_text="The address your account confirmed.")

    def clean_email(self) -> str:
        return clean_address(self.cleaned_data["email"])

    def send_mail(self, subject_template_name, email_template_name, context, from_email,
                  to_email, html_email_template_name=None) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        user = context.get("user")
        recent = QueuedMail.objects.filter(user=user, kind="account", subject=subject,
                                           created_at__gte=timezone.now() - timedelta(hours=1))
        if recent.count() >= RESETS_PER_HOUR:
            # a stranger asking again and again must not fill the owner's mailbox; the page
            # answers the same as ever (it never says whether an address has an account)
            return
        body = loader.render_to_string(email_template_name, context)
        mailqueue.enqueue(to_email, subject, body, kind="account", user=user)
