"""House rules of a chat (RULES.md §5) as the bot shows and edits them.

The engine owns the meaning of every option and the game layer stores a chat's defaults
(:class:`gameplay.ChatDefaults`); this module only names them for people and computes what a
/settings tap changes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.texts import t
from engine import OPTION_INFO, LongScoring, Options
from engine.variants import VARIANTS as ENGINE_VARIANTS
from gameplay import ChatDefaults
from gameplay.clocks import CHOICES as CLOCK_CHOICES
from gameplay.clocks import MoveClock
from gameplay.people import BOARD_SIDES

# (option field, variants it applies to, V-rule id), from the engine's own descriptions of
# its options, in their order. Crawford is listed for both games but is only named where the
# cube is in play (the engine applies it only then).
TOGGLES: tuple[tuple[str, tuple[str, ...], str], ...] = tuple(
    (info.name, tuple(str(v) for v in info.variants), info.rule_id)
    for info in OPTION_INFO
    if info.is_toggle
)
TOGGLE_FIELDS = frozenset(name for name, _, _ in TOGGLES)

VARIANTS: tuple[str, ...] = tuple(ENGINE_VARIANTS)
# The variants whose scoring a chat may choose (V-8, V-9).
SCORING_VARIANTS: tuple[str, ...] = next(
    tuple(str(v) for v in info.variants) for info in OPTION_INFO if info.name == "long_scoring"
)
MATCH_LENGTHS = (1, 3, 5, 7, 11)
SCORINGS: tuple[LongScoring, ...] = tuple(LongScoring)
SCORING_RULE = {
    LongScoring.CLASSIC: "",
    LongScoring.HOME_MARS: "V-8",
    LongScoring.CHECKERS_LEFT: "V-9",
}
# The cube switch as stored in Options.cube: None = each game's default (M-14: short on, long
# off), True = on in both games, False = off in both. Cycled in this order.
CUBE_STATES: tuple[tuple[str, bool | None], ...] = (("default", None), ("on", True), ("off", False))

# /settings fields other than the option toggles (SettingsCB.field values).
F_VARIANT, F_LENGTH, F_CUBE, F_SCORING, F_HINTS = "variant", "length", "cube", "scoring", "hints"
# The move clock of new games between people (a game-layer setting, not an engine option).
F_CLOCK = "clock"
# Whose side a group's shared board is drawn from (issue #18 item 10; a display setting).
F_BOARD = "board"
FIELDS = (
    frozenset({F_VARIANT, F_LENGTH, F_CUBE, F_SCORING, F_HINTS, F_CLOCK, F_BOARD}) | TOGGLE_FIELDS
)


class SettingError(ValueError):
    """A /settings value the bot does not offer (stale or forged callback data)."""


def _cycle(values: tuple[Any, ...], current: Any) -> Any:
    try:
        return values[(values.index(current) + 1) % len(values)]
    except ValueError:
        return values[0]


def cube_state(options: Options) -> str:
    """The name of the cube switch's state ('default', 'on' or 'off')."""
    return next(name for name, value in CUBE_STATES if value is options.cube)


def next_value(defaults: ChatDefaults, name: str, *, group: bool = True) -> str:
    """What tapping the button of setting ``name`` switches it to (the button carries this
    value, so a repeated tap on an old message sets the same thing instead of toggling back).
    ``group``: the screen is a group's (the move clock's default differs)."""
    opts = defaults.options
    if name == F_CLOCK:
        return str(_cycle(CLOCK_CHOICES, defaults.clock_for(group=group)))
    if name == F_VARIANT:
        return str(_cycle(VARIANTS, defaults.variant))
    if name == F_LENGTH:
        return str(_cycle(MATCH_LENGTHS, defaults.match_length))
    if name == F_CUBE:
        return _cycle(tuple(n for n, _ in CUBE_STATES), cube_state(opts))
    if name == F_SCORING:
        return str(_cycle(SCORINGS, opts.long_scoring))
    if name == F_HINTS:
        return "0" if defaults.hints else "1"
    if name == F_BOARD:
        return str(_cycle(BOARD_SIDES, defaults.board_side))
    if name in TOGGLE_FIELDS:
        return "0" if getattr(opts, name) else "1"
    raise SettingError(f"unknown setting {name!r}")


def _flag(value: str) -> bool:
    if value not in ("0", "1"):
        raise SettingError(f"expected 0 or 1, got {value!r}")
    return value == "1"


def apply_setting(defaults: ChatDefaults, name: str, value: str) -> ChatDefaults:
    """``defaults`` with setting ``name`` set to ``value``; :class:`SettingError` for values
    the settings screen never offers."""
    opts = defaults.options
    if name == F_VARIANT:
        if value not in VARIANTS:
            raise SettingError(f"unknown variant {value!r}")
        return replace(defaults, variant=value)
    if name == F_LENGTH:
        if not value.isdigit() or int(value) not in MATCH_LENGTHS:
            raise SettingError(f"match length {value!r} is not offered")
        return replace(defaults, match_length=int(value))
    if name == F_CUBE:
        states = dict(CUBE_STATES)
        if value not in states:
            raise SettingError(f"unknown cube state {value!r}")
        return replace(defaults, options=replace(opts, cube=states[value]))
    if name == F_SCORING:
        try:
            scoring = LongScoring(value)
        except ValueError:
            raise SettingError(f"unknown scoring {value!r}") from None
        return replace(defaults, options=replace(opts, long_scoring=scoring))
    if name == F_HINTS:
        return replace(defaults, hints=_flag(value))
    if name == F_BOARD:
        if value not in BOARD_SIDES:
            raise SettingError(f"unknown board side {value!r}")
        return replace(defaults, board_side=value)
    if name == F_CLOCK:
        try:
            return replace(defaults, move_clock=MoveClock(value))
        except ValueError:
            raise SettingError(f"unknown move clock {value!r}") from None
    if name in TOGGLE_FIELDS:
        return replace(defaults, options=replace(opts, **{name: _flag(value)}))
    raise SettingError(f"unknown setting {name!r}")


def describe(lang: str, variant: str, options: Options) -> str:
    """One line: the rules in force for a game of ``variant``, naming every switched-on
    variant rule and the cube only where it differs from the game's default (M-14)."""
    parts: list[str] = []
    for name, variants, vid in TOGGLES:
        if variant not in variants or not getattr(options, name):
            continue
        if name == "crawford" and not options.cube_enabled(variant):
            continue
        parts.append(f"{t(lang, 'opt_' + name)} ({vid})")
    if variant in SCORING_VARIANTS and options.long_scoring is not LongScoring.CLASSIC:
        vid = SCORING_RULE[options.long_scoring]
        parts.append(f"{t(lang, 'opt_scoring_' + str(options.long_scoring))} ({vid})")
    default_cube = Options().cube_enabled(variant)
    if options.cube_enabled(variant) != default_cube:
        parts.append(t(lang, "opt_cube_on" if options.cube_enabled(variant) else "opt_cube_off"))
    if not parts:
        return t(lang, "opt_standard")
    return t(lang, "opt_standard_plus", items="; ".join(parts))
