"""What a board's caption says about the plays of the last action, over the real game layer
(real SQLite, the service playing the automatic parts)."""

from __future__ import annotations

import random
from pathlib import Path

import storage
from bot.presenter import ChatView, caption, event_line
from bot.texts import t
from engine import Phase, format_steps
from gameplay import Actor, ChatKind, GameService, Lobby, Place, PlayText, Roll, Snapshot, Take

GROUP = Place(-100_700, 0, ChatKind.GROUP)
ANNA = Actor(31, "Анна")
BORIS = Actor(32, "Boris")


def _mover(snap: Snapshot) -> Actor:
    seat = snap.game.seat_to_act
    assert seat is not None
    return ANNA if snap.user_ids[seat] == ANNA.user_id else BORIS


async def test_only_the_play_made_for_a_player_is_marked_automatic(tmp_path: Path) -> None:
    """A hand-made play followed by the opponent's only legal play: the caption marks the
    opponent's play as played automatically, never the one the mover just made."""
    store = await storage.open_storage(tmp_path / "nardy.sqlite3")
    try:
        await store.upsert_chat(GROUP.chat_id, storage.ChatType.SUPERGROUP, title="Нарды")
        games = GameService(store, rng=random.Random(3))
        lobby = Lobby(games)
        rng = random.Random(4)
        marker = t("ru", "cap_forced")
        checked = 0
        for _ in range(6):  # games; forced replies come in the bear-off of nearly every one
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
                if not isinstance(action, PlayText) or not snap.forced:
                    continue
                mine = next(e for e in snap.events if e.kind == "move")
                text = caption(snap, ChatView("ru"))
                line = event_line("ru", snap, mine)
                if line in text:
                    assert line + marker not in text, text
                    assert marker in text, text  # the opponent's reply is marked
                    checked += 1
            if checked >= 3:
                break
        assert checked >= 3
    finally:
        await store.close()
