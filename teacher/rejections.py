"""One-line reasons for rejected moves, keyed by RULES.md rule ID (RULES.md §8.1).

The engine names the first rule a move breaks (an ID such as ``"L-8"``); the bot turns that
ID into words here, so the engine never carries user text. Each line is short enough to sit
in an answer to a button press ("why?"), and the full explanation is one tap away through
``topics_for_rule``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from teacher.model import Rejection, Text


def _r(rule_id: str, ru: str, en: str) -> Rejection:
    return Rejection(rule_id=rule_id, text=Text(ru=ru, en=en))


_ALL: tuple[Rejection, ...] = (
    _r(
        "C-1",
        "это не ваша шашка или на этом пункте нет ваших шашек",
        "that is not your checker, or you have none on that point",
    ),
    _r(
        "C-4",
        "шашки ходят только вперёд, к пунктам с меньшими номерами",
        "checkers only move forward, towards lower-numbered points",
    ),
    _r(
        "C-13",
        "сейчас ход соперника",
        "it is your opponent's turn",
    ),
    _r(
        "C-15",
        "шаг должен быть ровно на число одного из несыгранных зар",
        "each step must match one of your unused dice exactly",
    ),
    _r(
        "C-17",
        "на промежуточном пункте шашке стоять нельзя",
        "the checker can't stop on the point in between",
    ),
    _r(
        "C-18",
        "ходов нет, ход переходит к сопернику",
        "there is no legal move, so the turn passes",
    ),
    _r(
        "C-19",
        "бросок можно сыграть полнее: нужно использовать оба зара",
        "more of the roll can be played: you must use both dice",
    ),
    _r(
        "C-20",
        "сыграть можно только одно число, и это должно быть большее",
        "only one number can be played, and it must be the larger one",
    ),
    _r(
        "C-21",
        "из дубля нужно сделать столько шагов, сколько возможно",
        "play as many steps of the double as possible",
    ),
    _r(
        "C-22",
        "это число сыграть нельзя, оно сгорает",
        "this number can't be played, so it is lost",
    ),
    _r(
        "C-23",
        "ход ещё не закончен: сыграйте оставшиеся зары",
        "the turn isn't complete yet: play the remaining dice",
    ),
    _r(
        "C-24",
        "выбрасывать можно, только когда все шашки в доме",
        "you can bear off only when all your checkers are home",
    ),
    _r(
        "C-26",
        "большим заром снимают с младшего пункта, только если на старших пусто",
        "a larger die bears off from a lower point only when no checker stands higher",
    ),
    _r(
        "C-27",
        "на этом пункте пусто, а выше шашки есть: сыграйте зар ходом внутри дома",
        "that point is empty but checkers stand higher: move inside home with this die",
    ),
    _r(
        "C-32",
        "партия уже окончена",
        "the game is already over",
    ),
    _r(
        "L-6",
        "в длинных нардах нельзя вставать на пункт с шашкой соперника",
        "in long nardy you can't land on a point the opponent occupies",
    ),
    _r(
        "L-8",
        "с головы можно снять только одну шашку за ход",
        "only one checker may leave the head per turn",
    ),
    _r(
        "L-11",
        "вторую шашку с головы на первом ходу дают только 6-6, 4-4 и 3-3",
        "on the first turn only 6-6, 4-4 or 3-3 let a second checker off the head",
    ),
    _r(
        "L-12",
        "путь закрывает не голова соперника, а его сыгранная шашка: вторая с головы не положена",
        "a moved opponent checker, not their head, blocks the way: no second head checker",
    ),
    _r(
        "L-14",
        "две шашки с головы можно снять только на первом ходу",
        "two checkers may leave the head only on the first turn",
    ),
    _r(
        "L-16",
        "нельзя ставить блок из шести, пока ни одна шашка соперника не прошла его",
        "no six-point block until an opponent checker has got past it",
    ),
    _r(
        "L-17",
        "блок из шести нельзя замыкать даже на один шаг, «пробегом»",
        "a six-point block is not allowed even for one step in passing",
    ),
    _r(
        "V-1",
        "в конце хода остаётся блок из шести без шашки соперника впереди",
        "a six-point block with no opponent checker past it remains at the end of the turn",
    ),
    _r(
        "V-2",
        "блок из шести можно ставить, только когда шашка соперника дошла до его дома",
        "a six-point block needs an opponent checker already in their home",
    ),
    _r(
        "V-7",
        "выбрасывать можно только со следующего хода после захода в дом",
        "bearing off starts only on the turn after your last checker comes home",
    ),
    _r(
        "S-5",
        "пункт закрыт: на нём две или больше шашки соперника",
        "that point is closed: two or more opponent checkers stand there",
    ),
    _r(
        "S-11",
        "сначала введите шашку с бара",
        "enter your checker from the bar first",
    ),
    _r(
        "S-12",
        "пункт входа закрыт",
        "that entry point is closed",
    ),
    _r(
        "S-13",
        "с бара входят на число одного зара, сумма не считается",
        "you enter with one die's number; the dice can't be added up",
    ),
    _r(
        "S-15",
        "с бара не войти ни на одно число, ход пропадает",
        "no number lets you enter from the bar, so the turn is lost",
    ),
    _r(
        "S-19",
        "нельзя выбрасывать, пока шашка на баре или вне дома",
        "no bearing off while a checker is on the bar or outside home",
    ),
    _r(
        "S-20",
        "сначала верните побитую шашку домой, потом выбрасывайте",
        "bring your hit checker back home before bearing off again",
    ),
    _r(
        "M-9",
        "удвоение предлагают только в начале своего хода, до броска",
        "a double can be offered only at the start of your turn, before rolling",
    ),
    _r(
        "M-10",
        "переудвоить может только тот, у кого куб",
        "only the player who owns the cube can redouble",
    ),
    _r(
        "M-12",
        "куб уже на максимуме, 64",
        "the cube is already at its highest value, 64",
    ),
    _r(
        "M-14",
        "в этой игре куб удвоения выключен",
        "the doubling cube is off in this game",
    ),
    _r(
        "V-16",
        "в партии Кроуфорда удваивать нельзя",
        "no doubling in the Crawford game",
    ),
)

REJECTIONS: Mapping[str, Rejection] = MappingProxyType({r.rule_id: r for r in _ALL})
"""Rejection reasons by rule ID."""


def get_rejection(rule_id: str) -> Rejection | None:
    """The reason for ``rule_id``, or ``None`` if the catalog has no line for it.

    Returning ``None`` rather than raising lets a handler fall back to a generic line (and
    log the gap) instead of failing a user's move.
    """
    return REJECTIONS.get(rule_id.strip().upper())
