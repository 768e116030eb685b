"""Handlers, one router per concern, each built by its module's ``router()`` (a new router
for every Dispatcher: aiogram attaches a router to a single parent, and tests and restarts
build more than one)."""

from __future__ import annotations

from aiogram import Router


def routers() -> list[Router]:
    """Every router, in the order updates try them: commands and buttons first, free text
    (moves, then questions about the rules) after them, and a tap nobody understood last."""
    from bot.handlers import (
        aftergame,
        clock,
        common,
        dice,
        fallback,
        inline,
        lobby,
        play,
        rules,
        settings,
        stats,
    )

    return [
        common.router(),
        inline.router(),  # before lobby and play: their buttons on inline messages
        lobby.router(),
        play.router(),
        clock.router(),
        dice.router(),
        aftergame.router(),
        stats.router(),
        settings.router(),
        rules.router(),
        fallback.router(),
    ]
