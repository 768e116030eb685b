"""Game reviews for the bot: computed once per game in a worker process, stored, shown again
at once.

A review (:func:`ai.review.review_game`) costs 1.5–4 s of CPU; the bot's event loop must not
spend it, so it runs in a separate process (a one-worker pool, started on first use; the
process imports only ``ai`` and the engine). Its result is stored as a small JSON summary
(each player's totals and three biggest mistakes with the positions to draw) next to each
colour's totals, which the statistics add up.

One computation per game, even with two taps at once, two bot workers or a restart in the
middle: the review is claimed in storage with a short lease that its worker renews while it
computes. A second request in the same process joins the running task; a request in another
process waits for the stored result; once a lease has ended (its worker died) the next request
takes the review over.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import multiprocessing
import os
import secrets
import socket
from collections import deque
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from typing import Any, TypeVar

import storage
from ai.match import MatchScore
from ai.review import GameReview, Mistake, Rated, review_game
from engine import Match, Side
from engine.game import Event
from engine.notation import format_steps
from engine.options import Options
from engine.position import Position
from engine.record import current_game_log
from engine.step import Step
from gameplay.refusals import Refusal, Refused

log = logging.getLogger(__name__)

SUMMARY_FORMAT = 1
#: CPU seconds a review may take in its worker; a longer game is judged up to there and the
#: review says it is incomplete (measured: 1.5 s for 60 short turns, ~4 s for 120 long ones).
MAX_CPU_SECONDS = 30.0
#: Wall-clock bound of one computation (the worker may wait behind another review).
MAX_WAIT_SECONDS = 180.0
LEASE = timedelta(seconds=20)
RENEW_EVERY = 5.0
POLL_EVERY = 0.5


class ReviewStart(StrEnum):
    """What a request for a review found."""

    NEW = "new"  # this request computes (or fetches) it: it will deliver the review
    RUNNING = "running"  # the same review is being prepared for an earlier request here


@dataclass(frozen=True, slots=True)
class ReviewedMistake:
    """One of a player's biggest mistakes, with what is needed to draw and word it."""

    side: Side
    kind: str  # ai.review.DecisionKind value: play, double, take, drop
    turn: int  # the game's turn number (1 = the first move)
    dice: tuple[int, int] | None
    before: Position
    played: tuple[Step, ...]
    best: tuple[Step, ...]
    lost: float
    why: str  # ai.review.Why value
    params: Mapping[str, int | float]

    @property
    def played_text(self) -> str:
        return format_steps(self.played)

    @property
    def best_text(self) -> str:
        return format_steps(self.best)


@dataclass(frozen=True, slots=True)
class PlayerSummary(Rated):
    """A player's part of a stored review: totals (``error_rate``, ``label``) and mistakes."""

    side: Side
    decisions: int
    total_error: float
    mistakes: tuple[ReviewedMistake, ...]


@dataclass(frozen=True, slots=True)
class Review:
    """A stored game review, as the bot shows it."""

    game_id: int
    variant: str
    complete: bool
    players: dict[Side, PlayerSummary] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": SUMMARY_FORMAT,
                "variant": self.variant,
                "complete": self.complete,
                "players": {str(side.label): _player_dict(p) for side, p in self.players.items()},
            },
            ensure_ascii=False,
            separators=(",", ":"),
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, game_id: int, text: str) -> Review:
        data = json.loads(text)
        if data.get("format") != SUMMARY_FORMAT:
            raise ValueError(f"unknown review summary format {data.get('format')!r}")
        variant = str(data["variant"])
        players = {
            _side(name): _player_from(name, value, variant)
            for name, value in data["players"].items()
        }
        return cls(game_id, variant, bool(data["complete"]), players)


def _side(label: str) -> Side:
    return Side.WHITE if label == Side.WHITE.label else Side.BLACK


def _steps(steps: tuple[Step, ...]) -> list[list[int]]:
    return [[s.src, s.dst, s.die, int(s.hit)] for s in steps]


def _steps_from(data: Sequence[Sequence[int]]) -> tuple[Step, ...]:
    return tuple(Step(int(a), int(b), int(d), bool(h)) for a, b, d, h in data)


