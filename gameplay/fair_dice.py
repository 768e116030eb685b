"""Provably fair dice between the engine and storage: the few steps the bot takes
(docs/fairness.md has the protocol; engine/fairness.py the algorithm).

1. offering a game: ``seed = await commit(store, [offerer's client seed])``; show
   ``short_commitment(seed.commitment)`` and link ``seed.seed_id`` to the invitation;
2. joining: ``await store.add_client_seed(seed.seed_id, joiner's client seed)``;
3. drawing: ``dice = await dice_for(store, seed_id)`` is the engine's ``rng``; pass
   ``drawn(dice)`` as ``NewGame.dice`` / ``save_game(dice=…)`` / ``finish_game(dice=…)`` with
   the write that used them;
4. after the match: ``await report(store, seed_id, played=played_dice(histories))`` reveals
   the seed and gives the JSON report, and ``engine.fairness.verify_report`` its verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.fairness import (
    FairDice,
    Played,
    PlayedKind,
    commitment,
    make_report,
    new_server_seed,
)
from storage.base import Storage
from storage.models import DiceRolls, DiceSeed


async def commit(
    store: Storage, client_seeds: Iterable[str] = (), *, server_seed: bytes | None = None
) -> DiceSeed:
    """A new secret server seed (``server_seed``: one drawn by the caller; a new one from
    ``secrets`` otherwise), stored with its commitment (and any first client seeds)."""
    secret = new_server_seed() if server_seed is None else server_seed
    return await store.create_dice_seed(commitment(secret), secret, tuple(client_seeds))


async def dice_for(store: Storage, seed_id: int) -> FairDice:
    """The seed's dice, continuing after the last die stored (so a retried action, or a
    restart, draws the same dice again rather than new ones)."""
    seed, secret = await store.get_dice_draw(seed_id)
    return FairDice(secret, seed.client_seeds, seed.counter)


def drawn(dice: FairDice) -> DiceRolls | None:
    """The dice drawn since the last call, as storage appends them (None if there were none)."""
    rolls = dice.take_pending()
    if not rolls:
        return None
    return DiceRolls(rolls[0].counter, tuple(r.value for r in rolls))


def played_dice(histories: Iterable[Iterable[Any]]) -> list[Played]:
    """The lots and rolls of a match's games (each game's ``history`` of engine events, in
    the order the games were played), for the report's ``played`` list."""
    kinds = {"lot": PlayedKind.LOT, "roll": PlayedKind.ROLL}
    return [
        Played(kinds[event.kind], (event.dice[0], event.dice[1]))
        for history in histories
        for event in history
        if event.kind in kinds
    ]


async def report(
    store: Storage,
    seed_id: int,
    *,
    played: Iterable[Played] | None = None,
    game: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Reveal the seed (refused while a game still draws from it) and build the report from
    the dice as they were stored — not recomputed, so the report can catch a wrong one —
    and, given ``played`` (:func:`played_dice`), the dice as the games show them."""
    seed = await store.reveal_dice_seed(seed_id)
    assert seed.server_seed is not None
    return make_report(seed.server_seed, seed.client_seeds, seed.rolls, played=played, game=game)
