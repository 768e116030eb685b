"""House rules of a chat (RULES.md §5) as the bot shows and edits them.

The engine owns the meaning of every option; this module only names them for people and
reads a chat's stored defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import storage
from bot.texts import t
from engine import LongScoring, Options

# (option field, variants it applies to, V-rule id)
TOGGLES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("block_in_passing", ("long",), "V-1"),
    ("block_needs_home", ("long",), "V-2"),
    ("first_move_lot_dice", ("long",), "V-3"),
    ("bearoff_next_turn", ("long",), "V-7"),
    ("resign_as_oin", ("long", "short"), "V-10"),
    ("winner_starts_next", ("long",), "V-12"),
    ("crawford", ("short",), "V-16"),
)


@dataclass(frozen=True, slots=True)
class ChatDefaults:
    variant: str = "long"
    match_length: int = 1
    options: Options = field(default_factory=Options)
    hints: bool = False


async def chat_defaults(store: storage.Storage, chat_id: int) -> ChatDefaults:
    """A chat's defaults for new games (private chats and unknown chats: the §0.5 defaults)."""
    if chat_id > 0:
        return ChatDefaults()
    try:
        chat = await store.get_chat(chat_id)
    except storage.NotFoundError:
        return ChatDefaults()
    raw = dict(chat.options)
    hints = bool(raw.pop("hints", False))
    try:
        options = Options.from_dict(raw)
    except ValueError:
        options = Options()
    return ChatDefaults(str(chat.default_variant), chat.match_length, options, hints)


def describe(lang: str, variant: str, options: Options) -> str:
    """One line: the rules in force for a game, naming every switched-on variant."""
    parts: list[str] = []
    for name, variants, vid in TOGGLES:
        if variant in variants and getattr(options, name):
            parts.append(f"{t(lang, 'opt_' + name)} ({vid})")
    if variant == "long" and options.long_scoring is not LongScoring.CLASSIC:
        vid = "V-8" if options.long_scoring is LongScoring.HOME_MARS else "V-9"
        parts.append(f"{t(lang, 'opt_scoring_' + str(options.long_scoring))} ({vid})")
    if variant == "short":
        parts.append(
            t(lang, "opt_cube_on") if options.cube_enabled("short") else t(lang, "opt_cube_off")
        )
    elif options.cube_enabled("long"):
        parts.append(t(lang, "opt_cube_on"))
    if not parts:
        return t(lang, "opt_standard")
    return t(lang, "opt_standard_plus", items="; ".join(parts))
