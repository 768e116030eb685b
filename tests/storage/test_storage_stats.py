"""Finishing games: statistics for every result kind, Elo ratings, leaderboards."""

from __future__ import annotations

import math

import pytest

from storage import Colour, GameResult, NewMove, ResultKind, Storage
from storage.rating import (
    K_ESTABLISHED,
    K_PROVISIONAL,
    PROVISIONAL_GAMES,
    elo_update,
    expected_score,
    k_factor,
)
from tests.storage.conftest import (
    ALICE,
    BORIS,
    CARMEN,
    DMITRY,
    GROUP,
    PRIVATE,
    Backend,
    new_game,
)

# (kind, points as the engine scored them, cube included)
RESULTS = [
    (ResultKind.OIN, 1),
    (ResultKind.MARS, 2),
    (ResultKind.KOKS, 3),
    (ResultKind.DROP, 1),
    (ResultKind.MARS, 8),  # a mars on a cube at 4
]


def by_hand(winner: float, loser: float, k_winner: float, k_loser: float) -> tuple[float, float]:
    """Elo written out independently of storage.rating."""
    p_winner = 1 / (1 + 10 ** ((loser - winner) / 400))
    return winner + k_winner * (1 - p_winner), loser - k_loser * (1 - p_winner)


# -- the pure rating functions -------------------------------------------------------------


def test_expected_score() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert expected_score(1620, 1480) + expected_score(1480, 1620) == pytest.approx(1.0)


def test_k_factor() -> None:
    assert k_factor(0) == K_PROVISIONAL == 32
    assert k_factor(PROVISIONAL_GAMES - 1) == K_PROVISIONAL
    assert k_factor(PROVISIONAL_GAMES) == K_ESTABLISHED == 16
    assert k_factor(100, match_length=9) == pytest.approx(48.0)
    with pytest.raises(ValueError):
        k_factor(0, match_length=0)


def test_elo_update_by_hand() -> None:
    update = elo_update(1600, 50, 1400, 3)
    winner, loser = by_hand(1600, 1400, 16, 32)
    assert (update.winner_after, update.loser_after) == (
        pytest.approx(winner),
        pytest.approx(loser),
    )
    upset = elo_update(1400, 50, 1600, 50)
    assert upset.winner_after - 1400 == pytest.approx(16 * 10**0.5 / (1 + 10**0.5))


# -- statistics after a finished game --------------------------------------------------------


@pytest.mark.parametrize(("kind", "points"), RESULTS)
@pytest.mark.parametrize("winner", [Colour.WHITE, Colour.BLACK])
async def test_game_between_people(
    people: Storage, kind: ResultKind, points: int, winner: Colour
) -> None:
    game = await people.create_game(new_game(ALICE, BORIS, variant="short"))
    winner_id, loser_id = (ALICE, BORIS) if winner is Colour.WHITE else (BORIS, ALICE)
    final_move = NewMove(winner, (6, 6), "6/off(4)", "final-pos")
    done = await people.finish_game(
        game.game_id,
        1,
        "final",
        GameResult(winner, kind, points),
        moves=[final_move],
        score=(1, 0) if winner is Colour.WHITE else (0, 1),
    )

    assert done.game.status == "finished" and done.game.version == 2
    assert done.game.result == GameResult(winner, kind, points)
    assert done.game.winner_user_id == winner_id
    assert [m.play for m in await people.get_moves(game.game_id)] == ["6/off(4)"]

    won = await people.get_user_stats(winner_id, "short")
    lost = await people.get_user_stats(loser_id, "short")
    assert (won.games, won.wins, won.losses, won.points_won, won.points_lost) == (
        1,
        1,
        0,
        points,
        0,
    )
    assert (lost.games, lost.wins, lost.losses, lost.points_won, lost.points_lost) == (
        1,
        0,
        1,
        0,
        points,
    )
    for other in ResultKind:
        assert won.wins_by(other) == (1 if other is kind else 0)
        assert lost.losses_by(other) == (1 if other is kind else 0)
        assert won.losses_by(other) == lost.wins_by(other) == 0
    # nothing recorded for the other variant or as a game against the computer
    assert (await people.get_user_stats(winner_id, "long")).games == 0
    assert (await people.get_user_stats(winner_id, "short", vs_ai=True)).games == 0

    # ratings: the outcome counts, not the kind or the points
    assert [(c.user_id, c.before, c.after) for c in done.rating_changes] == [
        (winner_id, 1500.0, 1516.0),
        (loser_id, 1500.0, 1484.0),
    ]
    assert (await people.get_rating(winner_id, "short")).rating == 1516.0
    assert (await people.get_rating(loser_id, "short")).rating == 1484.0
    assert (await people.get_rating(loser_id, "short")).peak == 1500.0
    changes = {
        Colour.WHITE: done.game.white_rating_change,
        Colour.BLACK: done.game.black_rating_change,
    }
    assert changes[winner] == 16.0 and changes[winner.opponent] == -16.0


