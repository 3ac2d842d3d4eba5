"""The lobby's challenge form: variant, kind, side, opponent and the time control (R36)."""

from __future__ import annotations

from django import forms
from django.db.models import Q

from play.games import clock
from play.games.registry import boolean_options, option_words, variant_choices, variant_of
from play.models import Challenge, Game

CUSTOM = "custom"


class ChallengeForm(forms.Form):
    variant = forms.ChoiceField(choices=variant_choices(), initial="standard")
    rated = forms.TypedChoiceField(
        choices=[("1", "rated"), ("0", "freeplay")], coerce=lambda v: v == "1", initial="1",
        label="Kind")
    # Not required: a client that does not send it (an older form, a script) gets an untimed
    # game, as before time controls existed.
    time = forms.ChoiceField(choices=[*clock.PRESETS, (CUSTOM, "custom…")], required=False,
                             initial="fischer 600+5", label="Time")
    custom_time = forms.CharField(
        required=False, max_length=40, label="Custom time",
        help_text="Like 'fischer 300+3', 'fischer 300+3 max 600', 'byoyomi 600 3x30' or "
                  "'correspondence 5d' (seconds; 1 to 14 days).")
    # The sides by their names: "I" reads as a pronoun (issue 24); the values stay I and O.
    side = forms.ChoiceField(choices=[(v, {"I": "light (moves first)", "O": "dark"}.get(v, label))
                                      for v, label in Challenge.SIDES],
                             initial="random", label="Play as")
    opponent = forms.CharField(required=False, max_length=150,
                               help_text="A player's name, or empty for an open challenge.")
    # The variants' on/off options (tafl's king's immunity, T1); the lobby shows each one
    # beside the variants that have it (lobby.js, ``variant_seats``).
    options = forms.MultipleChoiceField(
        choices=[(name, option_words(name)) for name in boolean_options()], required=False,
        widget=forms.CheckboxSelectMultiple, label="Options")

    def clean(self):
        """The time control as its canonical text in ``time_control`` (a preset, or the
        custom one checked against R36's ranges, with words saying what is wrong)."""
        data = super().clean()
        data["options"] = dict.fromkeys(data.get("options") or [], True)
        choice = data.pop("time", None)
        custom = data.pop("custom_time", "")
        text = custom if choice == CUSTOM else (choice or "untimed")
        if choice == CUSTOM and not (custom or "").strip():
            self.add_error("custom_time", "Write the custom time control, or pick a preset.")
            return data
        try:
            data["time_control"] = str(clock.parse(text))
        except clock.TimeControlError as err:
            self.add_error("custom_time" if choice == CUSTOM else "time", str(err))
        return data

def variant_seats() -> dict[str, dict[str, object]]:
    """Each two-seat variant's seats in words (first: who moves first) and on/off options,
    for the lobby's form: its "Play as" names the variant's seats ("attackers (move first)"),
    not talu's light and dark."""
    out: dict[str, dict[str, object]] = {}
    for value, _ in variant_choices():
        spec = variant_of(value)
        if len(spec.played) == 2:
            out[value] = {"seats": [spec.label(s) for s in spec.played],
                          "options": sorted(n for n, d in spec.options.items()
                                            if isinstance(d, bool))}
    return out


LEVEL_CHOICES = [(n, f"{n}{' (beginner)' if n == 1 else ' (strongest)' if n == 8 else ''}")
                 for n in range(1, 9)]


#: The lobby's presets the computer plays (R36): untimed first (the default) and the live ones;
#: correspondence makes no sense against an opponent that answers in seconds.
COMPUTER_TIMES = [("untimed", "untimed"),
                  *((text, label) for text, label in clock.PRESETS if clock.parse(text).live)]
NOT_A_COMPUTER_TIME = ("'%(value)s' is not a time control the computer plays: choose untimed or a "
                       "live one (" + ", ".join(label for _, label in COMPUTER_TIMES[1:]) + ").")


class ComputerForm(forms.Form):
    """Play the computer: variant, level, side and time control (freeplay always, R47)."""

    variant = forms.ChoiceField(choices=variant_choices(), initial="standard")
    level = forms.TypedChoiceField(choices=LEVEL_CHOICES, coerce=int, initial=3,
                                   label="Computer level")

    @classmethod
    def for_user(cls, user, **kwargs) -> ComputerForm:
        """The form as a player first sees it: level 1, "beginner", for their first games
        (issue 39: level 3 beat newcomers), the middle level once they have played a few."""
        return cls(initial={"level": first_level(user)}, **kwargs)
    side = forms.ChoiceField(choices=[(v, {"I": "light (moves first)", "O": "dark"}.get(v, label))
                                      for v, label in Challenge.SIDES],
                             initial="random", label="Play as")
    time_control = forms.ChoiceField(
        choices=COMPUTER_TIMES, initial="untimed", required=False, label="Time",
        error_messages={"invalid_choice": NOT_A_COMPUTER_TIME})

    def clean_time_control(self) -> str:
        """Empty (an older form, a script) is untimed, as before clocks existed."""
        return self.cleaned_data.get("time_control") or "untimed"


#: Finished games a player plays before the computer's level is offered at 3 rather than 1.
FIRST_GAMES = 5


def first_level(user) -> int:
    """The computer level a player is offered first: 1 (beginner) for someone with fewer than
    ``FIRST_GAMES`` finished games, whoever against; 3 after."""
    if not getattr(user, "is_authenticated", False):
        return 1
    played = Game.objects.filter(Q(player_i=user) | Q(player_o=user),
                                 status=Game.FINISHED)[:FIRST_GAMES].count()
    return 1 if played < FIRST_GAMES else 3
