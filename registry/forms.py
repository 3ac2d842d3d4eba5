from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """Sign-up: an account is a registered player (S1, 250, an 18-character id; R26)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)
