"""The variants, found by name (STYLE: variants as classes behind one interface).

The interface is :class:`engine.variant.Variant`; each game's rules are one class
(:class:`engine.long_nardy.LongNardy`, :class:`engine.short_nardy.ShortNardy`). This module
registers them and is where callers look them up.
"""

from __future__ import annotations

from engine.long_nardy import LongNardy
from engine.position import VariantName
from engine.short_nardy import ShortNardy
from engine.variant import Variant, get_variant, register, registered, unregister

LONG = register(LongNardy())
SHORT = register(ShortNardy())

#: The built-in variants by name (kept for callers that index it directly).
VARIANTS: dict[str, Variant] = {str(v.name): v for v in (LONG, SHORT)}

__all__ = [
    "VARIANTS",
    "LongNardy",
    "ShortNardy",
    "Variant",
    "VariantName",
    "get_variant",
    "register",
    "registered",
    "unregister",
]
