"""Where one picker tap's time goes: a scripted group game through private pickers, one game
on an otherwise idle bot (the real aiogram bot, its drawing process and the fake Bot API
server, in this process), each tap timed from the moment it is sent.

Usage: python benchmarks/picker_taps.py [--seed 3] [--taps 100] [--render-processes 1]

Per kind of tap (Move = open the picker, a step, a point, Done, a whole play, ...) it prints
the median and worst time to the tap's answerCallbackQuery and to the last call the tap
caused (the picker's or the board's edit, the notice), which calls those were, and how long
the drawing process took per picture. This is the intrinsic cost of a tap; bot_load.py's
picker mode measures the same taps queued behind 200 games. Figures: docs/bot.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bot.drawing  # noqa: E402
from bot.callbacks import GameCB  # noqa: E402
from tests.bot import harness  # noqa: E402
from tests.bot import test_e2e_picker as scripted  # noqa: E402
from tests.fake_telegram import FakeTelegram  # noqa: E402

#: kind of tap -> (ms to its answer, ms to the last call it caused, the calls)
Spans = dict[str, list[tuple[float, float, str]]]


def timing_taps(spans: Spans) -> None:
    """Make the scripted game's taps record their spans (the script stays as the tests use
    it)."""
    tap = harness.tap_message_and_wait

    async def timed(tg, chat, message, user, data, *, visible=True):  # type: ignore[no-untyped-def]
        mark = tg.mark()
        sent = time.monotonic() - tg._started_at
        qid = await tap(tg, chat, message, user, data, visible=visible)
        await tg.wait_idle(quiet=0.05, timeout=30)
        calls = [c for c in tg.calls(chat_id=scripted.GROUP) if c.seq >= mark]
        answer = next(
            c.time
            for c in calls
            if c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == qid
        )
        last = max(c.time for c in calls)
        kind = GameCB.unpack(data).a.name.lower()
        spans[kind].append(
            ((answer - sent) * 1000, (last - sent) * 1000, "+".join(c.method for c in calls))
        )
        return qid

    scripted.tap_message_and_wait = timed


def timing_pictures(drawn: list[float]) -> None:
    draw = bot.drawing.Painter.draw

    async def timed(self, position, options):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        image = await draw(self, position, options)
        drawn.append((time.perf_counter() - start) * 1000)
        return image

    bot.drawing.Painter.draw = timed  # type: ignore[method-assign]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--taps", type=int, default=100)
    parser.add_argument("--render-processes", default="1")
    args = parser.parse_args()
    spans: Spans = defaultdict(list)
    drawn: list[float] = []
    timing_taps(spans)
    timing_pictures(drawn)
    db = Path(tempfile.mkdtemp(prefix="nardy-taps-")) / "taps.sqlite3"
    env = {"RENDER_PROCESSES": args.render_processes}
    async with FakeTelegram(token=harness.TOKEN, clock=time.monotonic) as tg:
        world = scripted.meet(tg)
        async with harness.running_bot(tg, db, seed=11, env=env) as run:
            await scripted.start_game(world, "long")
            # A game that outlasts --taps ends the script with an AssertionError: enough.
            with contextlib.suppress(AssertionError):
                await scripted.play_out(
                    world, run, random.Random(args.seed), strict=False, max_actions=args.taps
                )
    for kind, rows in sorted(spans.items()):
        answers = [r[0] for r in rows]
        lasts = [r[1] for r in rows]
        calls = Counter(r[2] for r in rows).most_common(1)[0][0]
        print(
            f"{kind:6s} {len(rows):3d} taps: answer median {statistics.median(answers):5.1f} "
            f"max {max(answers):5.1f} ms; last call median {statistics.median(lasts):5.1f} "
            f"max {max(lasts):5.1f} ms; calls {calls}"
        )
    if drawn:
        print(
            f"pictures: {len(drawn)}, drawing process round trip median "
            f"{statistics.median(drawn):.1f} ms, max {max(drawn):.1f} ms"
        )


if __name__ == "__main__":
    asyncio.run(main())
