"""/rules: a menu of topics, answers to questions, and "why?" explanations.

The words and the matching live in :mod:`teacher`; the pictures come from the renderer.
This module only decides what to show where:

* ``/rules`` opens a menu (Long / Short / General → topics) that is navigated in place: every
  tap — a section, a topic, a related topic, Back, Menu — edits the message it was made on,
  so a chat keeps one rules message however long someone browses, and a repeated tap never
  posts a copy. Every rules message is a photo (a topic's example position, or the starting
  position for the menu and for topics without an example), so any page can replace any
  other; a tap on a text message (a rejected move's "Why?", "I don't know") cannot turn it
  into a photo, so its page comes as a new message and the tapped one loses its buttons;
* "Why?" under a game's board keeps one explanation per game in a chat: tapped again (or for
  a later forfeit), it edits that message while it is still below the board;
* ``/rules <words>`` (anywhere) and plain text in a private chat are questions for the
  matcher. The play router sees text first and takes move notation; this router is included
  last, so it only gets what nobody else wanted;
* a question about the position (``/why 13/7``, «почему нельзя 13/7?», "why can't I bear
  off?") from the player to move is answered from the engine on the game's position and dice
  (:mod:`teacher.position`), with a picture of the board and the rule's topic one tap away.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar, cast

from aiogram import F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)

from bot.boards import GONE, Boards, Target
from bot.callbacks import RULES_MENU_APART, RulesCB
from bot.house_rules import describe
from bot.outbox import Outbox
from bot.presenter import (
    ChatView,
    board_options,
    burned_dice,
    event_line,
    last_play_event,
    localized,
)
from bot.texts import h, t
from engine import BAR, Phase, Side, Turn, get_variant
from engine.textpos import parse_position
from gameplay import GameService, Place, Snapshot
from renderer import EN_LABELS, RU_LABELS, BoardOptions, render_board
from teacher import (
    Lang,
    Topic,
    Variant,
    about_bot,
    all_topics,
    get_diagram,
    get_rejection,
    get_topic,
    match,
    suggest,
    topics_for_rule,
)
from teacher.position import Ask, PositionAnswer, Verdict, explain, parse_intent

T = TypeVar("T")

CAPTION_LIMIT = 1024  # Telegram's limit for a photo caption, counted after HTML parsing
QUESTION_LIMIT = 400  # longer "questions" are chatter; the matcher needs only a few words
SECTIONS = ("long", "short", "general")
MENU_IN_PLACE = ""  # RulesCB(view="menu") key: Back from a section (the picture stays)
MENU_NEW = "new"  # RulesCB(view="menu") key: from under a topic (the picture changes)
START_DIAGRAM = "setup"  # the menu's picture: the starting position of the chat's game
RELATED_BUTTONS = 3
ALTERNATIVE_BUTTONS = 2
_TAG = re.compile(r"<[^>]+>")


def as_lang(lang: str) -> Lang:
    """The knowledge base's language type (it has exactly the bot's two languages)."""
    return "en" if lang == "en" else "ru"


# ---- what a chat sees -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RulesContext:
    """What the chat plays: the running game (if any) decides the variant of pictures and
    which house rules the menu shows; otherwise the chat's defaults do."""

    house: str  # the "rules in force here" lines of the menu
    variant: Variant  # the game a topic about both games is drawn for
    game_variant: Variant | None  # the running game's variant, a hint for the matcher
    snap: Snapshot | None = None  # the running game, for questions about its position


def knowledge_variant(name: str) -> Variant:
    """The knowledge base's name of an engine variant."""
    return cast(Variant, get_variant(name).name)


async def rules_context(
    lang: str, games: GameService, place: Place, user_id: int | None
) -> RulesContext:
    snap = await games.find_for_chat(place, user_id)
    if snap is not None:
        variant = knowledge_variant(snap.match.variant_name)
        house = t(
            lang,
            "rules_house_game",
            variant=t(lang, f"variant_{variant}"),
            rules=describe(lang, variant, snap.match.options),
        )
        return RulesContext(house, variant, variant, snap)
    defaults = await games.chats.defaults(place.chat_id)
    long_rules = describe(lang, "long", defaults.options)
    short_rules = describe(lang, "short", defaults.options)
    if long_rules == short_rules == t(lang, "opt_standard"):
        house = t(lang, "rules_house_standard")
    else:
        house = t(lang, "rules_house_chat", long=long_rules, short=short_rules)
    return RulesContext(house, knowledge_variant(defaults.variant), None)


