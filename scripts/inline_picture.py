"""Draw docs/gallery/inline-game.png: an inline-mode challenge and the game in that message.

    PYTHONPATH=. python scripts/inline_picture.py [--out docs/gallery/inline-game.png]

It runs the real bot against the project's fake Bot API server (as the end-to-end tests do):
Alice types ``@bot @boris`` in her chat with Boris and posts the card; Boris accepts; a few
turns are played by the buttons. Then it draws two chat bubbles from what the fake holds —
the card as posted, and the same message a few turns later — each with its picture, caption
and buttons, so the README shows exactly what the bot sends.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw, ImageFont

from tests.bot.harness import TOKEN, running_bot, settle
from tests.bot.test_e2e_inline import drive_inline
from tests.fake_telegram import FakeTelegram, StoredMessage

FONT = Path(__file__).resolve().parent.parent / "renderer" / "assets" / "DejaVuSans-Bold.ttf"
BUBBLE = 560
PAD = 14


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


def _strip_emoji(text: str) -> str:
    """DejaVu has no colour emoji: keep the text readable without them."""
    return "".join(ch for ch in text if ord(ch) < 0x2190 or 0x2190 <= ord(ch) <= 0x21FF)


def bubble(header: str, photo: bytes | None, caption: str, rows: list[list[str]]) -> Image.Image:
    """One message as a chat shows it: sender line, picture, caption, inline buttons."""
    small, text_font = _font(15), _font(16)
    picture = None
    if photo is not None:
        picture = Image.open(io.BytesIO(photo)).convert("RGB")
        width = BUBBLE - 2 * PAD
        picture = picture.resize((width, picture.height * width // picture.width))
    lines: list[str] = []
    for line in _strip_emoji(caption).split("\n"):
        lines.extend(textwrap.wrap(line.strip(), 58) or [""])
    height = PAD + 22 + (picture.height + 10 if picture else 0) + 21 * len(lines) + PAD
    height += 44 * len(rows) + 10
    image = Image.new("RGB", (BUBBLE, height), "#ffffff")
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), header, fill="#2f7fc1", font=small)
    y = PAD + 24
    if picture is not None:
        image.paste(picture, (PAD, y))
        y += picture.height + 10
    for line in lines:
        draw.text((PAD, y), line, fill="#1b1b1b", font=text_font)
        y += 21
    y += PAD
    for row in rows:
        width = (BUBBLE - 2 * PAD - 6 * (len(row) - 1)) // max(1, len(row))
        for i, label in enumerate(row):
            x = PAD + i * (width + 6)
            draw.rounded_rectangle((x, y, x + width, y + 36), 8, fill="#e9f1f8")
            shown = _strip_emoji(label).strip() or label
            box = draw.textbbox((0, 0), shown, font=small)
            draw.text(
                (x + (width - (box[2] - box[0])) // 2, y + 9), shown, fill="#2f7fc1", font=small
            )
        y += 44
    return image


def snapshot(message: StoredMessage) -> tuple[bytes | None, str, list[list[str]]]:
    return message.photo, message.caption or message.text or "", message.button_labels()


async def play(workdir: Path) -> tuple[tuple, tuple]:
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(501, "Alice", username="alice_k", language_code="en")
        boris = tg.user(502, "Boris", username="boris_n", language_code="en")
        for person in (alice, boris):
            tg.private_chat(person)
        friends = tg.users_chat(alice, boris)
        async with running_bot(tg, workdir / "picture.sqlite3") as run:
            query_id = await tg.inline_query(alice, "@boris_n long", chat=friends)
            await settle(tg)
            card = await tg.choose_inline_result(query_id, "c.long.1.d")
            await settle(tg)
            posted = snapshot(card)
            assert card.inline_message_id is not None
            await tg.tap_inline(card.inline_message_id, boris, label="✅ Accept")
            await settle(tg)
            players = {alice.id: alice, boris.id: boris}
            rng = random.Random(8)
            await drive_inline(tg, run.app, card, players, rng, actions=9, finish=False)
            return posted, snapshot(card)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/gallery/inline-game.png")
    out = Path(parser.parse_args().out)
    with tempfile.TemporaryDirectory() as workdir:
        posted, later = asyncio.run(play(Path(workdir)))
    left = bubble("Alice via @nardy_bot", *posted)
    right = bubble("Alice via @nardy_bot · a few turns later", *later)
    canvas = Image.new("RGB", (2 * BUBBLE + 3 * 20, max(left.height, right.height) + 40), "#cfe3c8")
    canvas.paste(left, (20, 20))
    canvas.paste(right, (BUBBLE + 40, 20))
    out.parent.mkdir(parents=True, exist_ok=True)
    canvas.save(out, optimize=True)
    print(f"{out}: {canvas.width}x{canvas.height}, {out.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
