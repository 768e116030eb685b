"""The rooms of the bot keep to their floors: read each module's imports (no running)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PUBLISHING = ("bot/boards.py", "bot/outbox.py", "bot/drawing.py", "bot/pickers.py")
ABOVE_PUBLISHING = ("gameplay", "bot.handlers", "bot.showing", "bot.presenter", "bot.middlewares")


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_publishing_imports_nothing_above_it() -> None:
    for rel in PUBLISHING:
        bad = {
            name
            for name in imported(ROOT / rel)
            if any(name == up or name.startswith(up + ".") for up in ABOVE_PUBLISHING)
        }
        assert not bad, f"{rel} imports {sorted(bad)}"


def test_handlers_and_presentation_never_touch_storage() -> None:
    """Handlers call the game layer; only it (and publishing's message registry) stores."""
    paths = [
        *sorted((ROOT / "bot/handlers").glob("*.py")),
        *sorted((ROOT / "bot/presenter").glob("*.py")),
    ]
    paths += [ROOT / "bot/showing.py", ROOT / "bot/middlewares.py", ROOT / "bot/refusals.py"]
    for path in paths:
        bad = {name for name in imported(path) if name == "storage" or name.startswith("storage.")}
        bad.discard("storage.recent")  # the bounded map, not the database
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_no_module_level_routers() -> None:
    """Routers are built by factories (a new one per Dispatcher)."""
    for path in sorted((ROOT / "bot/handlers").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                func = node.value.func
                assert not (isinstance(func, ast.Name) and func.id == "Router"), path.name


def test_every_refusal_is_worded_in_both_languages() -> None:
    from bot.refusals import KEYS, refusal_text, why_keyboard
    from bot.texts import CATALOGS
    from engine import NotationError, Reason, parse_segments
    from gameplay import Refusal, Refused

    assert set(KEYS) == set(Refusal)
    for refusal in Refusal:
        reason = Reason.HEAD if refusal is Refusal.ILLEGAL else None
        notation = None
        if refusal is Refusal.BAD_NOTATION:
            with pytest.raises(NotationError) as caught:
                parse_segments("<b>24/x</b>")
            notation = caught.value
        refused = Refused(refusal, reason=reason, detail="<b>24/x</b>", notation=notation)
        for lang, catalog in CATALOGS.items():
            assert KEYS[refusal] in catalog
            text = refusal_text(lang, refused)
            assert text and "<b>24/x</b>" not in text  # user text is escaped
    assert why_keyboard("ru", Reason.HEAD.rule_ids) is not None  # a rule refusal: "Why?"


def test_every_module_of_the_bot_and_the_game_layer_imports() -> None:
    """A module nothing in the tests happens to import (or a stale import after a move) still
    breaks ``python -m bot``: import them all."""
    import importlib
    import pkgutil

    import bot
    import gameplay

    for package in (bot, gameplay):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if module.name != "bot.__main__":
                importlib.import_module(module.name)