def topic_label(lang: str, topic: Topic) -> str:
    """A short button label (the full titles do not fit two buttons in a phone's row)."""
    return t(lang, f"rt_{topic.id}")


def topics_in(section: str) -> list[Topic]:
    """The topics of a menu section: everything that applies to that game, or (general) the
    topics common to both games; in RULES.md §8 order, which is the order one learns in."""
    if section == "general":
        return [topic for topic in all_topics() if topic.applies_to == "both"]
    variant = knowledge_variant(section)
    return [topic for topic in all_topics() if topic.applies(variant)]


def _button(text: str, data: RulesCB) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def _rows(
    buttons: Sequence[InlineKeyboardButton], width: int = 2
) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def menu_keyboard(lang: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                _button(t(lang, f"rules_btn_{section}"), RulesCB(view="variant", key=section))
                for section in SECTIONS
            ]
        ]
    )


def maybe_view(lang: str, topics: Sequence[Topic]) -> tuple[str, InlineKeyboardMarkup]:
    """A "did you mean …?" for a question the matcher could not answer but found close to a
    topic or two (``teacher.suggest``): their buttons (🔎), then the menu's sections."""
    names = t(lang, "rules_maybe_or").join(h(topic.title.get(as_lang(lang))) for topic in topics)
    buttons = [
        _button("🔎 " + topic_label(lang, topic), RulesCB(view="topic", key=topic.id))
        for topic in topics
    ]
    rows = [*_rows(buttons), *menu_keyboard(lang).inline_keyboard]
    return t(lang, "rules_maybe", topics=names), InlineKeyboardMarkup(inline_keyboard=rows)


def menu_text(lang: str, context: RulesContext, *, private: bool) -> str:
    hint = t(lang, "rules_menu_private_hint") if private else ""
    return t(lang, "rules_menu", house=context.house, hint=hint)


def section_view(lang: str, section: str) -> tuple[str, InlineKeyboardMarkup]:
    buttons = [
        _button(topic_label(lang, topic), RulesCB(view="topic", key=topic.id))
        for topic in topics_in(section)
    ]
    rows = _rows(buttons)
    rows.append([_button(t(lang, "btn_back"), RulesCB(view="menu", key=MENU_IN_PLACE))])
    return t(lang, f"rules_list_{section}"), InlineKeyboardMarkup(inline_keyboard=rows)


def topic_keyboard(
    lang: str, topic: Topic, alternatives: Sequence[Topic] = ()
) -> InlineKeyboardMarkup:
    """Under a topic: the matcher's runners-up (🔎), related topics and the way back."""
    buttons: list[InlineKeyboardButton] = []
    seen = {topic.id}
    for alt in alternatives[:ALTERNATIVE_BUTTONS]:
        if alt.id not in seen:
            seen.add(alt.id)
            buttons.append(
                _button("🔎 " + topic_label(lang, alt), RulesCB(view="topic", key=alt.id))
            )
    related = 0
    for topic_id in topic.related:
        if topic_id in seen or related == RELATED_BUTTONS:
            continue
        try:
            other = get_topic(topic_id)
        except KeyError:
            continue
        seen.add(topic_id)
        related += 1
        buttons.append(_button(topic_label(lang, other), RulesCB(view="topic", key=other.id)))
    buttons.append(_button(t(lang, "rules_btn_menu"), RulesCB(view="menu", key=MENU_NEW)))
    return InlineKeyboardMarkup(inline_keyboard=_rows(buttons))


def visible_length(text: str) -> int:
    """Characters a user sees of Telegram HTML (the limits are counted after parsing)."""
    return len(html.unescape(_TAG.sub("", text)))


def topic_caption(lang: str, topic: Topic, lead: str = "") -> str:
    """Title (bold) and body, escaped for HTML, after an optional ``lead`` line (HTML), cut to
    a photo caption's limit. The catalogue keeps captions under ~710 characters, so the cut
    only matters when a long reason line comes first."""
    head = (lead + "\n\n" if lead else "") + f"<b>{h(topic.title.get(as_lang(lang)))}</b>\n\n"
    body = topic.body.get(as_lang(lang))
    room = CAPTION_LIMIT - visible_length(head)
    if len(body) > room:
        body = body[: max(0, room - 1)].rstrip() + "…"
    return head + h(body)


