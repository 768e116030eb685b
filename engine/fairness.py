"""Provably fair dice: a committed server seed, players' seeds mixed in, a stream anyone can
recompute (docs/fairness.md has the algorithm in full, for reimplementing the verifier).

Before any die is drawn the bot publishes ``SHA-256(server_seed)`` (the *commitment*); each
player's join or accept adds a *client seed* the bot cannot choose; once the first die is drawn
the seeds are frozen. Die number ``n`` (the *counter*, from 0) is::

    combined = SHA-256(b"nardy-dice-v1" || for each client seed: len(utf8) as u32 BE || utf8)
    block(n, k) = HMAC-SHA-256(key=server_seed, msg=combined || n as u64 BE || k as u32 BE)
    die(n) = b % 6 + 1 for the first byte b < 252 of block(n, 0), block(n, 1), ...

Rejecting bytes 252..255 keeps every face at exactly 42/252 = 1/6 (252 is the largest multiple
of 6 below 256). After the game the server seed is revealed and a report lists every die drawn
with its counter; :func:`verify_report` (and ``python -m engine.fairness verify report.json``)
recomputes the commitment and every die, and names what does not match.

This module is pure (standard library only, no I/O outside its command line) so the verifier
can be read and run without the bot.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import secrets
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

ALGORITHM = "nardy-dice-v1"
SEED_BYTES = 32
FACES = 6
#: Bytes at or above this are rejected: 252 = 42 * 6, so every face keeps 42 of 252 values.
ACCEPT_BELOW = 256 - 256 % FACES
#: Hex digits of the commitment shown in captions (48 bits: far beyond guessing a seed to fit).
SHORT_LENGTH = 12
#: A client seed is text; anything longer is refused (it would only bloat reports).
MAX_CLIENT_SEED_CHARS = 512

_COMBINE_DOMAIN = ALGORITHM.encode("ascii")


class FairnessError(ValueError):
    """A seed, counter or report that cannot be valid."""


# ---- seeds and the commitment ----------------------------------------------------------------


def new_server_seed() -> bytes:
    """32 bytes from the operating system's CSPRNG (``secrets``): the bot's secret."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """``SHA-256(server_seed)`` in lower-case hex, published before the first die."""
    _check_server_seed(server_seed)
    return hashlib.sha256(server_seed).hexdigest()


def short_commitment(commitment_hex: str) -> str:
    """The first :data:`SHORT_LENGTH` hex digits, in groups of four, for a caption."""
    head = commitment_hex[:SHORT_LENGTH]
    return " ".join(head[i : i + 4] for i in range(0, len(head), 4))


def telegram_client_seed(
    *,
    user_id: int,
    update_id: int,
    date: int,
    message_id: int | None = None,
    callback_id: str | None = None,
) -> str:
    """A player's contribution taken from the Telegram update they sent (join, accept).

    Telegram assigns every part (the update and message numbers, the send time, the callback
    query's id), so the bot cannot choose them; it can only guess them roughly in advance, which
    is why a player who wants full protection adds a phrase of their own (see docs/fairness.md).
    """
    parts = [f"tg:user={user_id}", f"update={update_id}", f"date={date}"]
    if message_id is not None:
        parts.append(f"message={message_id}")
    if callback_id is not None:
        parts.append(f"callback={callback_id}")
    return ";".join(parts)


def phrase_client_seed(user_id: int, phrase: str) -> str:
    """A player's own phrase (``/seed``) as a client seed, tagged with who gave it."""
    return f"phrase:user={user_id};{phrase}"


def check_client_seed(seed: str) -> str:
    """The seed if it is usable; :class:`FairnessError` for an empty or overlong one."""
    if not isinstance(seed, str) or not seed:
        raise FairnessError("a client seed is non-empty text")
    if len(seed) > MAX_CLIENT_SEED_CHARS:
        raise FairnessError(f"a client seed has at most {MAX_CLIENT_SEED_CHARS} characters")
    return seed


def combine_client_seeds(client_seeds: Sequence[str]) -> bytes:
    """The 32-byte digest of all client seeds, in order, each length-prefixed (so no two
    different lists of seeds can produce the same input)."""
    digest = hashlib.sha256(_COMBINE_DOMAIN)
    for seed in client_seeds:
        data = check_client_seed(seed).encode("utf-8")
        digest.update(len(data).to_bytes(4, "big"))
        digest.update(data)
    return digest.digest()


def _check_server_seed(server_seed: bytes) -> None:
    if not isinstance(server_seed, bytes) or len(server_seed) != SEED_BYTES:
        raise FairnessError(f"a server seed is {SEED_BYTES} bytes")


# ---- the stream ------------------------------------------------------------------------------


def select_die(block: bytes) -> int | None:
    """The face of the first acceptable byte of ``block``, or None if every byte was rejected."""
    for byte in block:
        if byte < ACCEPT_BELOW:
            return byte % FACES + 1
    return None


class DiceStream:
    """Die ``n`` of the stream fixed by a server seed and the client seeds, for any ``n``.

    The HMAC's key schedule is computed once and copied per die, which halves the cost of a die
    (about a microsecond), so a million dice for the uniformity test take about a second.
    """

    __slots__ = ("_base", "combined")

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str]) -> None:
        _check_server_seed(server_seed)
        self.combined = combine_client_seeds(client_seeds)
        self._base = hmac.new(server_seed, self.combined, hashlib.sha256)

    def __repr__(self) -> str:  # never the key
        return f"DiceStream(combined={self.combined.hex()[:SHORT_LENGTH]}…)"

    def block(self, counter: int, attempt: int = 0) -> bytes:
        if not 0 <= counter < 1 << 64 or not 0 <= attempt < 1 << 32:
            raise FairnessError("counter is 0 .. 2**64-1 and attempt 0 .. 2**32-1")
        mac = self._base.copy()
        mac.update(counter.to_bytes(8, "big") + attempt.to_bytes(4, "big"))
        return mac.digest()

    def die(self, counter: int) -> int:
        attempt = 0
        while True:
            face = select_die(self.block(counter, attempt))
            if face is not None:
                return face
            attempt += 1  # all 32 bytes rejected: probability (4/256)**32, about 10**-58

    def dice(self, start: int, count: int) -> list[int]:
        return [self.die(n) for n in range(start, start + count)]