@pytest.mark.parametrize(("kind", "points"), RESULTS)
@pytest.mark.parametrize("human_wins", [True, False])
async def test_game_against_the_computer(
    people: Storage, kind: ResultKind, points: int, human_wins: bool
) -> None:
    game = await people.create_game(new_game(ALICE, None, chat_id=PRIVATE))
    winner = Colour.WHITE if human_wins else Colour.BLACK
    done = await people.finish_game(game.game_id, 1, "final", GameResult(winner, kind, points))

    assert done.rating_changes == ()
    assert done.game.white_rating_change is None and done.game.black_rating_change is None
    stats = await people.get_user_stats(ALICE, "long", vs_ai=True)
    assert (stats.games, stats.wins, stats.losses) == (1, int(human_wins), int(not human_wins))
    assert stats.wins_by(kind) == int(human_wins) and stats.losses_by(kind) == int(not human_wins)
    assert (stats.points_won, stats.points_lost) == ((points, 0) if human_wins else (0, points))
    # kept apart from games between people, and no rating
    assert (await people.get_user_stats(ALICE, "long")).games == 0
    assert (await people.get_rating(ALICE, "long")).games == 0
    assert await people.leaderboard("long") == []


async def test_statistics_and_ratings_accumulate(people: Storage) -> None:
    """22 games: Alice's K drops from 32 to 16 after 20 rated games; checked by hand."""
    alice, boris = 1500.0, 1500.0
    for number in range(22):
        alice_wins = number % 3 != 2
        game = await people.create_game(new_game(ALICE, BORIS))
        winner = Colour.WHITE if alice_wins else Colour.BLACK
        done = await people.finish_game(game.game_id, 1, "x", GameResult(winner, "oin", 1))
        k = 32 if number < 20 else 16
        if alice_wins:
            alice, boris = by_hand(alice, boris, k, k)
        else:
            boris, alice = by_hand(boris, alice, k, k)
        assert {c.user_id: c.after for c in done.rating_changes} == {
            ALICE: pytest.approx(alice),
            BORIS: pytest.approx(boris),
        }
    a_stats = await people.get_user_stats(ALICE, "long")
    b_stats = await people.get_user_stats(BORIS, "long")
    assert (a_stats.games, a_stats.wins, a_stats.losses) == (22, 15, 7)
    assert (b_stats.games, b_stats.wins, b_stats.losses) == (22, 7, 15)
    rating = await people.get_rating(ALICE, "long")
    assert rating.rating == pytest.approx(alice) and rating.games == 22
    assert rating.peak >= rating.rating


async def test_match_length_scales_the_rating_change(people: Storage) -> None:
    game = await people.create_game(new_game(ALICE, BORIS, match_length=5))
    done = await people.finish_game(game.game_id, 1, "x", GameResult("black", "oin", 5))
    assert done.rating_changes[0].delta == pytest.approx(16 * math.sqrt(5))


async def test_provisional_player_against_established(people: Storage, backend: Backend) -> None:
    await backend.execute(
        people,
        "INSERT INTO ratings (user_id, variant, rating, games, peak, updated_at) "
        "VALUES (?, 'long', 1700.0, 40, 1750.0, 0)",
        (BORIS,),
    )
    game = await people.create_game(new_game(ALICE, BORIS))
    done = await people.finish_game(game.game_id, 1, "x", GameResult("white", "mars", 2))
    alice, boris = by_hand(1500, 1700, 32, 16)
    assert [c.after for c in done.rating_changes] == [pytest.approx(alice), pytest.approx(boris)]
    assert (await people.get_rating(BORIS, "long")).peak == 1750.0


async def test_leaderboards(people: Storage) -> None:
    async def play(white: int, black: int, winner: str, chat: int = GROUP, thread: int = 0) -> None:
        game = await people.create_game(new_game(white, black, chat_id=chat, thread_id=thread))
        await people.finish_game(game.game_id, 1, "x", GameResult(winner, "oin", 1))  # type: ignore[arg-type]

    await play(ALICE, BORIS, "white")
    await play(ALICE, BORIS, "white")
    await play(CARMEN, DMITRY, "white", chat=PRIVATE)  # elsewhere
    await play(CARMEN, ALICE, "black", thread=3)  # another topic of the group
    await play(ALICE, None, "black", chat=PRIVATE)  # type: ignore[arg-type]  # vs computer

    board = await people.leaderboard("long")
    assert [e.user_id for e in board] == [ALICE, CARMEN, DMITRY, BORIS]
    assert [e.rank for e in board] == [1, 2, 3, 4]
    top = board[0]
    assert (top.display_name, top.games, top.wins) == ("Alice", 3, 3)
    assert top.rating == (await people.get_rating(ALICE, "long")).rating
    assert [e.user_id for e in await people.leaderboard("long", limit=2)] == [ALICE, CARMEN]
    assert [e.user_id for e in await people.leaderboard("long", min_games=2)] == [
        ALICE,
        CARMEN,
        BORIS,
    ]
    assert await people.leaderboard("short") == []

    chat_board = await people.leaderboard("long", chat_id=GROUP)
    assert [(e.user_id, e.games, e.wins) for e in chat_board] == [
        (ALICE, 3, 3),
        (CARMEN, 1, 0),
        (BORIS, 2, 0),
    ]
    assert [e.user_id for e in await people.leaderboard("long", chat_id=PRIVATE)] == [
        CARMEN,
        DMITRY,
    ]
