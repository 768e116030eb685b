"""A board's picture options: whose side is at the bottom, dice, highlights, last play."""

from __future__ import annotations

from bot.drawing import BOARD_WIDTH, PICKER_WIDTH
from bot.presenter.common import ChatView, last_play_event, short_name, viewer_side
from engine import Phase, Side
from gameplay import Snapshot
from renderer.options import EN_LABELS, RU_LABELS, BoardOptions, GameOverInfo


def board_options(snap: Snapshot, view: ChatView) -> BoardOptions:
    game = snap.game
    lang = view.lang
    side = viewer_side(snap, view)
    numbering = side
    dice: tuple[int, ...] | None = None
    used = 0
    highlight: frozenset[int] = frozenset()
    last_steps = None
    last_side = None
    if game.phase is Phase.MOVE and game.dice is not None and view.public:
        turn = game.turn  # the roll as it fell; the play is being chosen in private
        dice = tuple(s.die for s in turn.steps) + turn.remaining_dice
    elif game.phase is Phase.MOVE and game.dice is not None:
        turn = game.turn
        # Used dice first: the renderer dims the first ``dice_used`` of them.
        dice = tuple(s.die for s in turn.steps) + turn.remaining_dice
        used = len(game.steps)
        numbering = game.side_to_move if view.owner_user_id is None else side
        steps = game.legal_steps()
        mover = game.side_to_move
        if numbering is mover:
            if view.pick is not None:
                highlight = frozenset(s.dst for s in steps if s.src == view.pick) | {view.pick}
            else:
                highlight = frozenset(s.src for s in steps)
        if game.steps:
            last_steps, last_side = game.steps, mover
    if last_steps is None:
        event = last_play_event(game)
        if event is not None and event.steps:
            last_steps, last_side = event.steps, event.side
    names_by_side = (
        short_name(snap.names[game.seat_of(Side.WHITE)]),
        short_name(snap.names[game.seat_of(Side.BLACK)]),
    )
    match = None
    if snap.match.length > 1:
        ws = game.seat_of(Side.WHITE)
        match = (snap.match.score[ws], snap.match.score[1 - ws], snap.match.length)
    result = None
    if game.result is not None:
        result = GameOverInfo.from_result(game.result)
    return BoardOptions(
        viewer=side,
        numbering=numbering,
        dice=dice,
        dice_used=used,
        last_play=tuple(last_steps) if last_steps else None,
        last_play_side=last_side,
        highlight_points=highlight,
        names=names_by_side,
        cube_enabled=game.cube_enabled,
        cube_value=min(game.cube_value, 64),
        cube_owner=game.cube_owner,
        match=match,
        result=result,
        labels=RU_LABELS if lang == "ru" else EN_LABELS,
        image_format="jpeg",
        width=PICKER_WIDTH if view.picker else BOARD_WIDTH,
        optimize_jpeg=False,
    )


def start_options(
    lang: str, *, match_length: int = 1, cube: bool = False, title: str | None = None
) -> BoardOptions:
    """The picture of a game not started yet (an inline challenge card and its preview):
    the match length on the score pills and the cube when it is in play, so the previews of
    different offers look different (Telegram shows photo results as a grid of pictures).
    No names, so one picture per offer and language serves everyone (uploaded once)."""
    return BoardOptions(
        viewer=Side.WHITE,
        numbering=Side.WHITE,
        match=(0, 0, match_length) if match_length > 1 else None,
        cube_enabled=cube,
        title=title,
        labels=RU_LABELS if lang == "ru" else EN_LABELS,
        image_format="jpeg",
        width=BOARD_WIDTH,
        optimize_jpeg=False,
    )
