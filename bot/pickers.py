"""Which private pickers and views a group game shows, and how its turn is played — in
storage, so that every worker of a deployment knows what another one opened.

A tap of a group game can reach any worker: the one that sent the mover's picker may not be
the one that closes it when the turn ends, and the one that counted the picker's sends (two,
then the board's buttons) may not see the next tap. So this state lives in the database
(:mod:`storage.sql.pickers`), and closing a picker or a view goes to whoever takes its row.
With one process (``sole_writer``) the stored rows are also kept in memory, in step with
every write here, so a tap reads nothing and writes only what changes (the SQLite default
stays as fast as before); with several workers every read goes to the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import storage
from bot.boards import Picker
from storage.recent import Recent

#: The kinds of private message (``picker_messages.kind``).
PICKER = "picker"
VIEW = "view"

Turn = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Shown:
    """A picker or private view on someone's screen, and the turn it was shown for."""

    picker: Picker
    turn: Turn


def _shown(row: storage.PickerMessage) -> Shown:
    return Shown(Picker(row.chat_id, row.user_id, row.ephemeral_id), row.turn)


def _row(game_id: int, kind: str, shown: Shown) -> storage.PickerMessage:
    p = shown.picker
    return storage.PickerMessage(
        game_id, kind, p.receiver, p.chat_id, p.ephemeral_id, *shown.turn, datetime.min
    )


@dataclass(slots=True)
class _Known:
    """One game's stored rows, as this (sole) process last wrote or read them."""

    turn: storage.PickerTurn | None
    messages: dict[tuple[str, int], Shown]


class Pickers:
    """The stored state of the groups' pickers (see the module's doc)."""

    def __init__(self, store: storage.Storage, *, sole_writer: bool = True) -> None:
        self.store = store
        self.sole_writer = sole_writer
        self._known: Recent[int, _Known] = Recent(4096, max_age=None if sole_writer else 0)

    async def _game(self, game_id: int) -> _Known:
        known = self._known.get(game_id)
        if known is None:
            turn = await self.store.get_picker_turn(game_id)
            rows = await self.store.get_picker_messages(game_id)
            known = _Known(turn, {(r.kind, r.user_id): _shown(r) for r in rows})
            self._known[game_id] = known
        return known

    # ---- how the turn is played --------------------------------------------------------------

    async def sends(self, game_id: int, turn: Turn) -> int:
        """How often the picker of ``turn`` was sent."""
        known = await self._turn(game_id)
        return known.sends if known is not None and known.turn == turn else 0

    async def count_send(self, game_id: int, turn: Turn) -> int:
        """One more send of the picker of ``turn``: the count with this one (another
        worker's sends included)."""
        stored = await self.store.count_picker_send(game_id, turn)
        await self._set_turn(game_id, stored)
        return stored.sends

    async def on_board(self, game_id: int, turn: Turn) -> bool:
        """Whether ``turn`` is played on the shared board's buttons (a fallback)."""
        known = await self._turn(game_id)
        return known is not None and known.turn == turn and known.on_board

    async def put_on_board(self, game_id: int, turn: Turn) -> None:
        """``turn`` goes on the shared board's buttons (written once per turn)."""
        if await self.on_board(game_id, turn):
            return
        await self._set_turn(game_id, await self.store.put_turn_on_board(game_id, turn))

    async def _turn(self, game_id: int) -> storage.PickerTurn | None:
        if not self.sole_writer:
            return await self.store.get_picker_turn(game_id)
        return (await self._game(game_id)).turn

    async def _set_turn(self, game_id: int, stored: storage.PickerTurn) -> None:
        if self.sole_writer:
            (await self._game(game_id)).turn = stored

    # ---- what is on screen -------------------------------------------------------------------

    async def shown(self, game_id: int, kind: str) -> dict[int, Shown]:
        """The game's open pickers (kind PICKER) or views (VIEW), by the person seeing it."""
        if self.sole_writer:
            messages = (await self._game(game_id)).messages
            return {user: s for (k, user), s in messages.items() if k == kind}
        rows = await self.store.get_picker_messages(game_id)
        return {r.user_id: _shown(r) for r in rows if r.kind == kind}

    async def keep(
        self, game_id: int, kind: str, shown: Shown, *, tapped: bool = False
    ) -> Shown | None:
        """Remember a picker or view just sent, and return the one to close: the one of the
        same person it replaces, or — if another worker sent them a newer one meanwhile —
        ``shown`` itself. ``tapped``: the person is using ``shown`` (they tapped it), so it
        stays whichever is newer."""
        row = _row(game_id, kind, shown)
        loser = await self.store.keep_picker_message(row, newest_wins=not tapped)
        if self.sole_writer:
            messages = (await self._game(game_id)).messages
            key = (kind, shown.picker.receiver)
            if loser is None or loser.ephemeral_id != shown.picker.ephemeral_id:
                messages[key] = shown
        return None if loser is None else _shown(loser)

    async def take(self, game_id: int, kind: str, *, keep_turn: Turn | None = None) -> list[Shown]:
        """Forget the game's open pickers or views (but those of ``keep_turn``) and return
        them to close: of several workers doing this at once, each message goes to one."""
        if self.sole_writer:
            messages = (await self._game(game_id)).messages
            if not any(k == kind and s.turn != keep_turn for (k, _), s in messages.items()):
                return []  # nothing stored to take: no write
        rows = await self.store.take_picker_messages(game_id, kind, keep_turn=keep_turn)
        if self.sole_writer:
            messages = (await self._game(game_id)).messages
            for r in rows:
                messages.pop((r.kind, r.user_id), None)
        return [_shown(r) for r in rows]

    async def forget(self, game_id: int, kind: str, shown: Shown) -> None:
        """Forget one picker or view (it is gone), unless a newer one replaced it."""
        await self.store.forget_picker_message(_row(game_id, kind, shown))
        if self.sole_writer:
            messages = (await self._game(game_id)).messages
            known = messages.get((kind, shown.picker.receiver))
            if known is not None and known.picker == shown.picker:
                del messages[(kind, shown.picker.receiver)]
