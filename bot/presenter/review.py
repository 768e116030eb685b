"""A game review in words and pictures: the summary message (each player's error rate with
its label and their three biggest mistakes, one line of "why" each) and one picture per
mistake (the board before it, the play made and the best one drawn over it).

The words of the reasons and labels are :mod:`teacher.review_text`'s; everything else is the
bot's catalogs. Names are HTML-escaped here.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.drawing import BOARD_WIDTH
from bot.presenter.common import DISC, dice_text, short_name
from bot.texts import h, localized_notation, t
from engine import Side
from engine.position import Position
from engine.step import Step
from gameplay.reviews import MatchReview, PlayerSummary, Review, ReviewedMistake
from renderer.options import EN_LABELS, RU_LABELS, BoardOptions
from teacher.review_text import decisions_text, label_text, number_text, why_line

#: Players in the order the review lists them.
ORDER = (Side.WHITE, Side.BLACK)


@dataclass(frozen=True, slots=True)
class MistakePicture:
    """One picture to draw and send: the board before the mistake and the two plays."""

    position: Position
    played: tuple[Step, ...]
    best: tuple[Step, ...]
    options: BoardOptions
    caption: str


def rate_text(rate: float, lang: str) -> str:
    return number_text(rate, 1, lang)


def lost_text(lost: float, lang: str) -> str:
    """Equity lost as players read it: ``−0,086`` (three decimals, a minus sign)."""
    return "−" + number_text(lost, 3, lang)


def _what(m: ReviewedMistake, lang: str) -> str:
    """The decision in words: ``4-5: 17/12/8, лучше 13/8 11/7`` or the cube action."""
    if m.kind != "play" or m.dice is None:
        return t(lang, f"review_cube_{m.kind}")
    return t(
        lang,
        "review_play",
        dice=dice_text(m.dice),
        played=localized_notation(lang, m.played_text),
        best=localized_notation(lang, m.best_text),
    )


def _why(m: ReviewedMistake, lang: str) -> str:
    return h(why_line(m.why, m.params, lang))


def _player_lines(player: PlayerSummary, name: str, lang: str) -> list[str]:
    disc = DISC[player.side]
    if not player.decisions:
        return [t(lang, "review_no_decisions", disc=disc, name=h(name))]
    lines = [
        t(
            lang,
            "review_player",
            disc=disc,
            name=h(name),
            rate=rate_text(player.error_rate, lang),
            label=label_text(str(player.label), lang),
            decisions=decisions_text(player.decisions, lang),
        )
    ]
    if not player.mistakes:
        lines.append(t(lang, "review_clean"))
    for n, m in enumerate(player.mistakes, start=1):
        lines.append(
            t(
                lang,
                "review_line",
                n=n,
                turn=m.turn,
                what=_what(m, lang),
                lost=lost_text(m.lost, lang),
                why=_why(m, lang),
            )
        )
    return lines


def review_text(review: Review, names: dict[Side, str], lang: str) -> str:
    """The summary message (HTML). ``names`` by side, as the players are called here."""
    lines = [
        t(
            lang,
            "review_title",
            white=h(short_name(names[Side.WHITE])),
            black=h(short_name(names[Side.BLACK])),
            variant=t(lang, f"variant_{review.variant}"),
        ),
        t(lang, "review_scale"),
        "",
    ]
    for side in ORDER:
        lines.extend(_player_lines(review.players[side], short_name(names[side]), lang))
    if not review.complete:
        lines.extend(["", t(lang, "review_incomplete")])
    if any(review.players[side].mistakes for side in ORDER):
        lines.extend(["", t(lang, "review_pictures")])
    return "\n".join(lines)


def match_review_text(review: MatchReview, names: tuple[str, str], lang: str) -> str:
    """The review of a whole match (HTML): each player's error rate over all its games,
    then each game's two rates and result. ``names`` by seat (colours change from game to
    game in long nardy, so players are named, not coloured)."""
    a, b = (h(short_name(n)) for n in names)
    lines = [
        t(
            lang,
            "match_review_title",
            a=a,
            b=b,
            variant=t(lang, f"variant_{review.variant}"),
            length=review.length,
            score=f"{review.score[0]}:{review.score[1]}",
        ),
        t(lang, "review_scale"),
        "",
    ]
    for seat, name in enumerate((a, b)):
        totals = review.totals(seat)
        lines.append(
            t(
                lang,
                "match_review_player",
                name=name,
                rate=rate_text(totals.error_rate, lang),
                label=label_text(str(totals.label), lang),
                decisions=decisions_text(totals.decisions, lang),
            )
        )
    lines.extend(["", t(lang, "match_review_games")])
    for n, game in enumerate(review.games, start=1):
        winner = "—" if game.winner_seat is None else (a, b)[game.winner_seat]
        lines.append(
            t(
                lang,
                "match_review_game",
                n=n,
                game=game.review.game_id,
                a=a,
                rate_a=rate_text(game.seat_summary(0).error_rate, lang),
                b=b,
                rate_b=rate_text(game.seat_summary(1).error_rate, lang),
                winner=winner,
                points=game.points,
            )
        )
    if not review.complete:
        lines.extend(["", t(lang, "review_incomplete")])
    lines.extend(["", t(lang, "match_review_hint", game=review.games[-1].review.game_id)])
    return "\n".join(lines)


def mistake_pictures(review: Review, names: dict[Side, str], lang: str) -> list[MistakePicture]:
    """Every player's mistakes as pictures, white's first: each board from the mover's side
    with the mover's numbers (those of the caption's notation) and the roll."""
    out = []
    by_side = (short_name(names[Side.WHITE]), short_name(names[Side.BLACK]))
    for side in ORDER:
        player = review.players[side]
        for n, m in enumerate(player.mistakes, start=1):
            options = BoardOptions(
                viewer=side,
                numbering=side,
                dice=m.dice,
                dice_owner=side if m.dice else None,
                names=by_side,
                labels=RU_LABELS if lang == "ru" else EN_LABELS,
                image_format="jpeg",
                width=BOARD_WIDTH,
                optimize_jpeg=False,
            )
            caption = t(
                lang,
                "review_picture",
                disc=DISC[side],
                name=h(short_name(names[side])),
                n=n,
                of=len(player.mistakes),
                turn=m.turn,
                what=_what(m, lang),
                lost=number_text(m.lost, 3, lang),
                why=_why(m, lang),
            )
            out.append(MistakePicture(m.before, m.played, m.best, options, caption))
    return out


__all__ = [
    "MistakePicture",
    "lost_text",
    "match_review_text",
    "mistake_pictures",
    "rate_text",
    "review_text",
]
