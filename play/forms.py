from django import forms

from play.games.registry import variant_choices
from play.models import Challenge


class ChallengeForm(forms.Form):
    variant = forms.ChoiceField(choices=variant_choices(), initial="standard")
    rated = forms.TypedChoiceField(
        choices=[("1", "rated"), ("0", "freeplay")], coerce=lambda v: v == "1", initial="1",
        label="Kind")
    # The sides by their names: "I" reads as a pronoun (issue 24); the values stay I and O.
    side = forms.ChoiceField(choices=[(v, {"I": "light (moves first)", "O": "dark"}.get(v, label))
                                      for v, label in Challenge.SIDES],
                             initial="random", label="Play as")
    opponent = forms.CharField(required=False, max_length=150,
                               help_text="A player's name, or empty for an open challenge.")
