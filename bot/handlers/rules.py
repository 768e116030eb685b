"""/rules: a menu of topics, answers to questions, and "why?" explanations.

The words and the matching live in :mod:`teacher`; the pictures come from the renderer.
This module only decides what to show where:

* ``/rules`` opens a menu (Long / Short / General → topics) that is navigated in place, so a
  chat keeps one menu message however long someone browses;
* a topic is always a *new* message — a photo of its example position with the text as the
  caption, or plain text when the topic has no picture — so it stays readable in the chat
  history while the menu moves on;
* ``/rules <words>`` (anywhere) and plain text in a private chat are questions for the
  matcher. The play router sees text first and takes move notation; this router is included
  last, so it only gets what nobody else wanted;
* a question about the position (``/why 13/7``, «почему нельзя 13/7?», "why can't I bear
  off?") from the player to move is answered from the engine on the game's position and dice
  (:mod:`teacher.position`), with a picture of the board and the rule's topic one tap away.
"""

from __future__ import annotations

import asyncio
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
    Message,
)

from bot.boards import GONE
from bot.callbacks import RulesCB
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
    all_topics,
    get_diagram,
    get_rejection,
    get_topic,
    match,
    topics_for_rule,
)
from teacher.position import Ask, PositionAnswer, Verdict, explain, parse_intent

T = TypeVar("T")

CAPTION_LIMIT = 1024  # Telegram's limit for a photo caption, counted after HTML parsing
QUESTION_LIMIT = 400  # longer "questions" are chatter; the matcher needs only a few words
SECTIONS = ("long", "short", "general")
MENU_IN_PLACE = ""  # RulesCB(view="menu") key: Back — edit the menu message in place
MENU_NEW = "new"  # RulesCB(view="menu") key: from under a topic — send a fresh menu
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


async def _deliver(outbox: Outbox | None, chat_id: int, call: Callable[[], Awaitable[T]]) -> None:
    """Through the chat's send budget when we have it (handlers); directly otherwise."""
    if outbox is None:
        await call()
    else:
        await outbox.run(chat_id, call)


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
    """Send ``topic`` as a new message in ``message``'s chat (and forum topic)."""
    keyboard = topic_keyboard(lang, topic, alternatives)
    if picture is None:
        own: Variant | None = topic.applies_to if topic.applies_to != "both" else variant
        diagram = get_diagram(topic.diagram, own)
        if diagram is not None:
            picture = await asyncio.to_thread(diagram_picture, diagram.key, as_lang(lang))
    caption = topic_caption(lang, topic, lead)
    if picture is not None:
        photo = BufferedInputFile(picture, filename=f"rules-{topic.id}.jpg")
        await _deliver(
            outbox,
            message.chat.id,
            lambda: message.answer_photo(photo, caption=caption, reply_markup=keyboard),
        )
    else:
        await _deliver(
            outbox, message.chat.id, lambda: message.answer(caption, reply_markup=keyboard)
        )


async def send_topic_for_rule(
    message: Message, lang: str, rule_id: str, snap: Snapshot | None = None
) -> None:
    """The topic that explains ``rule_id``, as a new message in ``message``'s chat.

    With ``snap`` (a game, e.g. after "why did my die burn?") the picture is the game as it
    stands, with the dice of the last play, and one line says what happened there; the
    example position would be about somebody else's game.
    """
    topics = topics_for_rule(rule_id)
    if not topics:
        return
    topic = topics[0]
    if snap is None:
        await show_topic(message, lang, topic)
        return
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
    options = forfeit_options(snap, _game_view(message, lang))
    picture = await asyncio.to_thread(render_board, snap.game.current_position, options)
    variant = knowledge_variant(snap.match.variant_name)
    await show_topic(message, lang, topic, variant=variant, lead=lead, picture=picture)


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
        if answer.verdict is Verdict.ILLEGAL and answer.rule_id:
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
        await _deliver(
            outbox,
            message.chat.id,
            lambda: message.answer(t(lang, "rules_unknown"), reply_markup=menu_keyboard(lang)),
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
    text = menu_text(lang, context, private=message.chat.type == "private")
    await _deliver(
        outbox, message.chat.id, lambda: message.answer(text, reply_markup=menu_keyboard(lang))
    )


async def rules_button(
    query: CallbackQuery,
    callback_data: RulesCB,
    lang: str,
    place: Place,
    games: GameService,
    outbox: Outbox,
) -> None:
    """Menu navigation (edits the menu message) and topics (new messages)."""
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "rules_topic_gone"))
        return
    view, key = callback_data.view, callback_data.key
    if view == "topic":
        try:
            topic = get_topic(key)
        except KeyError:
            await query.answer(t(lang, "rules_topic_gone"), show_alert=True)
            return
        await query.answer()
        context = await rules_context(lang, games, place, query.from_user.id)
        await show_topic(message, lang, topic, variant=context.variant, outbox=outbox)
        return
    if view == "variant" and key in SECTIONS:
        await query.answer()
        text, keyboard = section_view(lang, key)
        await _show_menu_page(message, text, keyboard, in_place=True, outbox=outbox)
        return
    if view == "menu":
        await query.answer()
        context = await rules_context(lang, games, place, query.from_user.id)
        text = menu_text(lang, context, private=message.chat.type == "private")
        await _show_menu_page(
            message, text, menu_keyboard(lang), in_place=key == MENU_IN_PLACE, outbox=outbox
        )
        return
    await query.answer(t(lang, "rules_topic_gone"), show_alert=True)


async def _show_menu_page(
    message: Message,
    text: str,
    keyboard: InlineKeyboardMarkup,
    *,
    in_place: bool,
    outbox: Outbox,
) -> None:
    """Edit the menu message in place; a photo (a topic) cannot become text, and a topic the
    player just read should stay, so from under a topic the menu comes as a new message."""
    chat_id = message.chat.id
    if in_place and message.photo is None and message.text is not None:
        try:
            await outbox.run(
                chat_id, lambda: message.edit_text(text, reply_markup=keyboard), kind="edit"
            )
            return
        except TelegramBadRequest as exc:
            if not any(gone in exc.message for gone in GONE):
                raise
            # deleted, or too old to edit (groups): carry on in a new message
    await outbox.run(chat_id, lambda: message.answer(text, reply_markup=keyboard))


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
