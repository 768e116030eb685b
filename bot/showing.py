"""Showing games in chats: a snapshot becomes boards and notices in every chat that shows it.

A game is shown in one message per chat: the group's, or each player's private chat. A turn
edits those messages in place. Edits do not notify anybody, so when the turn passes to a
person who did not just act, one short notice ("your move") is sent to them and the previous
notice of that game in that chat is deleted: at most one new message per turn, and the chat
keeps one board and at most one notice per game.

In a group (or forum topic) the shared board changes once per turn: the mover plays in a
private picker, an ephemeral message Telegram shows to them only, in place of the board
(:meth:`Shows.open_picker`); its taps edit the picker, and only the committed play edits the
shared board. The partly played turn is stored with the game, not in the picker, so a picker
that never arrives, expires or is refused costs nothing: the mover taps the board again and
gets a new one, and after that (or when Telegram refuses it) the turn falls back to the
buttons on the shared board, as before pickers. Which pickers and private views are open,
how often this turn's picker was sent and whether the turn fell back are stored
(:class:`bot.pickers.Pickers`), so any worker of a deployment closes what another opened, and
a restart loses none of it; a picker's buttons name the game and its version, so a tap in it
plays on whichever worker it reaches.

A game accepted from an inline-mode card is shown in that message (:mod:`bot.inline_boards`)
and nowhere else. If the bot can no longer edit it (deleted, too old), the game goes on in both
players' private chats, and they are told so once.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.boards import Board, Boards, ChatGone, Picker, PickerFailed, Target
from bot.callbacks import RULES_MENU_APART, RulesCB
from bot.inline_boards import InlineBoards, InlineLost
from bot.languages import Languages
from bot.outbox import Outbox
from bot.pickers import PICKER, VIEW, Pickers, Shown
from bot.presenter import ChatView, board_picture, board_view, mention, short_name
from bot.presenter.common import MAX_PLAYS
from bot.texts import h, t
from engine import Event, Phase, Side
from gameplay import GameService, PickerWay, Refused, Snapshot, turn_key
from storage.recent import Recent

log = logging.getLogger(__name__)


#: A picker is sent at most this many times in one turn; then the turn's buttons go on the
#: shared board (the mover tapping the board again means the picker did not reach them).
PICKER_SENDS = 2
#: The shared group board is drawn from this side all game unless the chat chose the other
#: one in /settings (issue #18 item 10).
PUBLIC_SIDE = Side.WHITE


def turn_of(snap: Snapshot) -> tuple[int, int]:
    """Which turn of its match the game is at (a picker and a fallback are per turn)."""
    return turn_key(snap.match.game_number, snap.game)


def turn_goes_on(snap: Snapshot, turn_before: tuple[int, int]) -> bool:
    """Whether the mover is still entering the turn they were in (``turn_of`` before a tap)."""
    return snap.active and snap.game.phase is Phase.MOVE and turn_of(snap) == turn_before


#: More versions than one game of a match reaches (a save is one; a game has a few hundred).
GAME_VERSIONS = 1 << 20


def inline_version(snap: Snapshot) -> int:
    """The version an edit of an inline message names for "newest wins" (``Outbox.ticket``):
    the games of a match follow one another in that one message, and each next game is a new
    stored game whose versions start again from 1, so the game's number in its match orders
    first — else every edit of the second game would lose to the first game's last one."""
    return snap.match.game_number * GAME_VERSIONS + snap.version


