"""Handlers, one router per concern. Routers are templates: :func:`fresh` copies one for each
Dispatcher, because aiogram attaches a router to a single parent and tests (and restarts in
one process) build more than one."""

from __future__ import annotations

from aiogram import Router


def fresh(template: Router) -> Router:
    """A new router with the template's handlers and filters, attachable anywhere."""
    copy = Router(name=template.name)
    for name, observer in template.observers.items():
        target = copy.observers[name]
        for handler in observer.handlers:
            filters = [f.callback for f in handler.filters or ()]
            target.register(handler.callback, *filters, flags=dict(handler.flags))
    return copy