def _player_dict(player: PlayerSummary) -> dict[str, Any]:
    return {
        "decisions": player.decisions,
        "error": player.total_error,
        "mistakes": [
            {
                "kind": m.kind,
                "turn": m.turn,
                "dice": list(m.dice) if m.dice else None,
                "white": list(m.before.white),
                "black": list(m.before.black),
                "to_move": m.before.turn.label,
                "played": _steps(m.played),
                "best": _steps(m.best),
                "lost": m.lost,
                "why": m.why,
                "params": dict(m.params),
            }
            for m in player.mistakes
        ],
    }


def _player_from(name: str, data: Mapping[str, Any], variant: str) -> PlayerSummary:
    side = _side(name)
    mistakes = tuple(
        ReviewedMistake(
            side=side,
            kind=str(m["kind"]),
            turn=int(m["turn"]),
            dice=(int(m["dice"][0]), int(m["dice"][1])) if m["dice"] else None,
            before=Position(variant, tuple(m["white"]), tuple(m["black"]), _side(m["to_move"])),
            played=_steps_from(m["played"]),
            best=_steps_from(m["best"]),
            lost=float(m["lost"]),
            why=str(m["why"]),
            params=dict(m["params"]),
        )
        for m in data["mistakes"]
    )
    return PlayerSummary(side, int(data["decisions"]), float(data["error"]), mistakes)


@dataclass(frozen=True, slots=True)
class MatchTotals(Rated):
    """One player's decisions and equity lost over every game of a match (``seat`` as the
    match numbers its players: colours may change from game to game)."""

    seat: int
    decisions: int
    total_error: float


@dataclass(frozen=True, slots=True)
class MatchGame:
    """A game of a reviewed match: its review, which seat played white, its result (the
    winner's seat and the points)."""

    review: Review
    white_seat: int
    winner_seat: int | None
    points: int

    def seat_summary(self, seat: int) -> PlayerSummary:
        side = Side.WHITE if seat == self.white_seat else Side.BLACK
        return self.review.players[side]


@dataclass(frozen=True, slots=True)
class MatchReview:
    """The review of a whole match: each game's review and each player's totals."""

    variant: str
    length: int
    score: tuple[int, int]  # the final score by seat
    games: tuple[MatchGame, ...]

    @property
    def complete(self) -> bool:
        return all(g.review.complete for g in self.games)

    def totals(self, seat: int) -> MatchTotals:
        parts = [g.seat_summary(seat) for g in self.games]
        return MatchTotals(seat, sum(p.decisions for p in parts), sum(p.total_error for p in parts))


def summarize(game_id: int, review: GameReview) -> Review:
    """The parts of a computed review the bot keeps (its decisions are not kept)."""
    players = {}
    for side, player in review.players.items():
        mistakes = tuple(_mistake(side, m) for m in player.mistakes)
        players[side] = PlayerSummary(side, player.decisions, player.total_error, mistakes)
    return Review(game_id, str(review.variant), review.complete, players)


def _mistake(side: Side, mistake: Mistake) -> ReviewedMistake:
    d = mistake.decision
    return ReviewedMistake(
        side=side,
        kind=str(d.kind),
        turn=d.index + 1,
        dice=d.dice,
        before=d.before,
        played=d.played.steps if d.played is not None else (),
        best=d.best.steps if d.best is not None else (),
        lost=mistake.lost,
        why=str(mistake.why),
        params=dict(mistake.params),
    )


def _scored(row: storage.Game) -> Match:
    """The match as of ``row`` with that game's result in its score (M-15)."""
    match = Match.from_json(row.state)
    if match.current.result is not None:
        match.record_result()  # does nothing if the stored state has it already
    return match


def _compute(
    history: tuple[Event, ...],
    variant: str,
    options: Options,
    score: MatchScore | None = None,
    crawford_game: bool = False,
) -> GameReview:
    """The worker process's job (module level, so the pool can pickle it)."""
    return review_game(
        history,
        variant,
        options,
        match=score,
        crawford_game=crawford_game,
        max_seconds=MAX_CPU_SECONDS,
    )


def match_context(match: Match) -> tuple[MatchScore | None, bool]:
    """The score before the current game from white's side (None for a single game, which
    the review judges as money play) and whether it is the Crawford game (no cube)."""
    game = match.current
    if match.length <= 1:
        return None, game.crawford
    by_seat = current_game_log(match).score
    white = game.seat_of(Side.WHITE)
    score = MatchScore(
        match.length,
        by_seat[white],
        by_seat[1 - white],
        match.crawford_done,
        match.options.crawford,
    )
    return score, game.crawford


Executor = concurrent.futures.Executor
T = TypeVar("T")