class Shows:
    """Publishes snapshots of games (through :class:`~bot.boards.Boards`)."""

    def __init__(
        self,
        boards: Boards,
        games: GameService,
        langs: Languages,
        inline: InlineBoards | None = None,
        *,
        pickers: bool = True,
        registry: Pickers | None = None,
    ) -> None:
        self.boards = boards
        self.games = games
        self.langs = langs
        self.inline = inline or InlineBoards(boards.bot, boards.outbox, boards.painter)
        #: Whether groups play through private pickers (off: the buttons on the shared board).
        self.pickers = pickers
        #: The open pickers and views, sends and fallbacks of each turn (stored, shared).
        self.registry = registry or Pickers(boards.store, sole_writer=boards.sole_writer)
        # Views this process is sending now (a second tap meanwhile sends none): a shortcut
        # only; two workers sending one person a view close the older (Pickers.keep).
        self._viewing: set[tuple[int, int, tuple[int, int]]] = set()
        # The plays last made for a person of each game (their only legal ones), by the game
        # of its match and their places in its history: the action that made them knows
        # them, a board drawn later from the stored game (the mover's picker, a view, the
        # board again) marks them the same way while the caption shows them.
        self._forced: Recent[int, tuple[int, tuple[tuple[int, Event], ...]]] = Recent(4096)
        # Next games of matches whose first board this process is sending now: a stale tap
        # on the finished game meanwhile (show_stored) finds no board of theirs yet, and
        # must not send a second one.
        self._starting: set[int] = set()

    @property
    def outbox(self) -> Outbox:
        """The publishing outbox, for the handlers' own messages."""
        return self.boards.outbox

    def initial_targets(self, snap: Snapshot) -> list[Target]:
        """Where a new game is shown: its group, or each human player's private chat."""
        row = snap.row
        if row.inline_message_id is not None:
            return [Target(0, inline_id=row.inline_message_id)]
        if not Target(row.chat_id).private:
            return [Target(row.chat_id, row.thread_id)]
        return [Target(uid) for uid in snap.user_ids.values() if uid is not None]

    async def public(self, snap: Snapshot, target: Target) -> bool:
        """Whether ``target`` shows the shared board of a picker game: a group's, when
        pickers are on and this turn did not fall back to buttons on the board."""
        if target.private or target.inline_id is not None or not self.pickers:
            return False
        return not await self.registry.on_board(snap.game_id, turn_of(snap))

    def _with_forced(self, snap: Snapshot) -> Snapshot:
        """``snap`` with the plays made automatically for a person marked as its action had
        them (see ``_forced``): remembered from the action's snapshot, given to a loaded one."""
        history, number = snap.game.history, snap.match.game_number
        known = self._forced.get(snap.game_id)
        marked: list[tuple[int, Event]] = []
        if known is not None and known[0] == number:
            marked = [(i, e) for i, e in known[1] if i < len(history) and history[i] == e]
        if snap.forced_plays:
            merged = dict(marked)
            merged.update((i, e) for i, e in enumerate(history) if e in snap.forced_plays)
            marked = sorted(merged.items())[-MAX_PLAYS:]
            self._forced[snap.game_id] = (number, tuple(marked))
        forced = [*snap.forced_plays, *(e for _, e in marked if e not in snap.forced_plays)]
        if len(forced) == len(snap.forced_plays):
            return snap
        return dataclasses.replace(snap, forced_plays=forced)

    async def board(self, snap: Snapshot, target: Target, pick: int | None = None) -> Board:
        """The board ``target`` sees: its language, its owner's side and buttons (an inline
        message speaks the language of the challenge's sender, whose card it was)."""
        snap = self._with_forced(snap)
        inline = target.inline_id is not None
        lang = await self.langs.of_chat(snap.row.chat_id if inline else target.chat_id)
        if await self.public(snap, target):
            view = ChatView(lang=lang, public=True, side=await self.public_side(target.chat_id))
        elif target.private:
            way = await self.games.players.picker_way(target.chat_id)
            view = ChatView(lang=lang, owner_user_id=target.chat_id, pick=pick, way=way)
        else:  # a group's (or an inline message's) board with the mover's buttons on it
            seat = snap.game.seat_to_act
            mover = snap.user_ids.get(seat) if seat is not None else None
            way = await self.games.players.picker_way(mover) if mover else PickerWay.STEPS
            view = ChatView(lang=lang, pick=pick, way=way, inline=inline)
        bv = board_view(snap, view)
        return Board(bv.caption, bv.keyboard, bv.position, bv.options)

    async def public_side(self, chat_id: int) -> Side:
        """Whose side a group's shared board is drawn from: the chat's setting (/settings),
        White unless an administrator chose Black — the same for every turn."""
        chosen = (await self.games.chats.defaults(chat_id)).board_side
        return Side.BLACK if chosen == "black" else PUBLIC_SIDE

    async def picker_board(self, snap: Snapshot, user_id: int, pick: int | None = None) -> Board:
        """The mover's picker: their language, side and numbering, the steps so far."""
        snap = self._with_forced(snap)
        bv = board_view(snap, await self._picker_view(user_id, pick))
        return Board(bv.caption, bv.keyboard, bv.position, bv.options)

    async def _picker_view(self, user_id: int, pick: int | None) -> ChatView:
        lang = await self.langs.of_chat(user_id)
        way = await self.games.players.picker_way(user_id)
        return ChatView(lang=lang, owner_user_id=user_id, pick=pick, picker=True, way=way)

    async def draw_picker_soon(self, snap: Snapshot, user_id: int) -> None:
        """Start drawing the picture the mover's picker will show for ``snap`` (a step not
        saved yet): it is drawn while the step is saved, and the edit that follows the save
        finds it drawn. Only the picture: its caption and buttons name the saved version."""
        position, options = board_picture(
            self._with_forced(snap), await self._picker_view(user_id, None)
        )
        self.boards.draw_soon(Board("", None, position, options))

    # ---- publish ----------------------------------------------------------------------------

    async def show_new(self, snap: Snapshot, targets: list[Target] | None = None) -> None:
        """Send the first board of a game to its chats."""
        for target in targets or self.initial_targets(snap):
            await self._send(snap, target)

    async def update(
        self, snap: Snapshot, *, actor_user_id: int | None, tapped: Picker | None = None
    ) -> None:
        """Edit every board of the game to show ``snap``, start the next game of a match,
        and tell the person who must act now (``tapped``: the picker whose tap this was,
        closed with the turn's others)."""
        nxt = snap.next_game
        if nxt is None:
            await self._update(snap, actor_user_id=actor_user_id, tapped=tapped)
            return
        # Claimed before the finish's boards are edited (drawing them can take a while): a
        # stale tap meanwhile finds the next game stored without a board, and must leave its
        # first board to this update (see _starting).
        self._starting.add(nxt.game_id)
        try:
            await self._update(snap, actor_user_id=actor_user_id, tapped=tapped)
        finally:
            self._starting.discard(nxt.game_id)

    async def _update(
        self, snap: Snapshot, *, actor_user_id: int | None, tapped: Picker | None
    ) -> None:
        """The body of update, with the match's next game (if any) claimed by the caller."""
        await self.boards.shown(snap.game_id, snap.version)  # older notices are now stale
        targets = await self.boards.targets(snap.game_id)
        boards = [await self.board(snap, target) for target, _ in targets]
        for board in boards:  # drawn while the pickers and views close, not after
            self.boards.draw_soon(board)
        await self._close_stale_picker(snap, tapped)
        await self._close_views(snap)
        for (target, message_id), board in zip(targets, boards, strict=True):
            try:
                await self.boards.edit(
                    snap.game_id, target, message_id, board, version=snap.version
                )
            except ChatGone as gone:
                await self.blocked(snap, gone.target)
        inline = await self.inline_target(snap)
        if inline is not None:
            await self._send(snap, inline)
        if snap.next_game is not None:
            shown = [t for t, _ in targets] + ([inline] if inline is not None else [])
            await self._send_first(snap.next_game, shown)
            return
        await self.notify(snap, actor_user_id=actor_user_id)
        await self._prepare_picker(snap, [t for t, _ in targets])

    async def _prepare_picker(self, snap: Snapshot, targets: list[Target]) -> None:
        """The next mover of a picker game will open their picker: draw its picture while
        they think, so their tap only sends it (the picture of a picker is the slow part)."""
        game = snap.game
        seat = game.seat_to_act
        if not snap.active or game.phase is not Phase.MOVE or seat is None:
            return
        uid = snap.user_ids.get(seat)
        if uid is None or seat == snap.ai_seat:
            return
        for target in targets:
            if await self.public(snap, target):
                self.boards.prepare(await self.picker_board(snap, uid))
                return

    async def show_stored(self, game_id: int) -> None:
        """Edit every board of the game to its stored state (after a redelivered update that
        had been saved: the worker that saved it may not have shown it), and the turn's open
        pickers too (a step saved by a worker that died before editing the picker would
        leave it offering the old steps, each answered "outdated"); pickers and views of
        an older turn close. No notice is sent from here, so a redelivery never doubles a
        message. A game of a match that finished is followed by its next game (stored with the
        finish): its first board is sent where this game's are, unless it has one already —
        the worker that saved the finish may have died before sending it."""
        try:
            snap = await self.games.load(game_id, fresh=True)
        except Refused:
            return
        await self.boards.shown(snap.game_id, snap.version)
        await self._close_stale_picker(snap)
        await self._show_as_stored(snap)

    async def _show_as_stored(self, snap: Snapshot) -> None:
        """Edit the game's boards to ``snap``, freshly loaded, and send the first board of
        the match's next game, stored with its finish, if it has none (see show_stored)."""
        snap.next_game = await self.games.next_in_match(snap)
        await self._show_boards(snap)
        await self._show_unshown_next(snap)

    async def show_unshown_next(self, game_id: int) -> None:
        """One process, a tap on a game found over: the first board of the match's next game
        if it has none (showing the finish failed after it was saved), and nothing else: the
        finish's boards are this process's own, edited by the saving tap (drawing them again
        from the stored game would show the same)."""
        try:
            snap = await self.games.load(game_id, fresh=True)
        except Refused:
            return
        snap.next_game = await self.games.next_in_match(snap)
        await self._show_unshown_next(snap)

    async def _show_unshown_next(self, snap: Snapshot) -> None:
        """Send ``snap.next_game``'s first board where ``snap``'s are, unless it has one or
        is being sent by this process."""
        nxt = snap.next_game
        if nxt is None or nxt.game_id in self._starting:
            return
        self._starting.add(nxt.game_id)  # before the first await: one sender in this process
        try:
            if await self.boards.targets(nxt.game_id):
                return
            inline = await self.inline_target(snap)
            shown = [t for t, _ in await self.boards.targets(snap.game_id)]
            await self._send_first(nxt, shown + ([inline] if inline is not None else []))
        finally:
            self._starting.discard(nxt.game_id)

    async def _send_first(self, nxt: Snapshot, shown: list[Target]) -> None:
        """The first board of a match's next game where the finished game's are (``shown``;
        none: where a new game goes). An inline message is edited whoever asks (the newest
        edit wins); a new message is sent by one worker, the one that claims it in storage:
        several may show the finished game at once (the one that saved it, another one
        answering a stale tap or a redelivery)."""
        targets = shown or self.initial_targets(nxt)
        if any(t.inline_id is None for t in targets) and not await self.games.claim_first_board(
            nxt.game_id
        ):
            targets = [t for t in targets if t.inline_id is not None]
        if targets:
            await self.show_new(nxt, targets)

    async def _show_boards(self, snap: Snapshot) -> None:
        """Edit every board message of the game to ``snap``, its inline message included
        (nothing else)."""
        for target, message_id in await self.boards.targets(snap.game_id):
            try:
                await self.boards.edit(
                    snap.game_id,
                    target,
                    message_id,
                    await self.board(snap, target),
                    version=snap.version,
                )
            except ChatGone as gone:
                await self.blocked(snap, gone.target)
        inline = await self.inline_target(snap)
        if inline is not None:
            await self._send(snap, inline)

    async def pick(
        self, snap: Snapshot, target: Target, message_id: int, point: int | None
    ) -> None:
        """Show the destinations of a tapped point (or go back) on one board: the picture
        marks the chosen checker and where it can go (issue #18 item 11)."""
        board = await self.board(snap, target, point)
        if target.inline_id is not None:
            await self._edit_inline(snap, target.inline_id, board, picture=False)
            return
        try:
            await self.boards.edit(snap.game_id, target, message_id, board, version=snap.version)
        except ChatGone as gone:
            await self.blocked(snap, gone.target)

    async def refresh(self, snap: Snapshot) -> None:
        """Edit every board's caption and buttons, not its picture (the position is the
        same): the move clock ran out, or the game ended without a move."""
        await self.boards.shown(snap.game_id, snap.version)
        await self._close_stale_picker(snap)
        await self._close_views(snap)
        for target, message_id in await self.boards.targets(snap.game_id):
            try:
                board = await self.board(snap, target)
                await self.boards.edit(
                    snap.game_id, target, message_id, board, picture=False, version=snap.version
                )
            except ChatGone as gone:
                await self.blocked(snap, gone.target)
        inline = await self.inline_target(snap)
        if inline is not None and inline.inline_id is not None:
            board = await self.board(snap, inline)
            await self._edit_inline(snap, inline.inline_id, board, picture=False)

    async def resend(self, snap: Snapshot, target: Target) -> None:
        """/board: a fresh board message in this chat (the old one is forgotten)."""
        await self._send(snap, target)

    async def _send(self, snap: Snapshot, target: Target) -> None:
        if target.inline_id is not None:  # an inline message can only be edited
            if await self.games.inline_lost(target.inline_id):
                await self.inline_gone(snap)
                return
            board = await self.board(snap, target)
            await self._edit_inline(snap, target.inline_id, board, picture=True)
            return
        try:
            await self.boards.send(snap.game_id, target, await self.board(snap, target))
        except ChatGone as gone:
            await self.blocked(snap, gone.target)

    # ---- inline messages ----------------------------------------------------------------

    async def inline_target(self, snap: Snapshot) -> Target | None:
        """The game's inline message, while the bot can still edit it."""
        inline_id = snap.row.inline_message_id
        if inline_id is None or await self.games.inline_lost(inline_id):
            return None
        return Target(0, inline_id=inline_id)

    async def _edit_inline(
        self, snap: Snapshot, inline_id: str, board: Board, *, picture: bool
    ) -> None:
        # The player to move first: the one most likely to have just used the bot's chat.
        seat = snap.game.seat_to_act
        people = [uid for uid in snap.user_ids.values() if uid is not None]
        mover = snap.user_ids.get(seat) if seat is not None else None
        uploaders = sorted(people, key=lambda uid: uid != mover)
        try:
            await self.inline.edit(
                inline_id, board, uploaders, picture=picture, version=inline_version(snap)
            )
        except InlineLost:
            await self.inline_gone(snap)

    async def inline_gone(self, snap: Snapshot) -> None:
        """The inline message can no longer be edited: go on in both players' private chats,
        telling them so the first time this is noticed."""
        inline_id = snap.row.inline_message_id
        if inline_id is None:
            return
        first = await self.games.lose_inline(inline_id)
        log.info("inline message of game %s is gone; going on in private", snap.game_id)
        shown = {t.chat_id for t, _ in await self.boards.targets(snap.game_id)}
        for uid in snap.user_ids.values():
            if uid is None or uid in shown:
                continue
            if first:
                lang = await self.langs.of_chat(uid)
                await self.boards.tell(uid, t(lang, "inline_lost"))
            await self._send(snap, Target(uid))

    async def board_message(self, snap: Snapshot, chat_id: int) -> int | None:
        return await self.boards.board_in(snap.game_id, chat_id)

    # ---- notices ------------------------------------------------------------------------

    async def notify(self, snap: Snapshot, *, actor_user_id: int | None) -> None:
        """Tell the person who must act now, unless they just acted (see module doc)."""
        seat = snap.game.seat_to_act
        if seat is None or snap.ai_seat is not None:
            return
        uid = snap.user_ids.get(seat)
        if uid is None or uid == actor_user_id:
            return
        await self.tell_player(
            snap,
            uid,
            lambda lang, _: (t(lang, "notify_turn", name=mention(snap, seat)), None),
            inline_private=False,  # the inline message itself shows whose turn it is
        )

    async def tell_player(
        self,
        snap: Snapshot,
        user_id: int,
        words: Callable[[str, Target], tuple[str, InlineKeyboardMarkup | None]],
        *,
        inline_private: bool = True,
    ) -> None:
        """A notice for one player under the game's board, replacing the game's previous
        notice there: in the group (the text mentions them) or in their own private chat.
        ``words(lang, target)`` gives the text and buttons in that chat's language.

        A game in an inline message has no board in a chat where the bot may post: with
        ``inline_private`` the player is told in their private chat with the bot instead (if
        they started it) — a move clock's reminder or timeout."""
        targets: list[tuple[Target, int | None]] = list(await self.boards.targets(snap.game_id))
        if (
            inline_private
            and snap.row.inline_message_id is not None
            and all(t.chat_id != user_id for t, _ in targets)
        ):
            targets.append((Target(user_id), None))
        for target, board_id in targets:
            if target.private and target.chat_id != user_id:
                continue
            lang = await self.langs.of_chat(target.chat_id)
            text, markup = words(lang, target)
            try:
                await self.boards.notice(
                    snap.game_id, snap.version, target, text, board_id, reply_markup=markup
                )
            except ChatGone as gone:
                if board_id is None:  # the inline game's player never started the bot
                    log.info("cannot tell player %s of game %s", user_id, snap.game_id)
                    continue
                await self.blocked(snap, gone.target)

    # ---- private pickers (groups) -----------------------------------------------------------

    async def picker_note(self, snap: Snapshot) -> str | None:
        """What to answer the mover's tap that opens their picker, known before it is sent
        (the tap is answered first, and the picker drawn and sent after): the catalog key,
        or None for nothing to say."""
        sends = await self.registry.sends(snap.game_id, turn_of(snap))
        if sends >= PICKER_SENDS:
            return "picker_fallback"
        return "picker_again" if sends else None

    async def open_picker(
        self, snap: Snapshot, target: Target, user_id: int, query_id: str | None
    ) -> None:
        """The mover tapped the shared board (or rolled on it): show their picker in its
        place, again if they tap once more (it may not have arrived); after that, or when
        Telegram refuses it, the turn's buttons go on the shared board — which is what the
        mover then sees, as the tap was answered before (:meth:`picker_note`)."""
        turn = turn_of(snap)
        # Counted in storage: two sends a turn in all, whichever workers the taps reached.
        sends = await self.registry.count_send(snap.game_id, turn)
        if sends > PICKER_SENDS:
            await self.fall_back(snap, target)
            return
        board = await self.picker_board(snap, user_id)
        try:
            picker = await self.boards.send_picker(
                snap.game_id, target, user_id, board, query_id=query_id, replace=True
            )
        except PickerFailed:
            await self.fall_back(snap, target)
            return
        # Another picker of theirs (an older one, or one another worker sent meanwhile):
        # the newer stays, the other closes — this one, if it lost.
        old = await self.registry.keep(snap.game_id, PICKER, Shown(picker, turn))
        if old is not None:
            await self.boards.close_picker(old.picker)

    async def fall_back(self, snap: Snapshot, target: Target) -> None:
        """Play this turn with the buttons on the shared board (as before pickers)."""
        log.info("game %s: turn %s falls back to the board's buttons", snap.game_id, turn_of(snap))
        await self.use_board_buttons(snap.game_id, turn_of(snap))
        message_id = await self.boards.board_in(snap.game_id, target.chat_id)
        if message_id is None:
            await self._send(snap, target)
            return
        try:
            board = await self.board(snap, target)
            await self.boards.edit(snap.game_id, target, message_id, board, version=snap.version)
        except ChatGone as gone:
            await self.blocked(snap, gone.target)

    async def use_board_buttons(self, game_id: int, turn: tuple[int, int]) -> None:
        """``turn`` is played on the shared board's own buttons (a fallback, or a board from
        before pickers whose buttons the mover is using)."""
        await self.registry.put_on_board(game_id, turn)

    async def picker_tapped(
        self,
        snap: Snapshot,
        picker: Picker,
        target: Target,
        turn_before: tuple[int, int],
        *,
        query_id: str | None,
        pick: int | None = None,
    ) -> None:
        """A tap in a picker was played (or a point picked): while the turn goes on the
        picker shows it (the selected point and its destinations drawn); when the turn is
        over the picker closes and the shared board shows the play, once."""
        turn = turn_of(snap)
        await self.boards.shown(snap.game_id, snap.version)  # the mover started: notices are stale
        going_on = turn_goes_on(snap, turn_before)
        if going_on and await self.registry.on_board(snap.game_id, turn):
            # Meanwhile the turn fell back to the board's buttons (a third tap on Move, on
            # another worker): the step is shown there, and this picker closes.
            await self.registry.forget(snap.game_id, PICKER, Shown(picker, turn))
            await self.boards.close_picker(picker)
            await self._show_boards(snap)
            return
        if going_on:
            board = await self.picker_board(snap, picker.receiver, pick)
            try:
                await self.boards.edit_picker(snap.game_id, picker, board, version=snap.version)
            except PickerFailed as failed:  # expired or deleted under the mover's finger
                log.info(
                    "picker of game %s not edited (%s); sending a new one", snap.game_id, failed
                )
                try:
                    picker = await self.boards.send_picker(
                        snap.game_id,
                        target,
                        picker.receiver,
                        board,
                        query_id=query_id,
                        replace=False,
                    )
                except PickerFailed:
                    await self.registry.forget(snap.game_id, PICKER, Shown(picker, turn))
                    await self.fall_back(snap, target)
                    return
            shown = Shown(picker, turn)
            if (await self.registry.shown(snap.game_id, PICKER)).get(picker.receiver) != shown:
                # Re-sent, or another picker of theirs is stored (two were sent): the one
                # they use stays, the other closes.
                old = await self.registry.keep(snap.game_id, PICKER, shown, tapped=True)
                if old is not None:
                    await self.boards.close_picker(old.picker)
            return
        # The turn is over: the picker closes (stored or not), then the board shows the play.
        await self.update(snap, actor_user_id=picker.receiver, tapped=picker)

    async def refresh_picker(self, game_id: int, picker: Picker) -> None:
        """A tap in ``picker`` was outdated: the picker shows an older state than the stored
        game (a step saved by a worker that died before editing it, or played from another
        picker of the same turn). It is brought up to date, and stays the mover's picker; one
        of a turn that is over, or that fell back to the board's buttons, closes, and the
        boards are shown as stored."""
        try:
            snap = await self.games.load(game_id, fresh=True)
        except Refused:
            return
        game, turn = snap.game, turn_of(snap)
        seat = game.seat_to_act
        mover = snap.user_ids.get(seat) if seat is not None else None
        if (
            not snap.active
            or game.phase is not Phase.MOVE
            or mover != picker.receiver
            or await self.registry.on_board(game_id, turn)
        ):
            await self.registry.forget(game_id, PICKER, Shown(picker, turn))
            await self.boards.close_picker(picker)
            # What the mover sees now is the shared board: it shows the stored game (the turn
            # going on on its buttons, or the turn after this picker's — whose worker may
            # have died between saving it and editing the board; or the game's end, and the
            # match's next game then).
            await self._show_as_stored(snap)
            return
        try:
            board = await self.picker_board(snap, mover)
            await self.boards.edit_picker(game_id, picker, board, version=snap.version)
        except PickerFailed:
            return
        old = await self.registry.keep(game_id, PICKER, Shown(picker, turn), tapped=True)
        if old is not None:
            await self.boards.close_picker(old.picker)

    async def _close_stale_picker(self, snap: Snapshot, tapped: Picker | None = None) -> None:
        """Pickers of a turn that is over (played, a timeout, a resignation) close — each
        by the worker that takes its stored row, and ``tapped`` (the picker whose tap ended
        the turn) in any case; one of this turn shows what changed (a step typed with
        /move)."""
        turn = turn_of(snap)
        keep = snap.active and not await self.registry.on_board(snap.game_id, turn)
        stale = await self.registry.take(snap.game_id, PICKER, keep_turn=turn if keep else None)
        closing = [s.picker for s in stale]
        if tapped is not None and tapped not in closing:
            closing.append(tapped)
        for picker in closing:
            await self.boards.close_picker(picker)
        if not keep:
            return
        for shown in (await self.registry.shown(snap.game_id, PICKER)).values():
            if shown.picker == tapped:
                continue
            board = await self.picker_board(snap, shown.picker.receiver)
            try:
                await self.boards.edit_picker(
                    snap.game_id, shown.picker, board, version=snap.version
                )
            except PickerFailed:
                await self.registry.forget(snap.game_id, PICKER, shown)

    # ---- private views of those not moving (groups) ------------------------------------------

    async def show_view(
        self, snap: Snapshot, target: Target, user_id: int, query_id: str | None
    ) -> None:
        """Someone not moving tapped the shared board: show them, privately, the board as the
        turn started (never the mover's half-made play) — the waiting player from their own
        side, a spectator from the mover's — with the rules one tap away. One view a person
        a turn (another tap only gets its short answer); it closes when the turn moves on.
        Nothing here changes the game; a view Telegram will not show is simply not shown."""
        seat = snap.seat_of_user(user_id)
        mover = snap.game.seat_to_act
        if mover is None:
            return
        turn = turn_of(snap)
        shown = (await self.registry.shown(snap.game_id, VIEW)).get(user_id)
        if shown is not None and shown.turn == turn:
            return
        sending = (snap.game_id, user_id, turn)
        if sending in self._viewing:  # tapped again before the first one was sent
            return
        self._viewing.add(sending)
        try:
            await self._send_view(snap, target, user_id, query_id, seat, mover, shown)
        finally:
            self._viewing.discard(sending)

    async def _send_view(
        self,
        snap: Snapshot,
        target: Target,
        user_id: int,
        query_id: str | None,
        seat: int | None,
        mover: int,
        shown: Shown | None,
    ) -> None:
        turn = turn_of(snap)
        snap = self._with_forced(snap)
        lang = await self.langs.of_chat(user_id)
        side = snap.game.side_of(seat if seat is not None else mover)
        bv = board_view(snap, ChatView(lang=lang, public=True, side=side))
        name = h(short_name(snap.names.get(mover, "?")))
        key = "view_waiting" if seat is not None else "view_spectator"
        caption = f"{bv.caption}\n\n{t(lang, key, name=name)}"
        rules = InlineKeyboardButton(
            text=t(lang, "btn_view_rules"),
            callback_data=RulesCB(view="menu", key=RULES_MENU_APART, game=snap.game_id).pack(),
        )
        board = Board(
            caption, InlineKeyboardMarkup(inline_keyboard=[[rules]]), bv.position, bv.options
        )
        try:
            view = await self.boards.send_picker(
                snap.game_id, target, user_id, board, query_id=query_id, replace=False
            )
        except PickerFailed:
            return
        old = await self.registry.keep(snap.game_id, VIEW, Shown(view, turn))
        if old is not None:  # the last turn's, or one another worker sent at once
            await self.boards.close_picker(old.picker)

    async def _close_views(self, snap: Snapshot) -> None:
        """The game changed: the private views of its previous state would be outdated."""
        for shown in await self.registry.take(snap.game_id, VIEW):
            await self.boards.close_picker(shown.picker)

    # ---- a chat that is gone -----------------------------------------------------------------

    async def blocked(self, snap: Snapshot, target: Target) -> None:
        """The bot was blocked or removed: stop the game cleanly and tell the other player."""
        log.info("chat %s is gone; stopping game %s", target.chat_id, snap.game_id)
        await self.games.abandon(snap.game_id)
        if not target.private:
            return
        who = snap.seat_of_user(target.chat_id)
        name = short_name(snap.names[who]) if who is not None else "?"
        for uid in snap.user_ids.values():
            if uid is None or uid == target.chat_id:
                continue
            lang = await self.langs.of_chat(uid)
            await self.boards.tell(uid, t(lang, "paused_blocked", name=h(name)))
