"""What a board's caption says about the plays of the last action, over the real game layer
(real SQLite, the service playing the automatic parts)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import storage
from bot.presenter import ChatView, caption, event_line
from bot.presenter.common import burned_text, viewer_side
from bot.texts import t
from engine import Phase, format_steps
from gameplay import (
    Actor,
    ChatKind,
    GameService,
    Lobby,
    PickerWay,
    Place,
    PlayText,
    Roll,
    Snapshot,
    Take,
    whole_plays,
)

GROUP = Place(-100_700, 0, ChatKind.GROUP)
ANNA = Actor(31, "Анна")
BORIS = Actor(32, "Boris")


def _mover(snap: Snapshot) -> Actor:
    seat = snap.game.seat_to_act
    assert seat is not None
    return ANNA if snap.user_ids[seat] == ANNA.user_id else BORIS


async def played_games(db: Path, games_count: int) -> AsyncIterator[tuple[bool, Snapshot]]:
    """Whole group games of random legal plays: after every action, whether it was a play
    typed by the mover, and the snapshot it produced."""
    store = await storage.open_storage(db)
    try:
        await store.upsert_chat(GROUP.chat_id, storage.ChatType.SUPERGROUP, title="Нарды")
        games = GameService(store, rng=random.Random(3))
        lobby = Lobby(games)
        rng = random.Random(4)
        for _ in range(games_count):
            invitation = await lobby.invite(ANNA, GROUP, variant="long")
            snap = await lobby.accept(invitation.token, BORIS)
            while snap.game.phase is not Phase.OVER:
                who, game = _mover(snap), snap.game
                if game.phase is Phase.DOUBLE:
                    action: Roll | Take | PlayText = Take()
                elif game.phase is Phase.ROLL:
                    action = Roll()
                else:
                    action = PlayText(format_steps(rng.choice(game.turn.legal_plays).steps))
                outcome = await games.act(who, action, game_id=snap.game_id)
                assert outcome.snap is not None
                snap = outcome.snap
                yield isinstance(action, PlayText), snap
    finally:
        await store.close()


async def test_only_the_play_made_for_a_player_is_marked_automatic(tmp_path: Path) -> None:
    """A hand-made play followed by the opponent's only legal play: the caption marks the
    opponent's play as played automatically, never the one the mover just made."""
    marker, short = t("ru", "cap_forced"), t("ru", "cap_forced_short")
    checked = 0
    async for typed, snap in played_games(tmp_path / "nardy.sqlite3", 6):
        if not typed or not snap.forced:
            continue
        mine = next(e for e in snap.events if e.kind == "move")
        text = caption(snap, ChatView("ru"))
        lines = text.splitlines()
        line = event_line("ru", snap, mine, viewer_side(snap, ChatView("ru")))
        if line in lines or line + marker in lines or line + short in lines:
            assert line in lines, text  # shown, and not as played automatically
            assert any(x.endswith((marker, short)) for x in lines), text  # the reply is marked
            checked += 1
    assert checked >= 3


async def test_the_game_over_caption_shows_every_play_of_the_last_action(tmp_path: Path) -> None:
    """The last action of a game (a play, perhaps followed by forced turns) ends it: the
    final caption still shows each of those plays with its roll."""
    finals = 0
    async for _, snap in played_games(tmp_path / "nardy.sqlite3", 3):
        text = caption(snap, ChatView("ru"))
        plays = [e for e in snap.events if e.kind in ("move", "pass")]
        for event in plays:
            assert event_line("ru", snap, event, viewer_side(snap, ChatView("ru"))) in text, text
        if snap.game.phase is Phase.OVER:
            assert plays and "🏆" in text
            finals += 1
    assert finals == 3


async def test_the_picker_offers_whole_plays_only_when_it_has_them(tmp_path: Path) -> None:
    """The picker's first line of help names what its buttons offer: "or a whole play"
    (or "Step by step") only when the roll has few enough plays to list, else a checker."""
    keys = {"cap_picker": 0, "cap_picker_plays": 0, "cap_picker_steps": 0}
    async for _, snap in played_games(tmp_path / "nardy.sqlite3", 2):
        game = snap.game
        if game.phase is not Phase.MOVE or game.steps:
            continue
        mover = _mover(snap).user_id
        offered = bool(whole_plays(game))
        for way in PickerWay:
            view = ChatView("en", owner_user_id=mover, picker=True, way=way)
            if offered:
                key = "cap_picker_plays" if way is PickerWay.PLAYS else "cap_picker"
            else:
                key = "cap_picker_steps"
            lines = caption(snap, view).splitlines()
            assert t("en", key) in lines, (key, lines)
            others = set(keys) - {key}
            assert not any(t("en", other) in lines for other in others), lines
            keys[key] += 1
    assert all(keys.values()), keys


def test_unplayed_dice_of_a_double_say_how_many() -> None:
    """«6-6 — сгорело 6-6» read as if the whole roll burned: two sixes of four are «6×2»."""
    assert burned_text((6, 6)) == "6×2"
    assert burned_text((4, 4, 4)) == "4×3"
    assert burned_text((5,)) == "5"