# ---- pages -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Page:
    """What a rules message shows: a picture, an HTML caption and the buttons under it."""

    picture: bytes
    caption: str
    keyboard: InlineKeyboardMarkup
    name: str  # the picture's file name

    def photo(self) -> BufferedInputFile:
        return BufferedInputFile(self.picture, filename=f"rules-{self.name}.jpg")


async def start_picture(lang: str, variant: Variant) -> bytes:
    """The starting position of ``variant``: the picture of the menu, and of topics that have
    no example position of their own."""
    diagram = get_diagram(START_DIAGRAM, variant)
    if diagram is None:  # the catalogue's own tests keep it; never a blank message
        raise LookupError(f"no {START_DIAGRAM!r} diagram for {variant}")
    return await asyncio.to_thread(diagram_picture, diagram.key, as_lang(lang))


async def menu_page(lang: str, context: RulesContext, *, private: bool) -> Page:
    picture = await start_picture(lang, context.variant)
    return Page(picture, menu_text(lang, context, private=private), menu_keyboard(lang), "menu")


async def section_page(lang: str, section: str, variant: Variant) -> Page:
    """A section's topic list, over the same picture as the menu (only the caption changes)."""
    text, keyboard = section_view(lang, section)
    return Page(await start_picture(lang, variant), text, keyboard, section)


async def topic_page(
    lang: str,
    topic: Topic,
    *,
    variant: Variant,
    alternatives: Sequence[Topic] = (),
    lead: str = "",
    picture: bytes | None = None,
) -> Page:
    """A topic over ``picture``, else its example position, else the starting position."""
    if picture is None:
        own: Variant = topic.applies_to if topic.applies_to != "both" else variant
        diagram = get_diagram(topic.diagram, own)
        if diagram is not None:
            picture = await asyncio.to_thread(diagram_picture, diagram.key, as_lang(lang))
        else:
            picture = await start_picture(lang, own)
    keyboard = topic_keyboard(lang, topic, alternatives)
    return Page(picture, topic_caption(lang, topic, lead), keyboard, topic.id)


# ---- pictures ---------------------------------------------------------------------------------


def _dice(values: tuple[int, int]) -> tuple[int, ...]:
    """The renderer draws a double as four dice."""
    return (values[0],) * 4 if values[0] == values[1] else values


@functools.lru_cache(maxsize=64)
def diagram_picture(key: str, lang: str) -> bytes:
    """The example position of diagram ``key``, drawn from X's side with X's numbers.

    Pure, so it is computed once per (diagram, language) and kept: the catalogue holds a
    dozen diagrams.
    """
    from teacher import DIAGRAMS

    diagram = DIAGRAMS[key]
    position = parse_position(diagram.variant, diagram.position)
    options = BoardOptions(
        viewer=Side.WHITE,
        numbering=Side.WHITE,
        highlight_points=frozenset(diagram.highlight),
        dice=_dice(diagram.dice) if diagram.dice else None,
        labels=RU_LABELS if lang == "ru" else EN_LABELS,
        image_format="jpeg",
    )
    return render_board(position, options)


def forfeit_options(snap: Snapshot, view: ChatView) -> BoardOptions:
    """The game's board options, showing the dice of the last play (used ones crossed out,
    the forfeited ones plain) instead of the next player's roll and legal sources."""
    options = board_options(snap, view)
    event = last_play_event(snap.game)
    if event is None or event.side is None or len(event.dice) != 2:
        return replace(options, highlight_points=frozenset())
    used = tuple(step.die for step in event.steps)
    dice = used + burned_dice(event)
    if len(dice) not in (2, 4):  # a finished bear-off can leave fewer; show the roll as is
        dice, used = _dice((event.dice[0], event.dice[1])), ()
    viewer = options.viewer if view.owner_user_id is not None else event.side
    return replace(
        options,
        viewer=viewer,
        numbering=viewer,
        dice=dice,
        dice_used=len(used),
        dice_owner=event.side,
        highlight_points=frozenset(),
    )