@dataclass(frozen=True, slots=True)
class Roll:
    """One die drawn: its position in the stream and its face."""

    counter: int
    value: int


class FairDice:
    """The game's source of randomness: ``randint(1, 6)`` draws the next die of the stream.

    It stands where the engine takes an ``rng`` (``Game.roll``, ``Game.roll_lot``). Its state is
    the counter, which the bot stores with the game (``counter`` = dice drawn so far); rebuilt
    from the stored counter it continues the same stream, so a failed save that is retried gives
    the same dice again — the bot cannot "roll again" by discarding a save. ``pending`` holds the
    dice drawn since the last :meth:`take_pending`, to be stored with the game's next write.
    The server seed is held but never shown (``repr`` omits it).
    """

    __slots__ = ("_pending", "_stream", "counter")

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str], counter: int = 0) -> None:
        if counter < 0:
            raise FairnessError("the counter starts at 0")
        self._stream = DiceStream(server_seed, client_seeds)
        self.counter = counter
        self._pending: list[Roll] = []

    def __repr__(self) -> str:
        return f"FairDice(counter={self.counter})"

    def randint(self, a: int, b: int) -> int:
        """The next die. Only dice are drawn from this stream: any other range is refused."""
        if (a, b) != (1, FACES):
            raise FairnessError(f"fair dice draw 1..{FACES} only, not {a}..{b}")
        value = self._stream.die(self.counter)
        self._pending.append(Roll(self.counter, value))
        self.counter += 1
        return value

    @property
    def pending(self) -> tuple[Roll, ...]:
        return tuple(self._pending)

    def take_pending(self) -> tuple[Roll, ...]:
        """The dice drawn since the last call (to store with the game), and forget them."""
        taken = tuple(self._pending)
        self._pending.clear()
        return taken


# ---- reports and their verification ----------------------------------------------------------


class PlayedKind(StrEnum):
    """How a pair of dice was used in the game."""

    LOT = "lot"  # the deciding opening lot (seat 0's die, seat 1's die); ties before it re-roll
    ROLL = "roll"  # a player's roll


@dataclass(frozen=True, slots=True)
class Played:
    """A pair of dice as the players saw it in the game, in the order of the game."""

    kind: PlayedKind
    dice: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "dice": list(self.dice)}


