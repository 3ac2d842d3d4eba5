from django import forms

from play.games.registry import variant_choices
from play.models import Challenge


class ChallengeForm(forms.Form):
    variant = forms.ChoiceField(choices=variant_choices(), initial="standard")
    rated = forms.TypedChoiceField(
        choices=[("1", "rated"), ("0", "freeplay")], coerce=lambda v: v == "1", initial="1",
        label="Kind")
    side = forms.ChoiceField(choices=Challenge.SIDES, initial="random", label="Play as")
    opponent = forms.CharField(required=False, max_length=150,
                               help_text="A player's name, or empty for an open challenge.")


LEVEL_CHOICES = [(n, f"{n}{' (beginner)' if n == 1 else ' (strongest)' if n == 8 else ''}")
                 for n in range(1, 9)]


class ComputerForm(forms.Form):
    """Play the computer: variant, level, side (freeplay always, R47). A time control joins
    these with the clocks (issue 20)."""

    variant = forms.ChoiceField(choices=variant_choices(), initial="standard")
    level = forms.TypedChoiceField(choices=LEVEL_CHOICES, coerce=int, initial=3,
                                   label="Computer level")
    side = forms.ChoiceField(choices=Challenge.SIDES, initial="random", label="Play as")