def _game_view(message: Message, lang: str) -> ChatView:
    owner = message.chat.id if message.chat.type == "private" else None
    return ChatView(lang=lang, owner_user_id=owner)


# ---- sending ----------------------------------------------------------------------------------


async def _deliver(
    outbox: Outbox | None, chat_id: int, call: Callable[[], Awaitable[T]], *, kind: str = "send"
) -> T | None:
    """Through the chat's send budget when we have it (handlers); directly otherwise."""
    if outbox is None:
        return await call()
    return await outbox.run(chat_id, call, kind=kind)


async def send_page(message: Message, page: Page, outbox: Outbox | None) -> Message | None:
    """``page`` as a new photo message in ``message``'s chat (and forum topic)."""
    return await _deliver(
        outbox,
        message.chat.id,
        lambda: message.answer_photo(
            page.photo(), caption=page.caption, reply_markup=page.keyboard
        ),
    )


async def replace_page(
    message: Message, page: Page, outbox: Outbox | None, *, same_picture: bool = False
) -> bool:
    """Show ``page`` in ``message`` itself: only the caption and buttons when the picture
    stays, else the picture too. False when the message cannot become it: a text message
    (Telegram cannot turn text into a photo), deleted, or too old to edit."""
    if message.photo is None:
        return False
    call: Callable[[], Awaitable[object]]
    if same_picture:

        def call() -> Awaitable[object]:
            return message.edit_caption(caption=page.caption, reply_markup=page.keyboard)
    else:

        def call() -> Awaitable[object]:
            media = InputMediaPhoto(media=page.photo(), caption=page.caption)
            return message.edit_media(media=media, reply_markup=page.keyboard)

    try:
        await _deliver(outbox, message.chat.id, call, kind="edit")
    except TelegramBadRequest as exc:
        if not any(gone in exc.message for gone in GONE):
            raise
        return False
    return True


async def navigate(
    message: Message, page: Page, outbox: Outbox | None, *, same_picture: bool = False
) -> None:
    """A tap on a rules message shows ``page`` in that message. Where it cannot, the page comes
    as a new message and a tapped text message loses its buttons: tapping again could only
    post the same page twice."""
    if await replace_page(message, page, outbox, same_picture=same_picture):
        return
    await send_page(message, page, outbox)
    if message.photo is None and message.reply_markup is not None:
        with contextlib.suppress(TelegramBadRequest):
            await _deliver(
                outbox,
                message.chat.id,
                lambda: message.edit_reply_markup(reply_markup=None),
                kind="edit",
            )


async def show_topic(
    message: Message,
    lang: str,
    topic: Topic,
    *,
    variant: Variant | None = None,
    alternatives: Sequence[Topic] = (),
    lead: str = "",
    picture: bytes | None = None,
    outbox: Outbox | None = None,
) -> None:
    """Send ``topic`` as a new message in ``message``'s chat (and forum topic): the answer to a
    question (a new question deserves a new answer; navigating from it edits it)."""
    page = await topic_page(
        lang,
        topic,
        variant=variant or "long",
        alternatives=alternatives,
        lead=lead,
        picture=picture,
    )
    await send_page(message, page, outbox)