def make_report(
    server_seed: bytes,
    client_seeds: Sequence[str],
    rolls: Iterable[int],
    *,
    played: Iterable[Played] | None = None,
    game: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON report for a finished game: everything needed to recompute every die.

    ``rolls`` are the dice as the game drew and stored them, counter 0 first; ``played``, the
    lots and rolls as the games' histories show them, lets the verifier check that these are
    the dice that were played; ``game`` is context (ids, players, variant), not verified.
    """
    report: dict[str, Any] = {
        "algorithm": ALGORITHM,
        "commitment": commitment(server_seed),
        "server_seed": server_seed.hex(),
        "client_seeds": list(client_seeds),
        "rolls": [{"counter": n, "value": int(v)} for n, v in enumerate(rolls)],
    }
    if played is not None:
        report["played"] = [p.to_dict() for p in played]
    if game:
        report["game"] = dict(game)
    return report


class ProblemKind(StrEnum):
    """What can be wrong with a report (the bot words each in the player's language)."""

    FORMAT = "format"  # not a report: missing or mistyped fields
    ALGORITHM = "algorithm"  # a version this verifier does not know
    SERVER_SEED = "server_seed"  # not 32 bytes of hex
    COMMITMENT = "commitment"  # SHA-256 of the revealed seed is not the published hash
    COUNTER = "counter"  # dice missing, repeated or out of order
    ROLL = "roll"  # a die differs from the stream
    PLAYED = "played"  # the dice the game shows are not the stream's pairs, in order


@dataclass(frozen=True, slots=True)
class Problem:
    kind: ProblemKind
    detail: str
    counter: int | None = None
    expected: int | str | None = None
    found: int | str | None = None


@dataclass(frozen=True, slots=True)
class Verification:
    """The verdict on a report: ``ok`` exactly when there is no problem."""

    problems: tuple[Problem, ...]
    rolls_checked: int
    commitment: str
    #: Lots and rolls checked against the dice (None: the report does not list them).
    played_checked: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_report(report: Any) -> Verification:
    """Recompute the commitment and every die of ``report`` (a parsed JSON object)."""
    if not isinstance(report, Mapping):
        return _failed(ProblemKind.FORMAT, "the report is not a JSON object")
    if report.get("algorithm") != ALGORITHM:
        return _failed(
            ProblemKind.ALGORITHM,
            f"algorithm {report.get('algorithm')!r}; this verifier knows {ALGORITHM!r}",
        )
    published = report.get("commitment")
    seed_hex = report.get("server_seed")
    client_seeds = report.get("client_seeds")
    rolls = report.get("rolls")
    if not isinstance(published, str):
        return _failed(ProblemKind.FORMAT, "commitment is missing")
    if not isinstance(client_seeds, list) or not all(
        isinstance(s, str) and s for s in client_seeds
    ):
        return _failed(ProblemKind.FORMAT, "client_seeds must be a list of non-empty strings")
    if not isinstance(rolls, list) or not all(
        isinstance(r, Mapping)
        and type(r.get("counter")) is int
        and type(r.get("value")) is int
        and r["counter"] >= 0
        for r in rolls
    ):
        return _failed(ProblemKind.FORMAT, "rolls must be a list of {counter, value} integers")
    try:
        server_seed = bytes.fromhex(seed_hex) if isinstance(seed_hex, str) else b""
    except ValueError:
        server_seed = b""
    if len(server_seed) != SEED_BYTES:
        return _failed(ProblemKind.SERVER_SEED, f"server_seed must be {SEED_BYTES} bytes of hex")
    problems: list[Problem] = []
    actual = hashlib.sha256(server_seed).hexdigest()
    if actual != published.lower():
        problems.append(
            Problem(
                ProblemKind.COMMITMENT,
                "SHA-256 of the revealed server seed is not the commitment shown before the game",
                expected=published,
                found=actual,
            )
        )
    try:
        stream = DiceStream(server_seed, client_seeds)
    except FairnessError as exc:
        return _failed(ProblemKind.FORMAT, str(exc))
    for expected_counter, roll in enumerate(rolls):
        counter, value = roll["counter"], roll["value"]
        if counter != expected_counter:
            problems.append(
                Problem(
                    ProblemKind.COUNTER,
                    f"die #{expected_counter} has counter {counter}: dice skipped or reordered",
                    counter=counter,
                    expected=expected_counter,
                    found=counter,
                )
            )
        die = stream.die(counter)
        if die != value:
            problems.append(
                Problem(
                    ProblemKind.ROLL,
                    f"die at counter {counter} shows {value}, the stream gives {die}",
                    counter=counter,
                    expected=die,
                    found=value,
                )
            )
    played = report.get("played")
    if played is not None:
        parsed = _parse_played(played)
        if parsed is None:
            problems.append(
                Problem(ProblemKind.FORMAT, "played must be a list of {kind, dice: [a, b]}")
            )
        else:
            problems.extend(check_played([r["value"] for r in rolls], parsed))
            return Verification(tuple(problems), len(rolls), published, len(parsed))
    return Verification(tuple(problems), len(rolls), published)


def _parse_played(data: Any) -> list[Played] | None:
    if not isinstance(data, list):
        return None
    out = []
    for entry in data:
        if not isinstance(entry, Mapping) or entry.get("kind") not in tuple(PlayedKind):
            return None
        dice = entry.get("dice")
        if not isinstance(dice, list) or len(dice) != 2 or not all(type(d) is int for d in dice):
            return None
        out.append(Played(PlayedKind(entry["kind"]), (dice[0], dice[1])))
    return out


def check_played(rolls: Sequence[int], played: Sequence[Played]) -> list[Problem]:
    """Check that the dice the game shows are the stream's, in order, with nothing left out.

    The engine draws dice in pairs (counters 2i, 2i + 1): a lot is preceded only by its tied
    re-rolls (equal pairs, RULES.md C-12), a roll takes the next pair, and every pair drawn is
    accounted for.
    """
    if len(rolls) % 2:
        return [Problem(ProblemKind.PLAYED, f"{len(rolls)} dice drawn: dice come in pairs")]
    pairs = [(rolls[i], rolls[i + 1]) for i in range(0, len(rolls), 2)]
    problems: list[Problem] = []
    index = 0
    for number, entry in enumerate(played):
        if entry.kind is PlayedKind.LOT:
            while index < len(pairs) and pairs[index][0] == pairs[index][1]:
                index += 1
        if index >= len(pairs):
            problems.append(
                Problem(
                    ProblemKind.PLAYED,
                    f"{entry.kind} #{number} {list(entry.dice)} has no dice left in the stream",
                )
            )
            return problems
        if entry.dice != pairs[index]:
            problems.append(
                Problem(
                    ProblemKind.PLAYED,
                    f"{entry.kind} #{number} shows {list(entry.dice)}, the stream's dice at "
                    f"counters {2 * index}, {2 * index + 1} are {list(pairs[index])}",
                    counter=2 * index,
                    expected=f"{pairs[index][0]}{pairs[index][1]}",
                    found=f"{entry.dice[0]}{entry.dice[1]}",
                )
            )
        index += 1
    if index != len(pairs):
        problems.append(
            Problem(
                ProblemKind.PLAYED,
                f"dice from counter {2 * index} on were drawn but never played",
                counter=2 * index,
            )
        )
    return problems


def _failed(kind: ProblemKind, detail: str) -> Verification:
    return Verification((Problem(kind, detail),), 0, "")


# ---- command line ----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m engine.fairness verify report.json``: exit 0 if every die checks out, 1 if
    something does not (each problem printed), 2 if the file cannot be read as JSON."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.fairness", description="Verify the dice of a nardy game."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="recompute every die of a report")
    verify.add_argument("report", help="the JSON report the bot gave after the game")
    args = parser.parse_args(argv)
    try:
        with open(args.report, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.report}: {exc}", file=sys.stderr)
        return 2
    verdict = verify_report(data)
    if verdict.ok:
        print(
            f"OK: the commitment {verdict.commitment} matches the revealed server seed, and all "
            f"{verdict.rolls_checked} dice follow from the seeds ({ALGORITHM})."
        )
        if verdict.played_checked is None:
            print("The report does not list the dice as played: compare them with the game.")
        else:
            print(f"The {verdict.played_checked} lots and rolls played are these dice, in order.")
        return 0
    print(f"FAILED: {len(verdict.problems)} problem(s)")
    for problem in verdict.problems:
        print(f"- {problem.kind}: {problem.detail}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
