"""Replays from a game's history: one frame per turn, the last play drawn, the result at the
end, bounded size; the same bytes from the drawing process as in this one."""

from __future__ import annotations

import io

from PIL import Image

from bot.drawing import Painter
from engine.game import EventKind
from engine.record import game_turns
from renderer import history_frames, render_game_replay
from tests.matches import play_match


def _long_history(min_turns: int) -> list:
    for seed in range(50):
        _, logs = play_match("long", 1, seed)
        history = list(logs[0].history)
        if sum(e.kind is EventKind.MOVE for e in history) >= min_turns:
            return history
    raise AssertionError("no seeded long game is that long")


def test_one_frame_per_turn_with_its_play_and_the_result_last() -> None:
    _, logs = play_match("short", 1, seed=6, double_rate=0.2)
    history = list(logs[0].history)
    turns, end = game_turns(history, "short")
    moves = [t for t in turns if t.kind in (EventKind.MOVE, EventKind.PASS)]
    frames = history_frames(history, "short", names=("A", "B"))
    assert len(frames) == len(moves) + 1
    assert frames[0][1].last_play is None and frames[0][1].dice is None
    for (position, options), turn in zip(frames[1:], moves, strict=True):
        assert position == turn.after
        assert options.last_play == (turn.play.steps or None)
        assert options.last_play_side is turn.side
        assert options.dice_owner is turn.side
    assert end is not None
    last = frames[-1][1].result
    assert last is not None and last.winner is end.winner and last.points == end.points
    assert all(options.result is None for _, options in frames[:-1])
    takes = [t for t in turns if t.kind is EventKind.TAKE]
    assert frames[-1][1].cube_value == 2 ** len(takes)


def test_a_long_game_stays_small_and_every_frame_is_kept() -> None:
    history = _long_history(90)
    gif = render_game_replay(history, "long", names=("Алиса", "Bob"))
    moves = sum(e.kind in (EventKind.MOVE, EventKind.PASS) for e in history)
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF" and image.width == 640
        assert image.n_frames == moves + 1
        assert image.info["loop"] == 0
    assert len(gif) < 2_000_000  # measured ~9.5 KB a frame (docs/records.md)


async def test_the_drawing_process_draws_the_same_replay() -> None:
    _, logs = play_match("short", 1, seed=3)
    history = list(logs[0].history)
    painter = Painter(1)
    await painter.start()
    try:
        got = await painter.replay(history, "short", names=("A", "B"), width=320)
    finally:
        await painter.close()
    assert got == render_game_replay(history, "short", names=("A", "B"), width=320)