async def send_topic_for_rule(
    board: Message,
    lang: str,
    rule_id: str,
    snap: Snapshot,
    boards: Boards,
) -> None:
    """ "Why?" under a game's board: the topic that explains ``rule_id``, over the game as it
    stands with the dice of the last play, and one line saying what happened there (the
    example position would be about somebody else's game).

    A chat keeps one explanation per game: while the last one is still below the board (sent
    after the board message), it is edited in place — a second tap, or a later forfeit,
    never piles up copies; otherwise a new one is sent and the old one deleted.
    """
    topics = topics_for_rule(rule_id)
    if not topics:
        return
    topic = topics[0]
    snap = localized(snap, lang)
    lead = ""
    event = last_play_event(snap.game)
    if (
        event is not None
        and event.side is not None
        and (event.kind == "pass" or burned_dice(event))
    ):
        lead = "❓ " + event_line(lang, snap, event)
    else:
        rejection = get_rejection(rule_id)
        if rejection is not None:
            lead = "❓ " + h(rejection.message(as_lang(lang)))
    options = forfeit_options(snap, _game_view(board, lang))
    picture = await asyncio.to_thread(render_board, snap.game.current_position, options)
    variant = knowledge_variant(snap.match.variant_name)
    page = await topic_page(lang, topic, variant=variant, lead=lead, picture=picture)
    target = Target(board.chat.id, board.message_thread_id or 0)
    outbox = boards.outbox
    old = await boards.explanation_in(snap.game_id, target)
    if old is not None and old > board.message_id:
        try:
            await outbox.run(
                target.chat_id,
                lambda: boards.bot.edit_message_media(
                    media=InputMediaPhoto(media=page.photo(), caption=page.caption),
                    chat_id=target.chat_id,
                    message_id=old,
                    reply_markup=page.keyboard,
                ),
                kind="edit",
            )
            return
        except TelegramBadRequest as exc:
            if not any(gone in exc.message for gone in GONE):
                raise
    sent = await send_page(board, page, outbox)
    if sent is None:
        return
    await boards.keep_explanation(snap.game_id, target, sent.message_id)
    if old is not None:
        with contextlib.suppress(TelegramBadRequest):
            await outbox.run(
                target.chat_id,
                lambda: boards.bot.delete_message(target.chat_id, old),
                kind="edit",
            )


# ---- questions about the position on the table -----------------------------------------------


def asker_turn(snap: Snapshot, user_id: int | None) -> Turn | None:
    """The turn being played, if ``user_id`` is the player to move and the dice are rolled:
    only then are "why can't I play 13/7" and the dice the asker's own."""
    game = snap.game
    if game.phase is not Phase.MOVE or game.dice is None or user_id is None:
        return None
    if snap.user_ids.get(game.seat_to_act) != user_id:
        return None
    return game.turn


def _reason_line(lang: str, rule_id: str) -> str:
    rejection = get_rejection(rule_id)
    text = rejection.text.get(as_lang(lang)) if rejection is not None else rule_id
    return f"{h(text)} ({h(rule_id)})"


def _plays_line(lang: str, answer: PositionAnswer) -> str:
    if not answer.plays:
        return ""
    more = t(lang, "rules_pos_more", n=answer.more) if answer.more else ""
    return t(lang, "rules_pos_plays", plays=h(", ".join(answer.plays)) + more)


def position_text(lang: str, answer: PositionAnswer, dice: tuple[int, int]) -> str:
    """The answer in the asker's language (HTML; every engine text escaped)."""
    intent = answer.intent
    roll = f"{dice[0]}-{dice[1]}"
    lines: list[str] = []
    if answer.verdict is Verdict.NO_MOVES:
        lines.append(t(lang, "rules_pos_no_moves", dice=roll))
    elif answer.verdict is Verdict.UNREADABLE:
        lines.append(t(lang, "rules_pos_unreadable", move=h(intent.move)))
    elif intent.ask is Ask.MOVE:
        source = intent.move.split("/")[0]
        if answer.rule_id == "C-1" and " " not in intent.move and source.isdigit():
            # One checker's move from a point with none of the asker's: say which point.
            lines.append(t(lang, "rules_pos_no_checker", move=h(intent.move), point=source))
        elif answer.verdict is Verdict.ILLEGAL and answer.rule_id:
            lines.append(
                t(
                    lang,
                    "rules_pos_illegal",
                    move=h(intent.move),
                    reason=_reason_line(lang, answer.rule_id),
                )
            )
        else:
            key = "rules_pos_legal_whole" if answer.complete else "rules_pos_legal"
            lines.append(t(lang, key, move=h(intent.move), dice=roll))
            lines.append(_plays_line(lang, answer))
    elif intent.ask is Ask.FROM_POINT:
        point = t(lang, "rules_pos_bar") if intent.point == BAR else str(intent.point)
        if answer.verdict is Verdict.LEGAL:
            lines.append(t(lang, "rules_pos_from", point=point, steps=h(", ".join(answer.steps))))
            lines.append(_plays_line(lang, answer))
        else:
            lines.append(t(lang, "rules_pos_from_none", point=point, dice=roll))
            for item in answer.by_die:
                reason = _reason_line(lang, item.reason.rule_id)
                lines.append(f"• {item.die}: {reason}" if item.die else f"• {reason}")
    elif intent.ask is Ask.BEAR_OFF:
        if answer.verdict is Verdict.LEGAL:
            lines.append(t(lang, "rules_pos_bear", steps=h(", ".join(answer.steps))))
        elif answer.rule_id:
            lines.append(t(lang, "rules_pos_bear_none", reason=_reason_line(lang, answer.rule_id)))
    else:
        lines.append(t(lang, "rules_pos_all", dice=roll))
        lines.append(_plays_line(lang, answer))
    if answer.passes and answer.verdict is not Verdict.NO_MOVES:
        lines.append(t(lang, "rules_pos_passes"))
    return "\n".join(line for line in lines if line)


