"""Draw the README's pictures of group play (issue #12): the group's board as everyone sees it
and the mover's private picker, from a real game.

Usage: PYTHONPATH=. python scripts/group_pictures.py [OUT_DIR]   (default docs/gallery)

The real bot (as the end-to-end tests run it) plays a few turns of a long game in a group of
the fake Bot API server; the mover then opens the picker and picks a point. Each message is
drawn as a chat client would show it: the board picture, the caption, the buttons (emoji left
out: the packaged font has none).
"""

from __future__ import annotations

import asyncio
import io
import random
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.callbacks import Act
from renderer.assets import clean_text, font
from tests.bot.harness import (
    TOKEN,
    a_group,
    active_match,
    current_board,
    game_buttons,
    live_picker,
    running_bot,
    start_group_game,
    surface,
    tap_and_wait,
    tap_message_and_wait,
)
from tests.fake_telegram import FakeTelegram, StoredMessage

WIDTH = 720
PAD = 14
TEXT = 21
BUTTON = 46


def message_card(message: StoredMessage, note: str) -> Image.Image:
    """One bot message as a client shows it: picture, caption lines, button rows."""
    assert message.photo is not None
    photo = Image.open(io.BytesIO(message.photo)).convert("RGB")
    photo = photo.resize((WIDTH, round(photo.height * WIDTH / photo.width)))
    face, small = font(TEXT), font(TEXT - 4)
    lines = [
        part
        for x in (message.caption or "").split("\n")
        for part in wrap(clean_text(x) or " ", face, WIDTH)
    ]
    rows = [[clean_text(label) or "?" for label in row] for row in message.button_labels()]
    height = (
        34 + photo.height + PAD + len(lines) * (TEXT + 8) + PAD + len(rows) * (BUTTON + 6) + PAD
    )
    card = Image.new("RGB", (WIDTH + 2 * PAD, height), (242, 244, 247))
    draw = ImageDraw.Draw(card)
    draw.text((PAD, 8), note, font=small, fill=(90, 100, 120))
    card.paste(photo, (PAD, 34))
    y = 34 + photo.height + PAD
    for line in lines:
        draw.text((PAD, y), line, font=face, fill=(25, 25, 30))
        y += TEXT + 8
    y += PAD
    for row in rows:
        width = (WIDTH - 6 * (len(row) - 1)) // len(row)
        for i, label in enumerate(row):
            x = PAD + i * (width + 6)
            draw.rounded_rectangle((x, y, x + width, y + BUTTON), radius=10, fill=(214, 226, 240))
            draw.text(
                (x + width // 2, y + BUTTON // 2), label, font=face, fill=(20, 60, 110), anchor="mm"
            )
        y += BUTTON + 6
    return card


def wrap(text: str, face: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` cut into lines no wider than ``width`` pixels, at spaces."""
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}".strip()
        if line and face.getlength(trial) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line]


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(101, "Алиса", language_code="ru")
        bob = tg.user(102, "Борис", language_code="ru")
        carol = tg.user(103, "Вера", language_code="ru")
        group = a_group(tg, -1001, "Нарды клуб", alice, bob, carol)
        players = {alice.id: alice, bob.id: bob}
        with tempfile.TemporaryDirectory() as tmp:
            async with running_bot(tg, Path(tmp) / "b.sqlite3", seed=8) as run:
                await start_group_game(tg, group, alice, bob, "long")
                rng = random.Random(2)
                turns = 0
                while turns < 6:  # a few turns in, so the board has a story
                    snap = await active_match(run.app, group.id, alice.id)
                    mover = players[snap.user_ids[snap.game.seat_to_act]]
                    where = surface(tg, group, mover)
                    acts = {cb.a: d for _, cb, d in game_buttons(where)}
                    if Act.OPEN in acts:
                        await tap_and_wait(tg, group, where.message_id, mover, acts[Act.OPEN])
                        continue
                    if Act.DONE in acts:
                        await tap_message_and_wait(tg, group, where, mover, acts[Act.DONE])
                        turns += 1
                        continue
                    steps = [d for _, cb, d in game_buttons(where) if cb.a in (Act.MOVE,)]
                    picks = [d for _, cb, d in game_buttons(where) if cb.a is Act.PICK]
                    await tap_message_and_wait(tg, group, where, mover, rng.choice(steps or picks))
                await tg.wait_idle(quiet=0.3)
                board = current_board(tg, group)
                snap = await active_match(run.app, group.id, alice.id)
                mover = players[snap.user_ids[snap.game.seat_to_act]]
                opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
                message_card(board, "Группа видит (и Вера, зритель): одна доска на ход").save(
                    out / "group-board.png"
                )
                await tap_and_wait(tg, group, board.message_id, mover, opener)
                picker = live_picker(tg, group, mover)
                assert picker is not None
                pick = next(
                    (d for _, cb, d in game_buttons(picker) if cb.a is Act.PICK),
                    None,
                )
                if pick is not None:
                    await tap_message_and_wait(tg, group, picker, mover, pick)
                    picker = live_picker(tg, group, mover)
                assert picker is not None
                note = f"Видит только {mover.first_name}: личное окно хода вместо доски"
                message_card(picker, note).save(out / "group-picker.png")
    print(f"wrote {out / 'group-board.png'} and {out / 'group-picker.png'}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/gallery")))
