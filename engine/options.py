"""House rules (RULES.md §5) as explicit settings; every default is the one of §0.5.

:data:`OPTION_INFO` describes each option next to its definition — the rule it switches, the
variants it applies to, the values a settings screen offers and their names — so every user
interface lists the same options the same way.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from engine.position import VariantName


class LongScoring(StrEnum):
    """How a long-nardy game is scored (M-1, M-2, V-8, V-9)."""

    CLASSIC = "classic"  # oin 1, mars 2 (M-1, M-2)
    HOME_MARS = "home_mars"  # V-8: none off and all 15 home counts 3
    CHECKERS_LEFT = "checkers_left"  # V-9: an ordinary loss counts the loser's checkers left


class OptionsError(ValueError):
    """An unknown option name or a value of the wrong type."""


@dataclass(frozen=True, slots=True)
class Options:
    """Rule switches for one game or match. All off by default (§5: "default … is off").

    ``cube`` is ``None`` for "the variant's default" (M-14: on in short nardy, off in long).
    """

    block_in_passing: bool = False  # V-1: six-block checked only at the end of the turn
    block_needs_home: bool = False  # V-2: six-block allowed only once an O checker is home
    first_move_lot_dice: bool = False  # V-3: long nardy's first move plays the lot numbers
    first_turn_any_double: bool = False  # V-4: any first-turn double frees a 2nd head checker
    no_obstacle_clause: bool = False  # V-5: 6-6/4-4/3-3 exception without L-12's clause
    bearoff_next_turn: bool = False  # V-7: no bearing off in the turn the last checker enters
    long_scoring: LongScoring = LongScoring.CLASSIC  # V-8 / V-9
    resign_as_oin: bool = False  # V-10
    winner_starts_next: bool = False  # V-12
    crawford: bool = False  # V-16
    cube: bool | None = None  # M-14

    def cube_enabled(self, variant: str) -> bool:
        """Whether the doubling cube is in play for ``variant`` (a name; M-14: ``None``
        means the variant's own default, ``Variant.cube_by_default``)."""
        if self.cube is None:
            from engine.variants import get_variant  # the variants import the options

            return get_variant(variant).cube_by_default
        return self.cube

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from the defaults, as plain JSON values."""
        default = Options()
        out: dict[str, Any] = {}
        for key, value in asdict(self).items():
            if value != getattr(default, key):
                out[key] = str(value) if isinstance(value, StrEnum) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """Parse options written by :meth:`to_dict` (or by a user of the CLI)."""
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        result = cls()
        for key, value in data.items():
            if key not in known:
                raise OptionsError(f"unknown option {key!r}")
            if key == "long_scoring":
                try:
                    value = LongScoring(value)
                except ValueError as exc:
                    raise OptionsError(f"long_scoring must be one of {list(LongScoring)}") from exc
            elif key == "cube":
                if value is not None and not isinstance(value, bool):
                    raise OptionsError("cube must be true, false or null")
            elif not isinstance(value, bool):
                raise OptionsError(f"option {key!r} must be true or false")
            result = replace(result, **{key: value})
        return result


@dataclass(frozen=True, slots=True)
class OptionChoice:
    """One value a house-rule option can take, with the rule it stands for and its name."""

    value: Any
    rule_id: str  # "" for the §0.5 default
    label_ru: str
    label_en: str

    def label(self, lang: str) -> str:
        return self.label_ru if lang == "ru" else self.label_en


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """What one field of :class:`Options` means, for settings screens and rule summaries.

    ``choices`` are the values offered, the default first; for an on/off option the second
    choice (on) carries the option's name. ``variants`` are the games the option changes
    (Crawford only matters where the cube is in play, :meth:`Options.cube_enabled`).
    """

    name: str
    variants: tuple[VariantName, ...]
    choices: tuple[OptionChoice, ...]

    @property
    def is_toggle(self) -> bool:
        return tuple(c.value for c in self.choices) == (False, True)

    @property
    def rule_id(self) -> str:
        """The variant rule the option switches on (an on/off option's V-id)."""
        return self.choices[-1].rule_id

    def label(self, lang: str) -> str:
        """The option's name: what switching it on means."""
        return self.choices[-1].label(lang)

    def choice(self, value: Any) -> OptionChoice:
        """The choice of ``value``; ValueError for a value the option does not offer."""
        for choice in self.choices:
            # Identity for None/True/False (True == 1 must not match), equality for enums.
            same = choice.value is value
            if same or (isinstance(choice.value, StrEnum) and choice.value == value):
                return choice
        raise ValueError(f"{value!r} is not a choice of option {self.name!r}")

    def applies_to(self, variant: str) -> bool:
        return variant in self.variants


_LONG = (VariantName.LONG,)
_BOTH = (VariantName.LONG, VariantName.SHORT)
_OFF = OptionChoice(False, "", "нет", "off")


def _toggle(
    name: str, variants: tuple[VariantName, ...], rule: str, ru: str, en: str
) -> OptionInfo:
    return OptionInfo(name, variants, (_OFF, OptionChoice(True, rule, ru, en)))


OPTION_INFO: tuple[OptionInfo, ...] = (
    _toggle(
        "block_in_passing",
        _LONG,
        "V-1",
        "блок из 6 можно строить «на проходе»",
        "a six-point block may be made in passing",
    ),
    _toggle(
        "block_needs_home",
        _LONG,
        "V-2",
        "блок из 6 — только когда шашка соперника дошла до дома",
        "a six-point block only once an opponent checker is home",
    ),
    _toggle(
        "first_move_lot_dice",
        _LONG,
        "V-3",
        "первый ход — числами жребия",
        "the first move plays the lot numbers",
    ),
    _toggle(
        "first_turn_any_double",
        _LONG,
        "V-4",
        "на первом ходу любой дубль снимает 2 шашки с головы",
        "on the first turn any double frees a 2nd head checker",
    ),
    _toggle(
        "no_obstacle_clause",
        _LONG,
        "V-5",
        "первый ход 6-6, 4-4, 3-3: две с головы всегда",
        "first-turn 6-6, 4-4, 3-3 always take two off the head",
    ),
    _toggle(
        "bearoff_next_turn",
        _LONG,
        "V-7",
        "выброс — только со следующего хода",
        "bearing off only from the next turn",
    ),
    OptionInfo(
        "long_scoring",
        _LONG,
        (
            OptionChoice(LongScoring.CLASSIC, "", "ойн 1, марс 2", "oin 1, mars 2"),
            OptionChoice(LongScoring.HOME_MARS, "V-8", "домашний марс ×3", "home mars counts ×3"),
            OptionChoice(
                LongScoring.CHECKERS_LEFT,
                "V-9",
                "проигрыш = число оставшихся шашек",
                "a loss counts the checkers left",
            ),
        ),
    ),
    _toggle("resign_as_oin", _BOTH, "V-10", "сдача = ойн", "resigning counts as oin"),
    _toggle(
        "winner_starts_next",
        _LONG,
        "V-12",
        "следующую игру начинает победитель",
        "the winner starts the next game",
    ),
    _toggle("crawford", _BOTH, "V-16", "правило Кроуфорда", "Crawford rule"),
    OptionInfo(
        "cube",
        _BOTH,
        (
            OptionChoice(
                None, "M-14", "куб — как принято в игре", "the cube as the game's default"
            ),
            OptionChoice(True, "M-14", "куб удвоения включён", "doubling cube on"),
            OptionChoice(False, "M-14", "без куба удвоения", "no doubling cube"),
        ),
    ),
)