def position_keyboard(lang: str, answer: PositionAnswer) -> InlineKeyboardMarkup:
    """The topic that explains the rule (when one is named) and the menu."""
    buttons: list[InlineKeyboardButton] = []
    topics = topics_for_rule(answer.rule_id) if answer.rule_id else []
    if topics:
        buttons.append(
            _button("📖 " + topic_label(lang, topics[0]), RulesCB(view="topic", key=topics[0].id))
        )
    buttons.append(_button(t(lang, "rules_btn_menu"), RulesCB(view="menu", key=MENU_NEW)))
    return InlineKeyboardMarkup(inline_keyboard=_rows(buttons))


async def answer_position(
    message: Message,
    lang: str,
    snap: Snapshot,
    turn: Turn,
    answer: PositionAnswer,
    outbox: Outbox | None,
) -> None:
    """The answer over a picture of the board as it stands, the asked points marked."""
    game = snap.game
    options = replace(
        board_options(localized(snap, lang), _game_view(message, lang)),
        numbering=game.side_to_move,
        highlight_points=frozenset(answer.highlight),
    )
    picture = await asyncio.to_thread(render_board, game.current_position, options)
    caption = position_text(lang, answer, turn.dice)
    photo = BufferedInputFile(picture, filename="rules-position.jpg")
    keyboard = position_keyboard(lang, answer)
    await _deliver(
        outbox,
        message.chat.id,
        lambda: message.answer_photo(photo, caption=caption, reply_markup=keyboard),
    )


async def try_position_question(
    message: Message,
    lang: str,
    question: str,
    context: RulesContext,
    user_id: int | None,
    outbox: Outbox | None,
) -> bool:
    """Answer ``question`` from the game's position if it is one and the asker is to move."""
    if context.snap is None:
        return False
    intent = parse_intent(question[:QUESTION_LIMIT])
    turn = asker_turn(context.snap, user_id) if intent is not None else None
    if intent is None or turn is None:
        return False
    await answer_position(message, lang, context.snap, turn, explain(turn, intent), outbox)
    return True


# ---- questions about the rules ---------------------------------------------------------------


async def answer_question(
    message: Message,
    lang: str,
    question: str,
    context: RulesContext,
    outbox: Outbox | None,
    user_id: int | None = None,
) -> None:
    """A question about the position on the table (from the player to move) is answered
    from the engine; any other gets the best topic, with the runners-up as buttons and a
    close second named in a lead line; an honest "I don't know" with the menu when nothing
    is close enough."""
    if await try_position_question(message, lang, question, context, user_id, outbox):
        return
    results = match(
        question[:QUESTION_LIMIT], lang_hint=as_lang(lang), variant=context.game_variant
    )
    if not results:
        # A how-to about the bot itself is declined as a rules answer but still helped.
        text, keyboard = t(lang, "rules_unknown"), menu_keyboard(lang)
        if about_bot(question[:QUESTION_LIMIT]):
            text = t(lang, "rules_about_bot")
        elif maybe := suggest(
            question[:QUESTION_LIMIT], lang_hint=as_lang(lang), variant=context.game_variant
        ):
            text, keyboard = maybe_view(lang, [r.topic for r in maybe])
        await _deliver(
            outbox,
            message.chat.id,
            lambda: message.answer(text, reply_markup=keyboard),
        )
        return
    best = results[0].topic
    close = [r.topic for r in results[1:] if r.close]
    lead = ""
    if close:
        lead = t(lang, "rules_close", topic=h(close[0].title.get(as_lang(lang))))
    await show_topic(
        message,
        lang,
        best,
        variant=context.variant,
        alternatives=[r.topic for r in results[1:]],
        lead=lead,
        outbox=outbox,
    )


