"""Import aiogram without compiling every Telegram type's validator up front.

aiogram declares its ~300 Telegram types with pydantic's ``defer_build=True``, then calls
``model_rebuild()`` on every one of them at the end of ``aiogram/types/__init__.py`` to resolve
their forward references. That call builds each schema at once, and pydantic inlines nested
models, so ``Message`` is compiled again inside every type that contains one: importing aiogram
3.31 costs ~145 MB of memory, most of which the bot never uses (it validates ``Update``, a few
keyboards and a few responses).

:func:`defer_type_schemas` imports ``aiogram.types`` once with ``model_rebuild`` taught to do
only the part aiogram needs from it — remembering the namespace that resolves the forward
references — and to leave the build to pydantic's own deferred path on first use. The patch is
removed as soon as the import returns. If pydantic's private signature ever changes, or aiogram
is already imported, nothing is patched and aiogram is imported as usual (only the memory saving
is lost). ``tests/bot/test_lazy_schemas.py`` checks that every type still builds and validates.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from typing import Any

from pydantic import BaseModel


def defer_type_schemas() -> bool:
    """Import ``aiogram.types`` with its schemas deferred; True if the saving applied."""
    if "aiogram.types" in sys.modules:
        return False
    original = BaseModel.__dict__.get("model_rebuild")
    expected = {"force", "_types_namespace", "_parent_namespace_depth"}
    if not (
        isinstance(original, classmethod)
        and expected <= inspect.signature(original.__func__).parameters.keys()
    ):
        importlib.import_module("aiogram.types")  # a pydantic we do not know: as usual
        return False
    rebuild = original.__func__

    def remember_namespace(
        cls: type[BaseModel],
        *,
        force: bool = False,
        raise_errors: bool = True,
        _parent_namespace_depth: int = 2,
        _types_namespace: dict[str, Any] | None = None,
    ) -> bool | None:
        deferred = cls.model_config.get("defer_build", False) and not cls.__pydantic_complete__
        if _types_namespace is not None and deferred and not force:
            namespaces.append(_types_namespace)
            modules.add(cls.__module__)
            return None
        depth = _parent_namespace_depth + 1 if _parent_namespace_depth > 0 else 0
        return rebuild(
            cls,
            force=force,
            raise_errors=raise_errors,
            _parent_namespace_depth=depth,
            _types_namespace=_types_namespace,
        )

    namespaces: list[dict[str, Any]] = []
    modules: set[str] = set()
    BaseModel.model_rebuild = classmethod(remember_namespace)  # type: ignore[method-assign,assignment]
    try:
        importlib.import_module("aiogram.types")
    finally:
        BaseModel.model_rebuild = original  # type: ignore[method-assign]
    # The names aiogram imports only for type checkers go where pydantic looks when it builds
    # a schema on first use: the module of each class being built, whether that class is
    # validated itself or nested inside another model or a Bot API method. Done only now, so
    # that the Bot API methods, defined during the import, could not resolve (and build) early.
    modules.update(name for name in sys.modules if name.startswith("aiogram.methods."))
    for namespace in namespaces:
        for module_name in modules:
            globals_ = vars(sys.modules[module_name])
            for name, value in namespace.items():
                globals_.setdefault(name, value)
    return True


def build_hot_schemas() -> None:
    """Build now the schemas every tap needs, so the first player does not wait ~0.1 s."""
    from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Update

    for model in (Update, InlineKeyboardMarkup, InlineKeyboardButton):
        model.model_rebuild()