def _start(
    tasks: dict[int, asyncio.Task[T]],
    key: int,
    make: Callable[[], Coroutine[Any, Any, T]],
    name: str,
) -> tuple[ReviewStart, asyncio.Task[T]]:
    """Join the task running for ``key``, or start ``make()`` as one (forgotten once done).
    Synchronous on purpose: two requests handled side by side cannot both start."""
    task = tasks.get(key)
    if task is not None and not task.done():
        return ReviewStart.RUNNING, task
    task = asyncio.create_task(make(), name=name)
    tasks[key] = task

    def forget(done: asyncio.Task[T]) -> None:
        if tasks.get(key) is done:
            del tasks[key]

    task.add_done_callback(forget)
    return ReviewStart.NEW, task


def review_process_pool() -> concurrent.futures.ProcessPoolExecutor:
    """One worker process, started fresh (``spawn``: the bot's threads and sockets are not
    forked into it)."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn")
    )


class Reviews:
    """Reviews of finished games: requested by the bot, computed once, kept in storage."""

    def __init__(
        self,
        store: storage.Storage,
        *,
        executor_factory: Callable[[], Executor] = review_process_pool,
        lease: timedelta = LEASE,
    ) -> None:
        self.store = store
        self._factory = executor_factory
        self._executor: Executor | None = None
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease = lease
        self._tasks: dict[int, asyncio.Task[Review | None]] = {}
        self._match_tasks: dict[int, asyncio.Task[MatchReview | None]] = {}
        self.computed = 0  # reviews this process computed (for tests and figures)
        # the worker's CPU time of the latest reviews, in order (for figures)
        self.cpu_seconds: deque[float] = deque(maxlen=1000)

    def request(self, game_id: int) -> tuple[ReviewStart, asyncio.Task[Review | None]]:
        """Start getting ``game_id``'s review, or join the request already running here.

        Synchronous on purpose: two taps handled side by side cannot both start. The task's
        result is the review, or None when another process computed it for its own request
        (that process delivers it). It raises :class:`Refused` for a game not finished.
        """
        return _start(self._tasks, game_id, lambda: self._get(game_id), f"review-{game_id}")

    def request_match(self, game_id: int) -> tuple[ReviewStart, asyncio.Task[MatchReview | None]]:
        """:meth:`request` for the whole match of ``game_id`` (:meth:`match_review`): a
        second request for the same game joins the running one."""
        return _start(
            self._match_tasks,
            game_id,
            lambda: self.match_review(game_id),
            f"match-review-{game_id}",
        )

    async def stored(self, game_id: int) -> Review | None:
        """The review if it is stored already (never computes)."""
        row = await self.store.get_review(game_id)
        return Review.from_json(game_id, row.summary) if row and row.done and row.summary else None

    async def _get(self, game_id: int) -> Review | None:
        done = await self.stored(game_id)
        if done is not None:
            return done
        try:
            game = await self.store.get_game(game_id)
        except storage.NotFoundError:
            raise Refused(Refusal.GAME_NOT_FOUND) from None
        if game.status is not storage.GameStatus.FINISHED:
            raise Refused(Refusal.GAME_NOT_OVER)
        waited = False
        while True:
            row = await self.store.claim_review(game_id, self.owner, self.lease)
            if row.done and row.summary:
                return None if waited else Review.from_json(game_id, row.summary)
            if row.owner == self.owner:
                return await self._run(game)
            waited = True  # another worker holds it: wait for its result or its lease's end
            await asyncio.sleep(POLL_EVERY)

    async def _run(self, game: storage.Game) -> Review:
        """Compute, store and return the review of ``game`` (this process holds its claim;
        the claim is given back if anything fails, so the next request starts afresh)."""
        renewing = asyncio.create_task(self._renew(game.game_id))
        try:
            match = Match.from_json(game.state)
            computed = await self._in_worker(match)
            log.info(
                "reviewed game %s: %d decisions in %.2f s CPU%s",
                game.game_id,
                len(computed.decisions),
                computed.cpu_seconds,
                "" if computed.complete else " (stopped at the time limit)",
            )
            review = summarize(game.game_id, computed)
            white, black = review.players[Side.WHITE], review.players[Side.BLACK]
            row = await self.store.finish_review(
                game.game_id,
                review.to_json(),
                storage.ReviewTotals(white.decisions, white.total_error),
                storage.ReviewTotals(black.decisions, black.total_error),
            )
        except BaseException:
            with contextlib.suppress(storage.StorageError):
                await self.store.release_review(game.game_id, self.owner)
            raise
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
        self.computed += 1
        self.cpu_seconds.append(computed.cpu_seconds)
        assert row.summary is not None
        return Review.from_json(game.game_id, row.summary)

    async def _in_worker(self, match: Match) -> GameReview:
        """The review computed by the worker process, within :data:`MAX_WAIT_SECONDS`."""
        loop = asyncio.get_running_loop()
        history = tuple(match.current.history)
        score, crawford_game = match_context(match)
        future = loop.run_in_executor(
            self._pool(),
            _compute,
            history,
            str(match.variant_name),
            match.options,
            score,
            crawford_game,
        )
        try:
            return await asyncio.wait_for(future, MAX_WAIT_SECONDS)
        except (TimeoutError, asyncio.CancelledError, concurrent.futures.BrokenExecutor):
            self._reset_pool_after_failure()
            raise

    async def _renew(self, game_id: int) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            with contextlib.suppress(storage.StorageError):
                await self.store.claim_review(game_id, self.owner, self.lease)

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = self._factory()
        return self._executor

    def _reset_pool_after_failure(self) -> None:
        """A computation that failed or ran over its time may leave the worker busy or dead:
        the next review starts a new one."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        for process in list(getattr(executor, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.terminate()
        executor.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the running requests (their claims are given back) and the worker process;
        a review still being computed is not waited for."""
        running: list[asyncio.Task[Any]] = [*self._match_tasks.values(), *self._tasks.values()]
        for task in running:
            task.cancel()
        for task in running:
            with contextlib.suppress(BaseException):
                await task
        if running:
            self._reset_pool_after_failure()
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)

    async def match_review(self, game_id: int) -> MatchReview | None:
        """The review of the match ``game_id`` belongs to: each of its games reviewed (each
        once, as :meth:`request` does, one after another; a game another bot process is
        reviewing is waited for and read from storage), with each player's totals. It
        raises :class:`Refused` while the match is still being played (:meth:`check_match`
        says so beforehand), and returns None only if a game's review, reported done by
        another process, cannot be read back."""
        rows = await self._match_rows(game_id)
        games = []
        for row in rows:
            _, task = self.request(row.game_id)
            review = await asyncio.shield(task)
            if review is None:
                review = await self.stored(row.game_id)
            if review is None:
                return None
            match = Match.from_json(row.state)
            game = match.current
            result = game.result
            winner = None if result is None else game.seat_of(result.winner)
            points = 0 if result is None else result.points
            games.append(MatchGame(review, game.white_seat, winner, points))
        last = _scored(rows[-1])
        score = (last.score[0], last.score[1])
        return MatchReview(str(last.variant_name), last.length, score, tuple(games))

    async def check_match(self, game_id: int) -> None:
        """Raise :class:`Refused` unless the match ``game_id`` belongs to can be reviewed
        (every game finished, the match won): asked before a request is answered with
        "reviewing…"."""
        await self._match_rows(game_id)

    async def match_stored(self, game_id: int) -> bool:
        """Whether every game of the match ``game_id`` belongs to has its review stored (the
        match's review then comes at once)."""
        try:
            rows = await self.store.match_games(game_id)
        except storage.NotFoundError:
            return False
        return all([await self.stored(row.game_id) is not None for row in rows])

    async def _match_rows(self, game_id: int) -> list[storage.Game]:
        """The match's rows, refused unless every game is finished and the match is won."""
        try:
            rows = await self.store.match_games(game_id)
        except storage.NotFoundError:
            raise Refused(Refusal.GAME_NOT_FOUND) from None
        finished = storage.GameStatus.FINISHED
        if any(r.status is not finished for r in rows) or not _scored(rows[-1]).is_over:
            raise Refused(Refusal.MATCH_NOT_OVER)
        return rows

    async def error_rates(self, user_id: int) -> list[storage.ErrorRate]:
        """The user's average error rate per variant over their reviewed games."""
        return await self.store.error_rates(user_id)


__all__ = [
    "MAX_CPU_SECONDS",
    "MatchGame",
    "MatchReview",
    "MatchTotals",
    "PlayerSummary",
    "Review",
    "ReviewStart",
    "ReviewedMistake",
    "Reviews",
    "match_context",
    "review_process_pool",
    "summarize",
]
