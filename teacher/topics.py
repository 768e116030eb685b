"""The 24 rules explanations of RULES.md §8, in Russian and English.

Written for a phone screen: each body stays under about 700 characters so that title plus
body fit a Telegram photo caption (1024). Bodies cite the RULES.md IDs they explain in
brackets. Where RULES.md §9 records a contradiction between the seeds, the body says what
the bot does by default and names the V-rule a group can switch on in /settings.

Keyword phrases feed the matcher (see ``Keywords`` for the ``!``/``~`` weight marks). They
are written as players ask, in the forms and misspellings the stemmer does not join by
itself; Latin transliterations are derived from the Russian phrases, not listed.
"""

from __future__ import annotations

from teacher.model import Keywords, Text, Topic

TOPICS: tuple[Topic, ...] = (
    Topic(
        id="board",
        number=1,
        title=Text(
            ru="Доска, пункты, четверти и дом",
            en="Board, points, quarters and home",
        ),
        body=Text(
            ru=(
                "На доске 24 пункта (лунки), по 12 вдоль каждой длинной стороны: четыре четверти "
                "по 6. Посередине проходит полоса — бар, он нужен только в коротких (C-2). Бот "
                "нумерует пункты для каждого игрока отдельно: 24 — самый дальний, с него путь "
                "начинается, 1 — последний перед выходом с доски; шашки всегда идут к меньшим "
                "номерам (C-4). Дом — ваши пункты 1–6, выбрасывать можно только оттуда (C-5). Один "
                "и тот же пункт у соперника имеет другой номер: в длинных ваш p — это его p±12, в "
                "коротких — 25−p (C-7, C-8). Четверти: 19–24, 13–18, 7–12 (в коротких это ваш "
                "двор) и дом 1–6 (C-9)."
            ),
            en=(
                "The board has 24 points, 12 along each long side, grouped in four quarters of 6. "
                "The strip down the middle is the bar, used only in short nardy (C-2). The bot "
                "numbers the points separately for each player: 24 is the farthest, where your "
                "journey starts, and 1 is the last point before leaving the board; checkers always "
                "move to lower numbers (C-4). Your home is points 1–6, and checkers leave the "
                "board only from there (C-5). The opponent numbers the same point differently: in "
                "long nardy your p is their p±12, in short nardy their 25−p (C-7, C-8). Quarters: "
                "19–24, 13–18, 7–12 (your outer board in short nardy) and home 1–6 (C-9)."
            ),
        ),
        rule_ids=("C-2", "C-4", "C-5", "C-7", "C-8", "C-9"),
        applies_to="both",
        related=("setup", "pip_count", "bearoff_when"),
        keywords=Keywords(
            ru=(
                "!доска",
                "устройство доски",
                "как устроена доска",
                "!в какую сторону",
                "куда двигаются шашки",
                "частей",
                "доске",
                "середина доски",
                "~пункт",
                "лунка",
                "ячейка",
                "треугольник",
                "!четверть",
                "четверти",
                "квадрант",
                "!нумерация",
                "нумеруются",
                "номер пункта",
                "номера пунктов",
                "~дом",
                "где дом",
                "где мой дом",
                "двор",
                "сколько пунктов",
                "в какую сторону",
                "направление",
                "по часовой",
                "против часовой",
            ),
            en=(
                "!board",
                "bar in the middle",
                "~point",
                "points numbered",
                "numbering",
                "numbers of points",
                "quarter",
                "quadrant",
                "home board",
                "where is home",
                "where is my home",
                "outer board",
                "yard",
                "triangle",
                "how many points on the board",
                "direction",
                "which way do checkers move",
                "which way",
                "clockwise",
                "counterclockwise",
            ),
        ),
    ),
    Topic(
        id="setup",
        number=2,
        title=Text(ru="Начальная расстановка", en="Starting position"),
        body=Text(
            ru=(
                "У каждого 15 шашек своего цвета, и ходить можно только своими (C-1).\n"
                "Длинные нарды: все 15 шашек стоят на одном пункте — голове, это ваш 24-й. Голова "
                "соперника — по диагонали от вашей, на вашем 12-м пункте (L-1). Оба игрока обходят "
                "доску по кругу в одну сторону (L-2).\n"
                "Короткие нарды: со своей стороны ставите 2 шашки на 24, 5 на 13, 3 на 8 и 5 на 6. "
                "У соперника всё так же, только зеркально, поэтому его шашки оказываются на ваших "
                "пунктах 1, 12, 17 и 19 (S-1). Здесь игроки идут навстречу друг другу (S-2)."
            ),
            en=(
                "Each player has 15 checkers of one colour and moves only their own (C-1).\n"
                "Long nardy: all 15 checkers start on a single point, the head, which is your 24. "
                "The opponent's head is diagonally across, on your 12 (L-1). Both players travel "
                "round the board in the same direction (L-2).\n"
                "Short nardy (backgammon): from your side, put 2 checkers on 24, 5 on 13, 3 on 8 "
                "and 5 on 6. The opponent has the mirror image, so their checkers stand on your "
                "points 1, 12, 17 and 19 (S-1). Here the two sides move towards each other (S-2)."
            ),
        ),
        rule_ids=("C-1", "L-1", "L-2", "S-1", "S-2"),
        applies_to="both",
        related=("board", "head_rule", "first_player"),
        keywords=Keywords(
            ru=(
                "!расстановка",
                "расстановку",
                "сколько шашек у игрока",
                "15 шашек",
                "расставить",
                "расставлять",
                "расставляются",
                "начальная позиция",
                "стартовая позиция",
                "исходная позиция",
                "как ставить шашки в начале",
                "где стоят шашки в начале",
                "шашки в начале",
                "в начале игры",
                "начало игры",
                "~голова",
                "голова в начале",
                "как расположить шашки",
                "ставится в начале",
            ),
            en=(
                "!setup",
                "15 checkers",
                "set up",
                "how many checkers",
                "starting position",
                "start position",
                "initial position",
                "arrange",
                "where checkers start",
                "beginning of the game",
                "start of game",
                "place checkers",
            ),
        ),
        diagram="setup",
    ),
    Topic(
        id="first_player",
        number=3,
        title=Text(ru="Кто ходит первым; цвета", en="Who moves first; colours"),
        body=Text(
            ru=(
                "Первую партию начинает жребий: каждый бросает по одному зару, у кого больше, тот "
                "и ходит, а при равных числах бросают снова (C-12, M-16). Дальше ходят по очереди "
                "(C-13).\n"
                "Длинные: победитель жребия берёт белые и для первого хода бросает оба зара "
                "заново, так что первым ходом может выпасть и дубль (L-4, L-5). В /settings группа "
                "может включить вариант, где сразу играют числами жребия (V-3).\n"
                "Короткие: выигравший жребий тут же ходит двумя выпавшими числами, без переброса, "
                "поэтому первый ход не бывает дублем (S-4). Цвета просто назначаются и держатся "
                "весь матч (S-3). Кто начинает следующие партии — в теме «Матч»."
            ),
            en=(
                "The first game opens with a roll: each player throws one die, the higher number "
                "starts, and equal numbers are rolled again (C-12, M-16). After that you take "
                "turns (C-13).\n"
                "Long nardy: the winner of the roll takes white and then rolls both dice afresh "
                "for the first move, so it may even be a double (L-4, L-5). A group can switch to "
                "playing the numbers of that first roll instead in /settings (V-3).\n"
                "Short nardy: the winner plays the two numbers just rolled, with no re-roll, so "
                "the first move is never a double (S-4). Colours are simply assigned and kept for "
                "the whole match (S-3). Who starts later games: see «Matches»."
            ),
        ),
        rule_ids=("C-12", "C-13", "L-4", "L-5", "S-3", "S-4", "M-16", "V-3"),
        applies_to="both",
        related=("setup", "first_move_exception", "match"),
        keywords=Keywords(
            ru=(
                "!кто ходит первым",
                "кто первый ходит",
                "кто начинает",
                "кто первый",
                "!жребий",
                "бросают снова",
                "розыгрыш первого хода",
                "разыгрывается первый ход",
                "право первого хода",
                "первый бросок",
                "цвет",
                "цвета",
                "белые",
                "черные",
                "кто играет белыми",
                "выбор цвета",
                "белые ходят первыми",
                "кто начинает игру",
                "какими числами первый ход",
                "по одному зару",
                "выпало одинаково",
                "одинаковые у обоих",
                "у него выпало",
                "выиграл жребий",
            ),
            en=(
                "!who goes first",
                "first player",
                "decide who",
                "which colour",
                "what colour",
                "who moves first",
                "who starts",
                "who plays first",
                "opening roll",
                "both roll the same",
                "roll again",
                "!lot",
                "first roll",
                "colour",
                "colours",
                "color",
                "colors",
                "white",
                "black",
                "who plays white",
                "roll for first",
                "we both rolled",
                "both rolled",
                "one die each",
                "won the opening roll",
            ),
        ),
    ),
    Topic(
        id="dice",
        number=4,
        title=Text(ru="Как играть зарами; дубль (куш)", en="How the dice are played; doubles"),
        body=Text(
            ru=(
                "Зары бросает бот (C-11). Каждый зар — это один шаг одной шашки ровно на столько "
                "пунктов, сколько на нём выпало. При 5-3 вы ходите на 5 и на 3: одной шашкой "
                "дважды или двумя шашками по разу, в любом порядке (C-14, C-16). Делить зар или "
                "менять числа нельзя: из 5-3 не сделать 4+4 или 6+2 (C-15).\n"
                "Куш (дубль) — четыре шага на выпавшее число: при 3-3 это 3+3+3+3.\n"
                "Если одна шашка идёт на сумму, она делает остановку на промежуточном пункте, и "
                "встать туда тоже должно быть можно (C-17)."
            ),
            en=(
                "The bot rolls the dice for you (C-11). Each die is one step of one checker by "
                "exactly the number shown. With 5-3 you move a 5 and a 3: one checker twice or two "
                "checkers once each, in either order (C-14, C-16). You can't split a die or swap "
                "numbers: 5-3 never becomes 4+4 or 6+2 (C-15).\n"
                "A double (kush) gives four steps of that number: 3-3 is 3+3+3+3.\n"
                "When one checker moves the total, it stops on the point in between, and it must "
                "be allowed to stand there too (C-17)."
            ),
        ),
        rule_ids=("C-11", "C-14", "C-15", "C-16", "C-17"),
        applies_to="both",
        related=("forced_move", "full_move", "occupied_point"),
        keywords=Keywords(
            ru=(
                "!зары",
                "как играть зары",
                "как играются",
                "зар",
                "кубики",
                "кости",
                "бросок",
                "!дубль",
                "!куш",
                "гош",
                "паш",
                "одинаковые числа",
                "как ходить",
                "как ходят",
                "сумма зар",
                "сложить зары",
                "складывать",
                "разделить",
                "делить зар",
                "разбить",
                "разбивать",
                "разные числа",
                "одной шашкой на сумму",
                "промежуточный",
                "остановка",
                "четыре хода",
                "дубль сколько ходов",
                "как двигать шашки",
                "ходить одной шашкой",
                "одной шашкой оба",
                "одну шашку на оба",
                "~две шашки",
                "выпало как ходить",
                "в каком порядке",
                "порядок зар",
                "какой зар сначала",
                "ходить одной шашкой на сумму",
            ),
            en=(
                "dice",
                "dice work",
                "how do dice",
                "die",
                "roll",
                "!doubles",
                "~double",
                "kush",
                "same numbers",
                "how do i move",
                "add the dice",
                "add up",
                "sum",
                "split",
                "total",
                "one checker both dice",
                "one checker both",
                "one checker both numbers",
                "stop in between",
                "four moves",
                "~two checkers",
                "which die first",
                "order of the dice",
                "does the order matter",
            ),
        ),
    ),
    Topic(
        id="forced_move",
        number=5,
        title=Text(
            ru="Обязан ли я ходить? Почему сгорел зар",
            en="Must I move? Why did a die burn?",
        ),
        body=Text(
            ru=(
                "Если есть хоть один разрешённый ход, ходить обязательно, даже себе во вред "
                "(C-18). Если не может сдвинуться ни одна шашка, ход пропускается.\n"
                "Число, которое сыграть нельзя, пропадает — говорят, зар «сгорает» (C-22). Бот "
                "перебирает все способы сыграть бросок и оставляет только те, что используют его "
                "по максимуму: оба зара, если получится, иначе больший, а из куша — сколько влезет "
                "(C-19 … C-21, C-23).\n"
                "Поэтому зар сгорает, когда шашке некуда встать, пункт занят или ход нарушил бы "
                "правило головы либо запрет блока."
            ),
            en=(
                "If any legal move exists, you must make it, even when it hurts you (C-18). If no "
                "checker can move at all, your turn passes.\n"
                "A number that can't be played is lost; players say the die «burns» (C-22). The "
                "bot lists every way to play your roll and keeps only those that use as much of it "
                "as possible: both dice if you can, otherwise the larger one, and as many steps of "
                "a double as fit (C-19 … C-21, C-23).\n"
                "So a die burns when there is nowhere to land, the point is taken, or the move "
                "would break the head rule or the six-block rule."
            ),
        ),
        rule_ids=("C-18", "C-19", "C-20", "C-21", "C-22", "C-23"),
        applies_to="both",
        related=("full_move", "locked_checker", "head_rule"),
        keywords=Keywords(
            ru=(
                "!сгорает",
                "!сгорел",
                "сгорели",
                "сгорело",
                "сгорит",
                "сгорают",
                "сгорают зары",
                "сгорела",
                "пропал",
                "пропадает",
                "пропали",
                "теряется",
                "!пропуск хода",
                "пропустить ход",
                "пропускаю ход",
                "пропустил",
                "обязан ходить",
                "обязательно ходить",
                "надо ходить",
                "должен ходить",
                "нет ходов",
                "не могу походить",
                "не могу сходить",
                "не ходить",
                "нельзя сходить",
                "нельзя походить",
                "не играть",
                "не идет",
                "отказаться от хода",
                "невыгодный ход",
                "некуда ходить",
                "нет возможности сходить",
                "заставил",
                "заставляет",
                "куда делся",
                "~не дал сыграть",
                "~не дает сходить",
                "~не дает походить",
                "пропуск",
                "пас",
                "ни одна шашка не идет",
                "ни одного хода",
                "ходить некуда",
            ),
            en=(
                "!burn",
                "burned",
                "burnt",
                "burns",
                "forfeit",
                "lost",
                "lose",
                "!pass",
                "пас",
                "пасс",
                "skip",
                "skipped",
                "must i move",
                "forced",
                "have to move",
                "no legal move",
                "no moves",
                "cannot move",
                "can't move",
                "refuse to move",
                "choose not to move",
                "not to move",
                "forced me",
                "disappeared",
                "cannot move at all",
                "no move at all",
                "must move",
                "forced to move",
            ),
        ),
    ),
    Topic(
        id="full_move",
        number=6,
        title=Text(
            ru="Оба зара, больший зар, куш по максимуму",
            en="Both dice, the larger die, doubles in full",
        ),
        body=Text(
            ru=(
                "Правило полного хода: если бросок можно сыграть целиком, выбирать нужно из таких "
                "вариантов, даже если сыграть один зар было бы выгоднее (C-19).\n"
                "Если вместе числа не проходят и годится любое из них по отдельности, играется "
                "большее; меньшее играют, только когда большее не идёт совсем (C-20).\n"
                "Из куша делаете столько шагов, сколько возможно, остальные сгорают (C-21).\n"
                "Пример: выпало 6-5, но после любого из чисел второе сыграть некуда. Тогда "
                "обязательно ходите на 6, а пятёрка сгорает."
            ),
            en=(
                "The full-move rule: if the whole roll can be played, you must choose one of the "
                "ways that does so, even if playing a single die would suit you better (C-19).\n"
                "If the two numbers can't both be played but either works alone, you play the "
                "larger; the smaller is allowed only when the larger can't be played at all "
                "(C-20).\n"
                "With a double, make as many of the four steps as you can; the rest burn (C-21).\n"
                "Example: you roll 6-5, and whichever you play first, the other has nowhere to go. "
                "Then you must play the 6, and the 5 burns."
            ),
        ),
        rule_ids=("C-19", "C-20", "C-21"),
        applies_to="both",
        related=("forced_move", "dice"),
        keywords=Keywords(
            ru=(
                "!полный ход",
                "дубль обязательно",
                "дубль полностью",
                "дубль целиком",
                "правило полного хода",
                "оба зара",
                "обязательно использовать",
                "использовать весь бросок",
                "обе кости",
                "оба числа",
                "!больший зар",
                "большее число",
                "старший зар",
                "большой зар",
                "меньший зар",
                "меньшее число",
                "младший зар",
                "только один зар",
                "только одну кость",
                "одно число",
                "какой зар играть",
                "оба",
                "второй зар",
                "сыграть полностью",
                "все 4 хода",
                "сократить ход",
                "сыграть меньше",
                "только одно сыграть",
            ),
            en=(
                "both dice",
                "use the whole roll",
                "use both",
                "both numbers",
                "!larger die",
                "larger number",
                "higher number",
                "higher die",
                "bigger number",
                "bigger die",
                "smaller die",
                "smaller number",
                "only one die",
                "full move",
                "which die to play",
                "play one die",
                "just one die",
                "both",
                "all four",
                "second die",
                "whole roll",
                "play less",
                "only the larger",
                "only play one",
                "play only one",
                "can only play one",
            ),
        ),
    ),
    Topic(
        id="occupied_point",
        number=7,
        title=Text(ru="Куда можно встать (длинные)", en="Where can I land? (long nardy)"),
        body=Text(
            ru=(
                "В длинных нардах шашки не бьют. Нельзя ставить шашку на пункт, где стоит хотя бы "
                "одна шашка соперника, — ни в конце хода, ни на промежуточной остановке (L-6, "
                "C-17). Перепрыгивать такие пункты можно: шестёркой шашка перелетает через голову "
                "соперника, а вот закончить шаг на ней нельзя.\n"
                "Шашки соперника могут стоять и у вас в доме: встать туда нельзя, но выбрасывать "
                "они не мешают (L-7).\n"
                "В коротких нардах правило другое — см. «Бой и блоты»."
            ),
            en=(
                "Long nardy has no hitting. You may not put a checker on a point where even one "
                "opponent checker stands, neither at the end of a move nor at a stop in between "
                "(L-6, C-17). Jumping over such points is fine: a 6 can fly over the opponent's "
                "head, but a step may not end on it.\n"
                "Opponent checkers may also sit in your home: you can't land there, but they never "
                "stop you bearing off (L-7).\n"
                "Short nardy works differently: see «Hitting and blots»."
            ),
        ),
        rule_ids=("L-6", "L-7", "C-17"),
        applies_to="long",
        related=("hitting", "dice", "head_rule"),
        keywords=Keywords(
            ru=(
                "занятый пункт",
                "занятая лунка",
                "пункт занят",
                "лунка занята",
                "занято",
                "встать на шашку соперника",
                "на чужую шашку",
                "чужая",
                "на одном пункте с соперником",
                "шашка соперника",
                "!перепрыгнуть",
                "перепрыгивать",
                "перескочить",
                "через шашку",
                "через голову",
                "куда можно встать",
                "можно ли встать",
                "куда можно ставить",
                "голова соперника",
                "вражеская голова",
                "бить в длинных",
                "бьют в длинных",
                "не бьют",
                "занимает пункт",
                "одна шашка занимает",
            ),
            en=(
                "occupied",
                "occupied point",
                "share a point",
                "land on opponent",
                "opponent's checker",
                "opponent checker",
                "!jump over",
                "jump",
                "can i land",
                "land on",
                "where can i land",
                "opponent's head",
                "hit in long",
                "hitting in long",
                "one checker there",
                "one opponent checker",
                "a single checker there",
            ),
        ),
    ),
    Topic(
        id="head_rule",
        number=8,
        title=Text(ru="Правило головы", en="The head rule"),
        body=Text(
            ru=(
                "Голова — ваш стартовый пункт (24), где в начале стоят все 15 шашек. За один ход с "
                "головы можно снять не больше одной шашки (L-8). Снятая шашка может пойти дальше "
                "на второй зар, а можно сыграть его любой шашкой, которая уже в игре (L-9).\n"
                "С дублем так же: в середине партии при 6-6 с головы уходит одна шашка, даже если "
                "из-за этого часть шестёрок сгорит (L-14).\n"
                "Исключение бывает только на самом первом ходу каждого игрока — см. «Первый ход: "
                "две с головы»."
            ),
            en=(
                "The head is your starting point (24), where all 15 checkers begin. In one turn at "
                "most one checker may leave the head (L-8). That checker may carry on with the "
                "other die, or the other die may be played by any checker already in play (L-9).\n"
                "Doubles are no different: in mid-game a 6-6 still lets only one checker off the "
                "head, even if some sixes burn as a result (L-14).\n"
                "The only exception is each player's very first turn: see «First move: two off the "
                "head»."
            ),
        ),
        rule_ids=("L-8", "L-9", "L-14"),
        applies_to="long",
        related=("first_move_exception", "setup", "forced_move"),
        keywords=Keywords(
            ru=(
                "!голова",
                "!с головы",
                "снять с головы",
                "взять с головы",
                "ход с головы",
                "!правило головы",
                "одну шашку с головы",
                "сколько шашек с головы",
                "сколько можно снять",
                "сколько снимать",
                "снимать с головы",
                "рука",
                "с руки",
                "стартовый пункт",
                "две с головы",
                "вторую с головы",
                "!в середине игры",
                "!в середине партии",
            ),
            en=(
                "!head",
                "!off the head",
                "from the head",
                "head rule",
                "take from the head",
                "how many from the head",
                "leave the head",
                "starting point",
                "two from the head",
                "!mid game",
                "!middle of the game",
                "later in the game",
            ),
        ),
        diagram="head_rule",
    ),
    Topic(
        id="first_move_exception",
        number=9,
        title=Text(ru="Первый ход: две шашки с головы", en="First move: two off the head"),
        body=Text(
            ru=(
                "На первом ходу с головы уходит одна шашка, поэтому она идёт на сумму: 5-4 — это "
                "24/15 (L-10). Исключение: первый бросок 6-6, 4-4 или 3-3 разрешает снять вторую "
                "шашку, ведь одна упёрлась бы в голову соперника в 12 пунктах (L-11); при 6-6 это "
                "24/18 дважды, а две шестёрки сгорают. Но только если мешает именно голова: если "
                "соперник начал с 5-5 и его шашка уже стоит на пути, при 4-4 вы снимаете одну, "
                "24/20, и три четвёрки сгорают (L-12). Если вторая шашка даёт сыграть больше, "
                "снять её обязательно (L-13). Другие трактовки — любой дубль (V-4) или без условия "
                "о помехе (V-5) — включаются в /settings."
            ),
            en=(
                "On your first turn only one checker leaves the head, so it moves the total: 5-4 "
                "is 24/15 (L-10). Exception: a first roll of 6-6, 4-4 or 3-3 lets a second checker "
                "off, because a lone one would run into the opponent's head 12 points away (L-11); "
                "6-6 plays 24/18 twice and two sixes burn. Only when the head is what blocks it, "
                "though: if the opponent opened 5-5 and has a checker in the way, your 4-4 moves "
                "one checker 24/20 and three fours burn (L-12). When the second checker lets you "
                "play more, taking it is compulsory (L-13). Other readings, any double (V-4) or no "
                "blocking condition (V-5), can be switched on in /settings."
            ),
        ),
        rule_ids=("L-10", "L-11", "L-12", "L-13", "V-4", "V-5"),
        applies_to="long",
        related=("head_rule", "first_player", "forced_move"),
        keywords=Keywords(
            ru=(
                "первый ход",
                "первом ходу",
                "первым ходом",
                "первого хода",
                "дубль на первом ходу",
                "снять две",
                "снимают две",
                "две с головы",
                "две шашки с головы",
                "2 шашки с головы",
                "двух шашек с головы",
                "вторую шашку с головы",
                "6-6",
                "4-4",
                "3-3",
                "!6-6 с головы",
                "!4-4 с головы",
                "!3-3 с головы",
                "5-5",
                "исключение",
                "!первый ход с головы",
                "!снять на первом ходу",
                "первый бросок дубль",
                "сумма на первом ходу",
                "-в середине игры",
                "-в середине партии",
                "-после первого хода",
            ),
            en=(
                "first move",
                "first turn",
                "two from the head",
                "double on the first move",
                "doubles on the first move",
                "two checkers off the head",
                "2 checkers head",
                "second checker from the head",
                "two off the head",
                "6-6",
                "4-4",
                "3-3",
                "5-5",
                "exception",
                "!first move from the head",
                "!first turn from the head",
                "opening double",
                "opening doubles",
                "-mid game",
                "-midgame",
                "-middle of the game",
                "-later in the game",
                "-after the first move",
            ),
        ),
        diagram="first_move_exception",
    ),
    Topic(
        id="six_block",
        number=10,
        title=Text(ru="Блок из шести и «пробегом»", en="The six-point block, even «in passing»"),
        body=Text(
            ru=(
                "В длинных нардах занять шесть пунктов подряд (блок, забор) можно, только если "
                "хотя бы одна шашка соперника уже прошла дальше этого блока (L-15, L-16). Для "
                "блока хватает одной шашки на пункте.\n"
                "Бот проверяет это после каждого шага, так что нельзя даже мимоходом, «пробегом», "
                "замкнуть шесть пунктов и тут же разомкнуть их тем же ходом (L-17). Такой шаг "
                "просто запрещён, и его зар может сгореть (L-18).\n"
                "Правило спорное: в /settings группа может разрешить блок «на проходе» (V-1) или "
                "требовать, чтобы шашка соперника уже дошла до своего дома (V-2). В коротких "
                "нардах шесть подряд ставить можно (S-18)."
            ),
            en=(
                "In long nardy you may hold six points in a row (a block, or prime) only if at "
                "least one opponent checker has already got past it (L-15, L-16). One checker per "
                "point is enough to make a block.\n"
                "The bot checks this after every single step, so you can't close six points even "
                "for a moment «in passing» and open them again in the same turn (L-17). Such a "
                "step is simply illegal, and its die may burn (L-18).\n"
                "Players disagree here: in /settings a group can allow passing blocks (V-1) or "
                "demand that an opponent checker has reached its home (V-2). In short nardy six in "
                "a row is allowed (S-18)."
            ),
        ),
        rule_ids=("L-15", "L-16", "L-17", "L-18", "V-1", "V-2", "S-18"),
        applies_to="long",
        related=("locked_checker", "strategy_terms", "forced_move"),
        keywords=Keywords(
            ru=(
                "!блок",
                "прайм",
                "!забор",
                "заграждение",
                "!мост",
                "шесть подряд",
                "6 подряд",
                "шесть пунктов подряд",
                "закрыть шесть",
                "!пробегом",
                "!на проходе",
                "мимоходом",
                "строить забор",
                "построить блок",
                "забор из шести",
                "блок из шести",
                "шесть шашек подряд",
                "запереть все шашки",
                "шестую рядом",
                "шестую подряд",
                "6 в ряд",
                "запереть все 15",
            ),
            en=(
                "!block",
                "!prime",
                "six in a row",
                "6 in a row",
                "six points",
                "six-block",
                "block in passing",
                "prime in passing",
                "wall",
                "fence",
                "build a prime",
                "six-point",
                "6 in a row",
                "in a row",
                "trap all 15",
                "close the sixth",
            ),
        ),
        diagram="six_point_block",
    ),
    Topic(
        id="locked_checker",
        number=11,
        title=Text(ru="Запертая шашка", en="Locked checkers"),
        body=Text(
            ru=(
                "Шашка заперта, если соперник занял все шесть пунктов прямо перед ней: она не "
                "сдвинется, пока один из них не освободится (L-19). Если не может пойти ни одна "
                "шашка, зары пропадают, и ход переходит к сопернику (C-18).\n"
                "В длинных такой блок законен, только пока хотя бы одна ваша шашка уже прошла "
                "дальше него (L-16), поэтому запереть все 15 нельзя.\n"
                "В коротких шесть закрытых пунктов подряд — обычное дело, и шашка за ними просто "
                "ждёт (S-18)."
            ),
            en=(
                "A checker is locked when the opponent holds all six points right in front of it: "
                "it can't move until one of them opens (L-19). If none of your checkers can move, "
                "the dice are lost and the turn passes (C-18).\n"
                "In long nardy such a block is legal only while at least one of your checkers is "
                "already past it (L-16), so all 15 can never be shut in.\n"
                "In short nardy six closed points in a row are normal play, and a checker behind "
                "them just waits (S-18)."
            ),
        ),
        rule_ids=("L-19", "C-18", "L-16", "S-18"),
        applies_to="both",
        related=("six_block", "forced_move", "strategy_terms"),
        keywords=Keywords(
            ru=(
                "!заперта",
                "ловушка",
                "!заперт",
                "запертая",
                "!заперли",
                "!запер",
                "!замкнутая",
                "замкнули",
                "не могу выйти",
                "шашка не идет",
                "не может пойти",
                "!застряла",
                "застрял",
                "шашка стоит и не ходит",
                "закрыли",
                "выбраться",
            ),
            en=(
                "!locked",
                "lock",
                "!trapped",
                "stuck",
                "primed",
                "shut in",
                "can't get out",
                "checker can't move",
                "escape",
                "stuck behind",
                "behind six",
            ),
        ),
        diagram="locked_checker",
    ),
    Topic(
        id="hitting",
        number=12,
        title=Text(ru="Бой и блоты (короткие)", en="Hitting and blots (short nardy)"),
        body=Text(
            ru=(
                "Только в коротких нардах. Вставать можно на любой пункт, кроме того, где две или "
                "больше шашки соперника (S-5). Одинокая шашка на пункте — блот (S-6). Встали на "
                "чужой блот — он побит и отправляется на бар (S-7). Блот бьётся и промежуточной "
                "остановкой на нём, а если его просто перепрыгнуть — нет (S-8).\n"
                "После удара можно прикрыть свою шашку второй, идти той же шашкой дальше или даже "
                "выбросить шашку тем же ходом (S-9). Бить не обязательно (S-10).\n"
                "В длинных нардах шашки не бьют — см. «Куда можно встать»."
            ),
            en=(
                "Short nardy only. You may land on any point except one holding two or more "
                "opponent checkers (S-5). A lone checker on a point is a blot (S-6). Land on an "
                "opponent's blot and it is hit and goes to the bar (S-7). A stop on it between two "
                "dice hits it too; jumping over it does not (S-8).\n"
                "After a hit you may cover your checker with another, carry on with the same one, "
                "or even bear off in the same turn (S-9). Hitting is never compulsory (S-10).\n"
                "Long nardy has no hitting: see «Where can I land?»."
            ),
        ),
        rule_ids=("S-5", "S-6", "S-7", "S-8", "S-9", "S-10"),
        applies_to="short",
        related=("bar_entry", "occupied_point", "game_end"),
        keywords=Keywords(
            ru=(
                "!бить",
                "!побить",
                "!сбить",
                "бьют",
                "бьет",
                "!блот",
                "одинокая шашка",
                "одиночная шашка",
                "съесть",
                "съели",
                "рубить",
                "срубить",
                "удар",
                "битая шашка",
                "бьется",
                "закрытый пункт",
                "открытый пункт",
                "обязательно бить",
                "встать на шашку соперника",
                "шашка соперника",
                "безопасный пункт",
            ),
            en=(
                "!hit",
                "!hitting",
                "!blot",
                "capture",
                "knock",
                "single checker",
                "eat",
                "closed point",
                "open point",
                "must i hit",
                "land on opponent",
                "opponent checker",
                "safe",
                "safe point",
            ),
        ),
        diagram="hitting",
    ),
    Topic(
        id="bar_entry",
        number=13,
        title=Text(ru="Бар и ввод шашек (короткие)", en="The bar and entering (short nardy)"),
        body=Text(
            ru=(
                "Побитая шашка ждёт на баре. Пока она там, другие шашки двигать нельзя: сначала её "
                "надо ввести, «зарядиться» (S-11). Вход — в дом соперника: с 2 шашка встаёт на ваш "
                "23-й пункт (его 2-й), с 5 — на ваш 20-й, то есть зар d ведёт на 25−d. Пункт "
                "должен быть открыт: меньше двух его шашек, а блот там бьётся (S-12).\n"
                "Каждый зар — отдельный вход, складывать числа нельзя (S-13, S-14). Не входит ни "
                "на один зар — пропадает весь ход; из двух шашек на баре вошла одна — второй зар "
                "сгорает (S-15). Когда все вошли, остаток броска играется любой шашкой, даже "
                "только что вошедшей (S-16, S-17)."
            ),
            en=(
                "A hit checker waits on the bar. While it is there you may move nothing else: "
                "bring it back in first (S-11). It enters in the opponent's home: a 2 puts it on "
                "your point 23 (their 2), a 5 on your 20, so die d leads to 25−d. The point must "
                "be open, with fewer than two of their checkers; a blot there is hit (S-12).\n"
                "Each die is a separate entry, and the dice can't be added up (S-13, S-14). If no "
                "die lets it in, the whole turn is lost; if only one of two bar checkers gets in, "
                "the other die burns (S-15). Once all are in, the rest of the roll may move any "
                "checker, even the one that just entered (S-16, S-17)."
            ),
        ),
        rule_ids=("S-11", "S-12", "S-13", "S-14", "S-15", "S-16", "S-17"),
        applies_to="short",
        related=("hitting", "forced_move", "bearoff_when"),
        keywords=Keywords(
            ru=(
                "!бар",
                "!на баре",
                "!шашка на баре",
                "!с бара",
                "!зарядиться",
                "зарядить",
                "заряжаться",
                "ввод",
                "ввести шашку",
                "вводить",
                "войти",
                "вход",
                "зайти с бара",
                "вернуть в игру",
                "куда идет побитая",
                "сбитая шашка",
                "побитая шашка",
                "!побили",
                "сбили",
                "куда ставится сбитая",
                "не могу войти",
                "не могу ввести",
                "вход закрыт",
                "пункты входа",
                "закрыто на вводе",
                "войти сумма",
                "ввести сумма",
                "центральное поле",
            ),
            en=(
                "!bar",
                "!enter",
                "entering",
                "re-enter",
                "reenter",
                "from the bar",
                "!checker on the bar",
                "got hit",
                "on the bar",
                "hit checker",
                "can't enter",
                "cannot enter",
                "entry points",
                "entry point blocked",
                "entry blocked",
                "enter sum",
                "enter with the sum",
                "!dance",
                "shut out",
                "closed board",
            ),
        ),
        diagram="bar_entry",
    ),
    Topic(
        id="bearoff_when",
        number=14,
        title=Text(ru="Когда можно выбрасывать", en="When may I bear off?"),
        body=Text(
            ru=(
                "Выбрасывать шашки (выброс) можно, только когда все ваши шашки, что ещё на доске, "
                "собраны в доме — на пунктах 1–6 (C-24). В коротких вдобавок ни одной не должно "
                "быть на баре; если вашу шашку побили во время выброса, сначала верните её домой "
                "(S-19, S-20).\n"
                "Бот проверяет это перед каждым шагом: если последняя шашка зашла в дом одним "
                "заром, другим можно выбрасывать уже в этом же ходу (C-31). Если в вашей группе "
                "принято ждать следующего хода, включите это в /settings (V-7).\n"
                "Как играть каждым заром — в теме «Выброс: подробности»."
            ),
            en=(
                "You may start bearing off only when every checker you still have on the board is "
                "in your home, points 1–6 (C-24). In short nardy none may be on the bar either; if "
                "one of yours is hit while you bear off, bring it back home first (S-19, S-20).\n"
                "The bot checks this before each step: if your last checker comes home with one "
                "die, the other die may bear off in that same turn (C-31). Groups who wait for the "
                "next turn can switch that on in /settings (V-7).\n"
                "How each die is used: see «Bearing off: details»."
            ),
        ),
        rule_ids=("C-24", "C-31", "S-19", "S-20", "V-7"),
        applies_to="both",
        related=("bearoff_details", "last_checker", "game_end"),
        keywords=Keywords(
            ru=(
                "!выброс",
                "!не в доме",
                "!выбрасывать",
                "!выбросить",
                "выбрасываются",
                "выкидывать",
                "выкинуть",
                "выводить",
                "вывод",
                "снимать с доски",
                "убирать с доски",
                "когда можно выбрасывать",
                "когда выбрасывать",
                "все в доме",
                "все шашки в доме",
                "пришли в дом",
                "зашли в дом",
                "за борт",
                "когда начинать выбрасывать",
                "!сбили во время выброса",
                "сбили при выбросе",
                "выбрасывать шашка на баре",
                "убрать на борт",
            ),
            en=(
                "bear off",
                "not home",
                "outside home",
                "bearing off",
                "!bearoff",
                "bear-off",
                "take off",
                "take checkers off",
                "remove checkers",
                "when can i bear off",
                "all home",
                "all checkers home",
                "all in home",
                "!hit while bearing off",
                "hit during bear off",
                "bear off checker on the bar",
            ),
        ),
        diagram="bearing_off",
    ),
    Topic(
        id="bearoff_details",
        number=15,
        title=Text(ru="Выброс: подробности", en="Bearing off: details"),
        body=Text(
            ru=(
                "Зар выбрасывает шашку с пункта того же номера (C-25). Если там пусто, а выше "
                "шашек нет, снимается шашка с самого старшего занятого пункта (C-26). Если выше "
                "шашки есть, этим заром нужно сходить внутри дома, а если и это невозможно, зар "
                "сгорает (C-27). Пример: шашки только на 4-м, выпало 4-3 — четвёркой снимаете "
                "одну, тройкой ходите 4/1 (L-21). Вместо выброса всегда можно сходить внутри дома "
                "(C-28, S-21). Одна шашка может использовать оба зара, а куш снимает до четырёх "
                "шашек (C-29, C-30).\n"
                "В длинных ход внутри дома может упереться в шашку соперника, стоящую у вас в доме "
                "(L-23). Порядок зар выбираете вы: «сначала меньший» — не правило (S-22)."
            ),
            en=(
                "A die bears off a checker from the point with the same number (C-25). If that "
                "point is empty and nothing stands higher, it takes a checker from your highest "
                "occupied point (C-26). If checkers stand higher, the die must move one of them "
                "inside home, and if it can't, it burns (C-27). Example: checkers only on 4, roll "
                "4-3: the 4 takes one off, the 3 plays 4/1 (L-21). You may always move inside home "
                "instead of bearing off (C-28, S-21). One checker may use both dice, and a double "
                "takes off up to four (C-29, C-30).\n"
                "In long nardy a move inside home can be blocked by an opponent checker standing "
                "there (L-23). The order of the dice is yours: «lower die first» is not a rule "
                "(S-22)."
            ),
        ),
        rule_ids=(
            "C-25",
            "C-26",
            "C-27",
            "C-28",
            "C-29",
            "C-30",
            "L-21",
            "L-23",
            "S-21",
            "S-22",
        ),
        applies_to="both",
        related=("bearoff_when", "last_checker", "full_move"),
        keywords=Keywords(
            ru=(
                "с какого пункта выбрасывать",
                "какую шашку выбрасывать",
                "каким заром выбрасывать",
                "старший пункт",
                "старшего пункта",
                "младший пункт",
                "старшая лунка",
                "младшая лунка",
                "младшей лунки",
                "с младшей",
                "больше чем пункт",
                "нет шашки на пункте",
                "на пункте нет шашек",
                "пустой пункт",
                "ход внутри дома",
                "ходить в доме",
                "сходить в доме",
                "походить в доме",
                "внутри дома",
                "выброс одной шашкой",
                "сначала меньший",
                "меньший зар выброс",
                "выбросить большим",
                "выбросить меньшим",
                "выброс дублем",
                "точное число",
                "остаться дом",
                "дом выпало",
                "выпало нет шашек",
                "выбросить сначала",
                "выбросить меньший",
                "выброс оба зара одной шашкой",
            ),
            en=(
                "exact number",
                "!details",
                "exact roll",
                "higher than",
                "highest point",
                "lower point",
                "empty point",
                "move inside home",
                "inside home",
                "move inside",
                "instead of bearing off",
                "have to bear off",
                "smaller die",
                "lower die first",
                "higher point",
                "bear off with a double",
                "bear off with doubles",
                "which point to bear off from",
                "home rolled",
                "rolled no checker",
                "bear off from the point",
                "bearing off lower die",
                "bearing off first",
                "bear off both dice one checker",
            ),
        ),
        diagram="bearing_off",
    ),
    Topic(
        id="last_checker",
        number=16,
        title=Text(
            ru="Последняя шашка, а пункт в доме занят",
            en="Last checker coming home, point taken",
        ),
        body=Text(
            ru=(
                "Частый спорный случай: последняя шашка вне дома стоит на 7, выпало 6-1, а ваш "
                "пункт 1 занят соперником. Шестёрку первой не сыграть (7/1 занято), поэтому шашка "
                "заходит единицей: 7/6.\n"
                "По умолчанию бот разрешает выбрасывать в том же ходу, так что шестёркой вы "
                "снимаете шашку с 6-го пункта, и ничего не сгорает (L-24, C-31).\n"
                "Во многих описаниях здесь «старший сгорает»: это правило «выбрасывать только со "
                "следующего хода», его группа может включить в /settings (V-7)."
            ),
            en=(
                "A well-known disputed case: your last checker outside home is on 7, you roll 6-1, "
                "and the opponent holds your point 1. The 6 can't go first (7/1 is taken), so the "
                "1 brings the checker in: 7/6.\n"
                "By default the bot lets you bear off in the same turn, so the 6 takes a checker "
                "off point 6 and nothing burns (L-24, C-31).\n"
                "Many texts say «the larger die burns» here: that is the rule «bear off only from "
                "the next turn», which a group can switch on in /settings (V-7)."
            ),
        ),
        rule_ids=("L-24", "C-31", "V-7"),
        applies_to="long",
        related=("bearoff_when", "bearoff_details", "full_move"),
        keywords=Keywords(
            ru=(
                "!последняя шашка",
                "последнюю шашку",
                "последней шашкой",
                "!старший сгорает",
                "больший сгорает",
                "завести в дом",
                "заводит меньшим",
                "последняя в дом",
                "пункт в доме занят",
                "6-1",
                "завести последнюю",
            ),
            en=(
                "!last checker",
                "larger burns",
                "larger die burns",
                "last checker home",
                "point in home taken",
                "6-1",
                "bring the last checker in",
            ),
        ),
        diagram="last_checker",
    ),
    Topic(
        id="game_end",
        number=17,
        title=Text(ru="Конец партии: оин, марс, кокс", en="End of the game: oin, mars, koks"),
        body=Text(
            ru=(
                "Партия кончается, как только кто-то выбросил свою 15-ю шашку (C-32).\n"
                "Длинные: оин — 1 очко, если проигравший успел выбросить хоть одну шашку; марс — 2 "
                "очка, если ни одной (M-1, M-2). Кокса в длинных по умолчанию нет (M-3); «домашний "
                "марс»/кокс ×3 (V-8) и «очки = оставшиеся шашки» (V-9) можно выбрать в /settings.\n"
                "Короткие: обычная победа — 1, марс (гаммон) — 2, если проигравший ничего не "
                "выбросил, кокс (бэкгаммон) — 3, если вдобавок его шашка ещё на баре или в доме "
                "победителя. Всё умножается на куб (M-4 … M-7)."
            ),
            en=(
                "A game ends the moment a player bears off their 15th checker (C-32).\n"
                "Long nardy: oin is 1 point if the loser has borne off at least one checker; mars "
                "is 2 if none (M-1, M-2). There is no koks in long nardy by default (M-3); «home "
                "mars»/koks ×3 (V-8) and «points = checkers left» (V-9) can be chosen in "
                "/settings.\n"
                "Short nardy: a single win is 1, mars (gammon) 2 if the loser has borne off "
                "nothing, koks (backgammon) 3 if, on top of that, one of their checkers is still "
                "on the bar or in the winner's home. All of it is times the cube (M-4 … M-7)."
            ),
        ),
        rule_ids=(
            "C-32",
            "M-1",
            "M-2",
            "M-3",
            "M-4",
            "M-5",
            "M-6",
            "M-7",
            "V-8",
            "V-9",
        ),
        applies_to="both",
        related=("cube", "match", "resign_draw"),
        keywords=Keywords(
            ru=(
                "!марс",
                "!кокс",
                "!оин",
                "!ойн",
                "гаммон",
                "~бэкгаммон",
                "домашний марс",
                "сколько очков",
                "ни одной не выбросил",
                "очки за победу",
                "сколько дают",
                "как считаются очки",
                "подсчет очков",
                "конец игры",
                "конец партии",
                "кто победил",
                "кто выиграл партию",
                "победа",
                "выигрыш",
                "проигрыш",
                "счет партии",
                "когда заканчивается",
            ),
            en=(
                "!mars",
                "!koks",
                "worth",
                "!oin",
                "!gammon",
                "~backgammon",
                "home mars",
                "how many points",
                "points for a win",
                "end of the game",
                "game over",
                "who wins",
                "win",
                "single game",
                "how is it scored",
                "scoring",
                "score",
                "when does the game end",
            ),
        ),
        diagram="mars_koks",
    ),
    Topic(
        id="cube",
        number=18,
        title=Text(ru="Куб удвоения", en="The doubling cube"),
        body=Text(
            ru=(
                "Куб удвоения («даве») поднимает ставку: 1, затем 2, 4, 8 и так до 64 (M-8, M-12). "
                "Предложить удвоение можно только в начале своего хода, до броска (M-9). Принял "
                "соперник — ставка удваивается, куб переходит к нему, и переудвоить теперь может "
                "только он (M-10). Отказался — партия сразу окончена, и он теряет текущую ставку, "
                "без марса и кокса (M-11). Итог партии умножается на куб (M-13).\n"
                "В коротких куб по умолчанию включён, в длинных выключен, пока его не включат в "
                "/settings (M-14). Там же правило Кроуфорда для матчей (V-16, о нём — в «Матч и "
                "следующая партия»); правила Якоби (V-17) в боте нет, "
                "как и «бобра» (бивер: принять удвоение и тут же переудвоить, оставив куб у себя)."
            ),
            en=(
                "The doubling cube (dave) raises the stake: 1, then 2, 4, 8 and so on up to 64 "
                "(M-8, M-12). You may offer a double only at the start of your own turn, before "
                "rolling (M-9). If the opponent takes, the stake doubles and the cube is theirs: "
                "only they may redouble later (M-10). If they drop, the game ends at once and they "
                "lose the current stake, with no mars or koks (M-11). The game's result is "
                "multiplied by the cube (M-13).\n"
                "It is on by default in short nardy and off in long nardy unless enabled in "
                "/settings (M-14), where the Crawford rule for matches lives too (V-16; see "
                "“Matches and the next game”). The bot has no Jacoby rule (V-17) "
                "and no beaver (taking a double and redoubling at once, keeping the cube)."
            ),
        ),
        rule_ids=(
            "M-8",
            "M-9",
            "M-10",
            "M-11",
            "M-12",
            "M-13",
            "M-14",
            "V-16",
            "V-17",
        ),
        applies_to="both",
        related=("game_end", "match"),
        keywords=Keywords(
            ru=(
                "!куб удвоения",
                "!кубик удвоения",
                "!даве",
                "!удвоить",
                "!удвоение",
                "удваивать",
                "!переудвоить",
                "переудвоение",
                "удвоить ставку",
                "принять удвоение",
                "отказаться от удвоения",
                "ставка",
                "двойная кость",
                "куб",
                "!64",
                "кубик с цифрами",
                "кубик с числами",
                "якоби",
                "двойная кость",
                "!бобер",
                "!бивер",
            ),
            en=(
                "!doubling cube",
                "!cube",
                "who can double",
                "offer a double",
                "!redouble",
                "doubling",
                "take the double",
                "accept a double",
                "refuse a double",
                "decline a double",
                "drop",
                "pass the double",
                "double the stake",
                "stake",
                "jacoby",
                "take or drop",
                "drop the double",
                "!beaver",
            ),
        ),
    ),
    Topic(
        id="match",
        number=19,
        title=Text(ru="Матч и следующая партия", en="Matches and the next game"),
        body=Text(
            ru=(
                "Матч — серия партий, очки которых складываются. Побеждает тот, кто первым набрал "
                "оговорённые N очков; лишнее сверх N не считается (M-15, M-21). Первую партию "
                "решает жребий (M-16).\n"
                "Длинные: в каждой следующей партии цвета меняются — кто играл чёрными, берёт "
                "белые и начинает (M-17). По некоторым турнирным правилам начинает победитель "
                "прошлой партии; группа может выбрать это в /settings (V-12).\n"
                "Короткие: каждая партия начинается с нового розыгрыша первого хода, цвета "
                "остаются прежними (M-18).\n"
                "С кубом — правило Кроуфорда (V-16, включается в /settings): когда игрок впервые "
                "набрал N−1 очко, в следующей партии удваивать нельзя; потом снова можно."
            ),
            en=(
                "A match is a series of games whose points add up. The first to reach the agreed N "
                "points wins; anything above N doesn't count (M-15, M-21). The first game is "
                "decided by the opening roll (M-16).\n"
                "Long nardy: colours swap for every next game, and whoever had black takes white "
                "and starts (M-17). Some tournament rules let the previous winner start instead; a "
                "group can pick that in /settings (V-12).\n"
                "Short nardy: every game opens with a fresh roll for the first move, and colours "
                "stay as they were (M-18).\n"
                "With the cube, the Crawford rule (V-16, switched in /settings): when a player "
                "first reaches N−1 points, nobody may double in the next game; later games allow "
                "it again."
            ),
        ),
        rule_ids=("M-15", "M-16", "M-17", "M-18", "M-21", "V-12", "V-16"),
        applies_to="both",
        related=("first_player", "game_end", "cube"),
        keywords=Keywords(
            ru=(
                "~матч",
                "матч до",
                "партия до",
                "до скольки очков",
                "до скольких очков",
                "!следующая партия",
                "следующую партию",
                "следующий гейм",
                "!смена цвета",
                "меняются цвета",
                "поменяться цветами",
                "кто начинает следующую",
                "серия партий",
                "гейм",
                "вторая партия",
                "новая партия",
                "очки матча",
                "партий в матче",
                "сколько партий",
                "игра до очков",
                "до скольких очков",
                "следующая игра",
                "следующая партия снова",
                "!кроуфорд",
                "крауфорд",
                "!правило кроуфорда",
                "!посткроуфорд",
            ),
            en=(
                "~match",
                "match length",
                "!next game",
                "following game",
                "match points",
                "series of games",
                "!swap colours",
                "swap colors",
                "colours change",
                "who starts the next game",
                "second game",
                "new game",
                "how long is a match",
                "play to points",
                "game to points",
                "next game",
                "the next game",
                "rematch",
                "!crawford",
                "crawford rule",
                "!post crawford",
            ),
        ),
    ),
    Topic(
        id="resign_draw",
        number=20,
        title=Text(ru="Сдаться; ничья", en="Resigning; draws"),
        body=Text(
            ru=(
                "Сдаться можно в любой момент. Соперник получает то, что показывает доска в этот "
                "миг, будто он уже закончил: в длинных оин или марс, в коротких ещё и кокс, и всё "
                "это умножается на куб (M-19). В /settings группа может засчитывать любую сдачу "
                "как простой оин (V-10).\n"
                "Ничьих по умолчанию нет: побеждает тот, кто первым выбросил все 15 шашек, даже "
                "если второму хватило бы одного броска (M-20). «Право последнего броска», когда "
                "чёрные ходят ещё раз и могут свести партию вничью, бот пока не предлагает (V-11)."
            ),
            en=(
                "You may resign at any moment. Your opponent then scores what the board shows "
                "right now, as if they had just finished: oin or mars in long nardy, koks as well "
                "in short, all times the cube (M-19). A group can make every resignation count as "
                "a plain oin in /settings (V-10).\n"
                "There are no draws by default: whoever bears off all 15 first wins, even if the "
                "other needed just one more roll (M-20). The «last roll» rule, where black gets "
                "one more turn and may draw, is not offered yet (V-11)."
            ),
        ),
        rule_ids=("M-19", "M-20", "V-10", "V-11"),
        applies_to="both",
        related=("game_end", "match"),
        keywords=Keywords(
            ru=(
                "!сдаться",
                "!сдаюсь",
                "сдача",
                "сдался",
                "сдаваться",
                "!ничья",
                "!ничью",
                "вничью",
                "ничьи",
                "право последнего броска",
                "последний бросок",
                "выйти из игры",
                "бросить партию",
            ),
            en=(
                "!resign",
                "resigning",
                "!give up",
                "surrender",
                "concede",
                "!draw",
                "tie",
                "last roll",
                "quit the game",
                "leave the game",
                "same time",
                "both finish",
            ),
        ),
    ),
    Topic(
        id="variants",
        number=21,
        title=Text(ru="Другие разновидности нард", en="Other nardy variants"),
        body=Text(
            ru=(
                "Встречаются и другие игры: «бешеный гюльбар», где после дубля идут пары ходов на "
                "каждое следующее число вплоть до шестёрки (V-13); «бешеные нарды» — своя цепочка "
                "дублей с дополнительным броском (V-14); «шесть-один», от которого дошло только "
                "название (V-15). Тавла — турецкое имя нард; в Греции с ней играют плакото и "
                "февгу, в Болгарии — тапу; армянские, азербайджанские, европейские нарды — те же "
                "длинные и короткие с местными обычаями.\n"
                "В их описаниях много пробелов: сколько ходов даёт каждый дубль, действуют ли "
                "правило головы и запрет блока. Поэтому бот их пока не предлагает и играет "
                "классические длинные и короткие нарды."
            ),
            en=(
                "You may hear of other games: «crazy gulbara», where a double is followed by pairs "
                "of moves with each higher number up to six (V-13); «crazy nardy», a different "
                "chain of doubles with a bonus roll (V-14); and «six-one», known only by its name "
                "(V-15). Tavla is the Turkish name of nardy; Greeks play plakoto and fevga too, "
                "Bulgarians tapa; Armenian, Azerbaijani or European nardy are the same long and "
                "short games with local customs.\n"
                "Their descriptions leave too much open: how many moves each double gives, whether "
                "the head and block rules apply. So the bot doesn't offer them for now and plays "
                "classic long and short nardy."
            ),
        ),
        rule_ids=("V-13", "V-14", "V-15"),
        applies_to="both",
        related=("dice", "setup"),
        keywords=Keywords(
            ru=(
                "!гюльбар",
                "!гульбар",
                "!бешеный",
                "!бешеные нарды",
                "бешенные",
                "!шесть-один",
                "варианты нард",
                "!разновидности",
                "виды нард",
                "другие нарды",
                "другие игры",
                "!тавла",
                "!шеш-беш",
                "какие бывают нарды",
                "кроме длинных и коротких",
                "трик-трак",
                "коша",
                "!плакото",
                "!плакота",
                "!февга",
                "!портес",
                "!мултезим",
                "!тапа",
                "армянские нарды",
                "азербайджанские нарды",
                "европейские нарды",
                "турецкие нарды",
                "греческие нарды",
                "русские нарды",
            ),
            en=(
                "!variant",
                "versions",
                "версии",
                "!variants",
                "crazy",
                "gulbara",
                "gul bara",
                "six-one variant",
                "six-one game",
                "other games",
                "kinds of nardy",
                "types of nardy",
                "!tavla",
                "!tavli",
                "!shesh besh",
                "same as nardy",
                "tric-trac",
                "trictrac",
                "!plakoto",
                "!fevga",
                "!portes",
                "!moultezim",
                "!acey-deucey",
                "!nackgammon",
                "!hypergammon",
                "!tapa",
                "armenian",
                "turkish",
                "greek",
                "european",
            ),
        ),
    ),
    Topic(
        id="pip_count",
        number=22,
        title=Text(ru="Пипсы", en="Pip count"),
        body=Text(
            ru=(
                "Пипсы — сколько ещё предстоит пройти всем вашим шашкам. Возьмите для каждой шашки "
                "номер её пункта и сложите всё; шашка на баре считается за 25 (C-6). Чем меньше "
                "сумма, тем ближе финиш.\n"
                "В начале длинных нард у каждого 360 (15 × 24), в коротких — 167. Сравнив пипсы, "
                "легко понять, кто впереди в гонке."
            ),
            en=(
                "Your pip count is how far all your checkers still have to travel: add up the "
                "point number of every checker, counting 25 for one on the bar (C-6). The lower "
                "the total, the closer you are to finishing.\n"
                "At the start each side has 360 in long nardy (15 × 24) and 167 in short nardy. "
                "Comparing counts shows who is ahead in the race."
            ),
        ),
        rule_ids=("C-6",),
        applies_to="both",
        related=("board", "strategy_terms"),
        keywords=Keywords(
            ru=(
                "!пипсы",
                "сколько осталось пройти",
                "осталось пройти",
                "расстояние",
                "!пипс",
                "пипсов",
                "счет пипсов",
                "подсчет пипсов",
                "сколько пипсов",
                "!пипкаунт",
                "!пип каунт",
                "кто впереди",
                "гонка",
            ),
            en=("!pip", "!pips", "!pip count", "pipcount", "race", "who is ahead", "count"),
        ),
    ),
    Topic(
        id="physical_rules",
        number=23,
        title=Text(ru="Правила живой доски", en="Rules only for a real board"),
        body=Text(
            ru=(
                "Часть правил нужна только за настоящей доской. Зары бросает сам бот, честно и "
                "случайно, так что кубик не встанет косо, не вылетит с доски, и перебрасывать "
                "нечего (C-11).\n"
                "«Взялся — ходи» и «поправляю» здесь не действуют: шаги можно отменять, пока вы не "
                "подтвердили ход. Неправильный ход бот просто не примет, и соперник не может "
                "согласиться на него вместо правильного (C-33)."
            ),
            en=(
                "Some rules only matter at a real board. The bot rolls the dice itself, fairly and "
                "at random, so no die can land tilted or fly off the board, and there is nothing "
                "to re-roll (C-11).\n"
                "Touch-move and «j'adoube» don't apply: you can undo your steps until you confirm "
                "the turn. An illegal move is simply refused, and the opponent can't agree to "
                "accept it instead of a legal one (C-33)."
            ),
        ),
        rule_ids=("C-11", "C-33"),
        applies_to="both",
        related=("dice", "forced_move"),
        keywords=Keywords(
            ru=(
                "!взялся ходи",
                "передумал",
                "переставить шашку",
                "!поправляю",
                "косо",
                "кубик встал косо",
                "встал на ребро",
                "кубик упал",
                "вылетел",
                "перебросить",
                "!переброс",
                "перебросить кубики",
                "честные",
                "честно",
                "подкрутка",
                "подкручены",
                "рандом",
                "случайные",
                "отменить ход",
                "отмена хода",
                "поменять ход",
                "изменить ход",
                "отменить шаг",
                "вернуть ход",
                "переходить",
                "принять неправильный ход",
                "стаканчик",
                "половина доски",
                "исправить ход",
            ),
            en=(
                "!touch move",
                "touch-move",
                "j'adoube",
                "cocked",
                "tilted",
                "fell off",
                "!reroll",
                "re-roll",
                "fair",
                "random",
                "rigged",
                "undo",
                "take back",
                "change my move",
                "accept an illegal move",
                "dice cup",
                "half of the board",
                "land on the board",
                "fix my move",
            ),
        ),
    ),
    Topic(
        id="strategy_terms",
        number=24,
        title=Text(ru="Слова из стратегии", en="Strategy words"),
        body=Text(
            ru=(
                "Это слова стратегии, а не правила. «Забор», «блокада» — 3–6 занятых пунктов "
                "подряд; шесть подряд — полный блок (L-19), в бэкгаммоне «прайм». «Мостик» — "
                "шашка, что не даёт сопернику достроить блок. «Столбик» — три шашки и больше на "
                "пункте. «Авант», «трамплин», «строители» (билдеры, стройматериал) — шашки, "
                "готовящие новый пункт. «Запас ходов», «дефицит», «тайминг» — сколько свободных "
                "ходов осталось, пока не придётся ломать позицию. «Поставить на голову» — на свою "
                "шашку, к правилу головы не относится (C-3). Из бэкгаммона: «якорь» — ваш пункт в "
                "доме соперника; «блиц» — атака на блоты, чтобы закрыть дом; «бэкгейм» — игра от "
                "двух якорей, «холдинг» (держащая игра) — от одного; «гонка» — контакта нет, "
                "решают пипсы; «золотой пункт» — ваш 5-й, «бар-пойнт» — 7-й, «мидпоинт» — 13-й; "
                "«дупликация» — когда сопернику для разных целей нужны одни и те же числа."
            ),
            en=(
                "These are strategy words, not rules. A «zabor» (fence) or blockade is 3–6 "
                "adjacent points held; six in a row is a full block (L-19), a full prime in "
                "backgammon. A «mostik» stops the opponent completing one; a «stolbik» is a stack "
                "of three or more. «Avant», «tramplin» and builders are spare checkers that "
                "prepare a new point. «Spare moves», «move shortage» and timing: free moves left "
                "before you must break up. «Putting on the head» is stacking on your own checker, "
                "not the head rule (C-3). From backgammon: an anchor is your point in the "
                "opponent's home; a blitz attacks blots to close your board; a back game plays "
                "from two anchors, a holding game from one; a race: contact is over, pips decide; "
                "slotting puts one checker on a point to cover later; the golden point is your "
                "5-point, the bar point your 7, the midpoint your 13; duplication: the "
                "opponent needs the same numbers for different shots."
            ),
        ),
        rule_ids=("L-19", "C-3"),
        applies_to="both",
        related=("six_block", "locked_checker", "pip_count"),
        keywords=Keywords(
            ru=(
                "~забор",
                "!мостик",
                "мостики",
                "!столбик",
                "!авант",
                "!трамплин",
                "!запас ходов",
                "!дефицит",
                "тихий ход",
                "!стратегия",
                "тактика",
                "как выигрывать",
                "как выиграть",
                "совет",
                "играть лучше",
                "как лучше играть",
                "советы",
                "термины",
                "поставить на голову",
                "столбик",
                "!якорь",
                "!бэкгейм",
                "!блиц",
                "!анкер",
                "билдер",
                "блокада",
                "!игра на задних",
                "бланк",
                "бланкирование",
                "~гонка",
                "!стройматериал",
                "холдинг",
                "!тайминг",
                "!золотой пункт",
                "!пойнт",
                "слотировать",
                "!строитель",
                "держащая игра",
                "!мидпоинт",
                "прайм",
                "!дупликация",
            ),
            en=(
                "!strategy",
                "bridge",
                "tips",
                "good move",
                "best move",
                "opening move",
                "advice",
                "how to win",
                "tactics",
                "stack",
                "terms",
                "spare moves",
                "!jargon",
                "move shortage",
                "!anchor",
                "!backgame",
                "!blitz",
                "!builder",
                "!slotting",
                "slot a point",
                "!back game",
                "!holding game",
                "~race",
                "blockade",
                "timing",
                "!golden point",
                "!midpoint",
                "!duplication",
                "holding",
            ),
        ),
    ),
)
"""All topics, in the order of RULES.md §8."""
