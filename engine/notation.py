"""Backgammon-style move notation (RULES.md §0.4): ``24/18 13/11``, ``24/18/13``, ``bar/22``,
``6/off``, ``13/10*``, ``8/2(2)``; also ``24-18``, ``бар``, ``выброс``/``off`` in any case.

Formatting writes the canonical form; parsing reads the canonical form and the common
alternatives. Parsing knows nothing about dice or positions: it returns *segments* (from, to)
that the turn builder resolves against the legal plays, so a segment like ``24/13`` may stand
for two dice played by one checker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from engine.position import BAR, OFF
from engine.rules import NotationCode, NotationError
from engine.step import Step

BAR_WORDS = frozenset({"bar", "b", "бар", "б"})
OFF_WORDS = frozenset({"off", "o", "выброс", "вых", "выбр", "оф", "0"})
MAX_STEPS = 4  # C-14: a double gives four steps, the most a turn has


@dataclass(frozen=True, slots=True)
class Segment:
    """One written move of one checker from ``src`` to ``dst`` (maybe over several dice)."""

    src: int
    dst: int
    hit: bool = False


def point_text(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def format_steps(steps: tuple[Step, ...] | list[Step]) -> str:
    """The canonical text of a play: chains of one checker joined by '/', hits marked '*',
    identical moves collapsed as ``(n)``, biggest starting point first. Empty for a pass."""
    chains: list[list[Step]] = []
    for step in steps:
        for chain in reversed(chains):
            last = chain[-1]
            if last.dst == step.src and last.dst != OFF:
                chain.append(step)
                break
        else:
            chains.append([step])
    texts: list[str] = []
    for chain in chains:
        parts = [point_text(chain[0].src)]
        for step in chain:
            parts.append(point_text(step.dst) + ("*" if step.hit else ""))
        texts.append("/".join(parts))
    order = sorted(
        range(len(chains)), key=lambda i: (-chains[i][0].src, -chains[i][-1].dst, texts[i])
    )
    counts: dict[str, int] = {}
    ordered: list[str] = []
    for i in order:
        text = texts[i]
        if text not in counts:
            ordered.append(text)
            counts[text] = 0
        counts[text] += 1
    return " ".join(t if counts[t] == 1 else f"{t}({counts[t]})" for t in ordered)


_TOKEN_SPLIT = re.compile(r"[\s,;]+")
_REPEAT = re.compile(r"^(?P<body>.+?)\((?P<n>[1-4])\)$")
_POINT = re.compile(r"^(?P<p>[^*]+)(?P<hit>\*?)$")


def _parse_point(text: str, whole: str) -> tuple[int, bool]:
    match = _POINT.match(text)
    if not match:
        raise NotationError(NotationCode.BAD_POINT, point=text, text=whole)
    word = match.group("p").strip().lower()
    hit = bool(match.group("hit"))
    if word in BAR_WORDS:
        return BAR, hit
    if word in OFF_WORDS:
        return OFF, hit
    if not word.isdigit():
        raise NotationError(NotationCode.BAD_POINT, point=text, text=whole)
    value = int(word)
    if not 1 <= value <= 24:
        raise NotationError(NotationCode.POINT_RANGE, point=value, text=whole)
    return value, hit


def parse_segments(text: str) -> list[Segment]:
    """Read a play's text into segments; raises :class:`NotationError` on bad syntax.

    An empty string (or ``pass``/``пас``) is a pass and gives no segments.
    """
    cleaned = text.strip()
    if cleaned.lower() in ("", "pass", "пас", "пропуск", "-"):
        return []
    segments: list[Segment] = []
    for token in _TOKEN_SPLIT.split(cleaned):
        if not token:
            continue
        repeat = 1
        match = _REPEAT.match(token)
        if match:
            token = match.group("body")
            repeat = int(match.group("n"))
        parts = re.split(r"[/\-–—]", token)
        if len(parts) < 2 or any(not p for p in parts):
            raise NotationError(NotationCode.NOT_FROM_TO, token=token)
        points = [_parse_point(p, text) for p in parts]
        chain: list[Segment] = []
        for (src, _), (dst, hit) in pairwise(points):
            if src == OFF:
                raise NotationError(NotationCode.FROM_OFF, token=token)
            if dst == BAR:
                raise NotationError(NotationCode.TO_BAR, token=token)
            if dst != OFF and dst >= src:
                raise NotationError(NotationCode.BACKWARDS, token=token, src=src, dst=dst)
            chain.append(Segment(src, dst, hit))
        segments.extend(chain * repeat)
    if len(segments) > MAX_STEPS:
        raise NotationError(NotationCode.TOO_MANY_STEPS, count=len(segments), limit=MAX_STEPS)
    return segments
