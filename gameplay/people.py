"""Who plays and where: the people's current names and the chats' settings.

The bot reports every person and chat it sees (:meth:`Players.seen`, :meth:`Chats.seen`);
both are written to storage only when something changed, so the commonest update (a tap by
a known player) writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import storage
from engine import Options
from engine.variants import VARIANTS
from gameplay import clocks
from gameplay.actions import Actor
from gameplay.clocks import MoveClock
from gameplay.picker import PickerWay
from storage.recent import Recent


class Players:
    """People by user id: their current display names (written through to storage)."""

    def __init__(
        self, store: storage.Storage, limit: int = 100_000, *, sole_writer: bool = True
    ) -> None:
        """``sole_writer`` False (several workers on one database): the way a player picks
        is read on every use, since their last tap, which chose it, may have reached
        another worker (names are only written through, never decide anything)."""
        self.store = store
        self._known: Recent[int, tuple[str, str | None]] = Recent(limit)
        self._ways: Recent[int, PickerWay] = Recent(limit, max_age=None if sole_writer else 0)

    async def seen(self, actor: Actor, language: str | None = None) -> str | None:
        """Record the person as Telegram shows them now. ``language`` (their app's) is stored
        for a person seen for the first time or who never had one; it is returned then."""
        known = self._known.get(actor.user_id)
        if known == (actor.name, actor.username):
            return None
        try:
            if (await self.store.get_user(actor.user_id)).language is not None:
                language = None
        except storage.NotFoundError:
            pass
        await self.store.upsert_user(
            actor.user_id, actor.name, username=actor.username, language=language
        )
        self._known[actor.user_id] = (actor.name, actor.username)
        return language

    async def name_of(self, user_id: int) -> str:
        known = self._known.get(user_id)
        if known is not None:
            return known[0]
        try:
            user = await self.store.get_user(user_id)
        except storage.NotFoundError:
            return str(user_id)
        self._known[user_id] = (user.display_name, user.username)
        return user.display_name

    async def set_language(self, actor: Actor, language: str) -> None:
        await self.store.upsert_user(
            actor.user_id, actor.name, username=actor.username, language=language
        )
        self._known[actor.user_id] = (actor.name, actor.username)

    async def language_of(self, user_id: int) -> str | None:
        """The stored language of a person (None: never set, or never seen)."""
        try:
            return (await self.store.get_user(user_id)).language
        except storage.NotFoundError:
            return None

    async def picker_way(self, user_id: int) -> PickerWay:
        """How the person last entered a turn (whole plays or step by step)."""
        known = self._ways.get(user_id)
        if known is not None:
            return known
        way = PickerWay.STEPS
        stored = await self.store.get_picker_way(user_id)
        if stored in tuple(PickerWay):
            way = PickerWay(stored)
        self._ways[user_id] = way
        return way

    async def set_picker_way(self, user_id: int, way: PickerWay) -> None:
        """Remember the way the person chose: written when it changes — and every time when
        other processes may change it too (the remembered one could be outdated)."""
        if self._ways.max_age is None and await self.picker_way(user_id) is way:
            return
        await self.store.set_picker_way(user_id, str(way))
        self._ways[user_id] = way


#: The chat options key of the group board's side, and its values.
BOARD_SIDE_KEY = "board_side"
BOARD_SIDES = ("white", "black")


@dataclass(frozen=True, slots=True)
class ChatDefaults:
    """What a new game in a chat starts with (RULES.md §0.5 unless the chat changed it)."""

    variant: str = "long"
    match_length: int = 1
    options: Options = field(default_factory=Options)
    hints: bool = False  # hints in games between people (games with the computer: always)
    # time per move of games between people started here (None: the default for the chat)
    move_clock: MoveClock | None = None
    # whose side the group's shared board is drawn from, all game ("white" or "black")
    board_side: str = "white"

    def clock_for(self, *, group: bool) -> MoveClock:
        """The move clock a new game between people here starts with."""
        return self.move_clock or clocks.default_clock(group=group)

    def stored_options(self) -> dict[str, Any]:
        """The chat's options JSON: the engine's own form, plus the ``hints`` switch and the
        move clock (game-layer settings the engine does not know)."""
        data = self.options.to_dict()
        if self.hints:
            data["hints"] = True
        if self.move_clock is not None:
            data[clocks.OPTION_KEY] = str(self.move_clock)
        if self.board_side != "white":
            data[BOARD_SIDE_KEY] = self.board_side
        return data

    @classmethod
    def from_stored(
        cls, variant: str, match_length: int, options: Mapping[str, Any]
    ) -> ChatDefaults:
        """The defaults a chat's stored row says (:meth:`stored_options` read back); what no
        longer parses (an option or a variant this version dropped) reads as §0.5's."""
        raw, move_clock = clocks.split_options(options)
        hints = bool(raw.pop("hints", False))
        side = raw.pop(BOARD_SIDE_KEY, "white")
        try:
            engine_options = Options.from_dict(raw)
        except ValueError:
            engine_options = Options()
        return cls(
            variant if variant in VARIANTS else "long",
            max(1, match_length),
            engine_options,
            hints,
            move_clock,
            side if side in BOARD_SIDES else "white",
        )


class Chats:
    """Chats by id: registered once per process, their stored rows (defaults for new games,
    language, type) cached."""

    def __init__(
        self, store: storage.Storage, limit: int = 100_000, *, max_age: float | None = None
    ) -> None:
        """``max_age``: seconds a chat's row is believed once read (None: until this process
        changes it; set it when other processes may change it too)."""
        self.store = store
        self._registered: Recent[int, bool] = Recent(limit)
        self._rows: Recent[int, storage.Chat] = Recent(limit, max_age=max_age)

    async def seen(self, chat_id: int, chat_type: str, title: str | None = None) -> None:
        if self._registered.get(chat_id) is None:
            self._rows[chat_id] = await self.store.upsert_chat(chat_id, chat_type, title=title)
            self._registered[chat_id] = True

    async def _row(self, chat_id: int) -> storage.Chat | None:
        """The chat's stored row (None: never seen), read once for its defaults, its language
        and its type alike (one read a tap at most, not one for each)."""
        row = self._rows.get(chat_id)
        if row is None:
            try:
                row = await self.store.get_chat(chat_id)
            except storage.NotFoundError:
                return None
            self._rows[chat_id] = row
        return row

    async def defaults(self, chat_id: int) -> ChatDefaults:
        """A chat's defaults for new games; a chat that never changed them (or whose stored
        options no longer parse) gets the §0.5 defaults."""
        chat = await self._row(chat_id)
        if chat is None:
            return ChatDefaults()
        return ChatDefaults.from_stored(str(chat.default_variant), chat.match_length, chat.options)

    async def save_defaults(
        self, chat_id: int, chat_type: str, defaults: ChatDefaults
    ) -> ChatDefaults:
        """Store ``defaults``. A private chat may have no row yet: one is created then."""
        await self.seen(chat_id, chat_type)
        self._rows[chat_id] = await self.store.update_chat_settings(
            chat_id,
            default_variant=defaults.variant,
            match_length=defaults.match_length,
            options=defaults.stored_options(),
        )
        return defaults

    async def set_language(self, chat_id: int, language: str) -> None:
        self._rows[chat_id] = await self.store.update_chat_settings(chat_id, language=language)

    async def language_of(self, chat_id: int) -> str | None:
        """The stored language of a group (None: never set, or never seen)."""
        chat = await self._row(chat_id)
        return None if chat is None else chat.language

    async def is_private(self, chat_id: int) -> bool:
        """Whether the stored chat is a private one (a game between people played there came
        from a link and is shown in both players' private chats)."""
        chat = await self._row(chat_id)
        return chat is not None and chat.chat_type is storage.ChatType.PRIVATE

    async def hints_on(self, chat_id: int) -> bool:
        return (await self.defaults(chat_id)).hints
