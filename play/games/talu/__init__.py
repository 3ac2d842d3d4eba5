"""The pure rules core of talu (book ch. 4, rulings R1-R15). No Django import here, ever.

Public API: ``TaluGame`` (apply steps, query the position, outcome), ``Step``, ``Side``,
``read_stgn`` / ``write_stgn``, the variants, and the error types.
"""

from .decisions import ArbiterDecision
from .errors import (
    GameOverError,
    IllegalStepError,
    NotationError,
    NotationRuleError,
    NotationSyntaxError,
    SquareError,
    StepFormatError,
    TaluError,
    UnknownVariantError,
)
from .game import TaluGame, TurnRecord
from .outcome import SIDES, Outcome, Side, Termination
from .steps import Step
from .stgn import read_stgn, write_stgn
from .variants import VARIANTS, Variant, get_variant

__all__ = [
    "SIDES",
    "VARIANTS",
    "ArbiterDecision",
    "GameOverError",
    "IllegalStepError",
    "NotationError",
    "NotationRuleError",
    "NotationSyntaxError",
    "Outcome",
    "Side",
    "SquareError",
    "Step",
    "StepFormatError",
    "TaluError",
    "TaluGame",
    "Termination",
    "TurnRecord",
    "UnknownVariantError",
    "Variant",
    "get_variant",
    "read_stgn",
    "write_stgn",
]