# ---- handlers ---------------------------------------------------------------------------------


async def rules_command(
    message: Message,
    command: CommandObject,
    lang: str,
    place: Place,
    games: GameService,
    outbox: Outbox,
) -> None:
    """``/rules`` — the menu; ``/rules <question>`` — the answer."""
    user_id = message.from_user.id if message.from_user else None
    context = await rules_context(lang, games, place, user_id)
    question = (command.args or "").strip()
    if question:
        await answer_question(message, lang, question, context, outbox, user_id)
        return
    page = await menu_page(lang, context, private=message.chat.type == "private")
    await send_page(message, page, outbox)


async def rules_button(
    query: CallbackQuery,
    callback_data: RulesCB,
    lang: str,
    place: Place,
    games: GameService,
    outbox: Outbox,
) -> None:
    """Every rules button shows its page in the message it is on (see the module doc)."""
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "rules_topic_gone"))
        return
    view, key = callback_data.view, callback_data.key
    page: Page | None = None
    same_picture = False
    if view == "topic":
        try:
            topic = get_topic(key)
        except KeyError:
            await query.answer(t(lang, "rules_topic_gone"), show_alert=True)
            return
        await query.answer()
        context = await rules_context(lang, games, place, query.from_user.id)
        page = await topic_page(lang, topic, variant=context.variant)
    elif view == "variant" and key in SECTIONS:
        await query.answer()
        context = await rules_context(lang, games, place, query.from_user.id)
        page = await section_page(lang, key, context.variant)
        same_picture = True  # sections are reached from the menu, over the same picture
    elif view == "menu":
        await query.answer()
        context = await rules_context(lang, games, place, query.from_user.id)
        page = await menu_page(lang, context, private=message.chat.type == "private")
        same_picture = key == MENU_IN_PLACE
        if key == RULES_MENU_APART:  # from a game's private view, which stays as it is
            await send_page(message, page, outbox)
            return
    if page is None:
        await query.answer(t(lang, "rules_topic_gone"), show_alert=True)
        return
    await navigate(message, page, outbox, same_picture=same_picture)


async def private_question(
    message: Message,
    lang: str,
    place: Place,
    games: GameService,
    outbox: Outbox,
) -> None:
    """Plain text in a private chat that no other router took (moves are taken first) is a
    question about the rules. Groups are left alone: people talk there."""
    user_id = message.from_user.id if message.from_user else None
    context = await rules_context(lang, games, place, user_id)
    await answer_question(message, lang, message.text or "", context, outbox, user_id)


async def why_command(
    message: Message,
    command: CommandObject,
    lang: str,
    place: Place,
    games: GameService,
    outbox: Outbox,
) -> None:
    """``/why <move>`` — why a move is (not) legal in the asker's game, from the engine; a
    question that names no move or point goes to the topics like ``/rules <question>``."""
    question = (command.args or "").strip()
    if not question:
        await _deliver(outbox, message.chat.id, lambda: message.answer(t(lang, "why_usage")))
        return
    user_id = message.from_user.id if message.from_user else None
    context = await rules_context(lang, games, place, user_id)
    if await try_position_question(message, lang, question, context, user_id, outbox):
        return
    if parse_intent(question[:QUESTION_LIMIT]) is not None:
        # A move or a point, but these are not the asker's dice: say when it works.
        await _deliver(
            outbox,
            message.chat.id,
            lambda: message.answer(t(lang, "why_no_turn"), reply_markup=menu_keyboard(lang)),
        )
        return
    await answer_question(message, lang, question, replace(context, snap=None), outbox, user_id)


def router() -> Router:
    """Included last: it takes only what no other router wanted (see the module doc)."""
    r = Router(name="rules")
    private = {"answer": "private"}  # in a group only the asker sees it (bot.private)
    r.message.register(rules_command, Command("rules"), flags=private)
    r.message.register(why_command, Command("why"), flags=private)
    r.callback_query.register(rules_button, RulesCB.filter(), flags=private)
    r.message.register(private_question, F.chat.type == "private", F.text, ~F.text.startswith("/"))
    return r
