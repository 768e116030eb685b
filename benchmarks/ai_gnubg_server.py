"""Runs *inside* GNU Backgammon (``gnubg -t -q -p this_file``) as a move server for the
benchmark: reads ``<26 ints mover> <26 ints opponent> <d1> <d2> <plies>`` per line on stdin
(our 26-tuples: 0 off, 1..24 points, 25 bar, each side in its own numbering) and answers the
best move as ``from/to`` pairs (25 = bar, 0 = off), or ``-`` for no move.

A line ``E <plies> <26 ints me> <26 ints opponent>`` instead asks for the cubeless equity of
that after-state for ``me`` (who has just moved; the opponent is on roll), evaluated at
``plies`` (used to judge plays: ``benchmarks/short_positions.py``).

A line ``C <plies> <owner> <26 ints mover> <26 ints opponent>`` asks for the money-game cube
decision of the side about to roll (``mover``; ``owner`` 1 it owns the cube, 0 the opponent
does, -1 centred; Jacoby and beavers off, as in our rules): gnubg's cubeful equities
``<no double> <double, take> <double, pass>`` from the mover's side, per unit of the cube.

Benchmark-only: the bot never runs gnubg.
"""

import sys

import gnubg  # provided by the gnubg binary that runs this script


def _board(side):
    return [int(side[p]) for p in range(1, 26)]  # index 0..23 = points 1..24, 24 = bar


_MONEY = gnubg.cubeinfo(1, -1, 0, 0)  # cube 1, centred, money play (cubeless equities)


def main():
    gnubg.command("set jacoby off")  # before any cubeinfo: it sets the gammon prices
    gnubg.command("set beavers 0")
    out = sys.stdout
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "quit":
            break
        if parts[0] == "E":
            nums = [int(x) for x in parts[1:]]
            plies, me, opp = nums[0], nums[1:27], nums[27:53]
            ec = {"cubeful": 0, "plies": plies, "deterministic": 1, "noise": 0.0, "prune": 1}
            probs = gnubg.evaluate([_board(me), _board(opp)], _MONEY, ec)
            out.write(f"{-probs[5]:.5f}\n")
            out.flush()
            continue
        if parts[0] == "C":
            nums = [int(x) for x in parts[1:]]
            plies, owner, mover, opp = nums[0], nums[1], nums[2:28], nums[28:54]
            ec = {"cubeful": 1, "plies": plies, "deterministic": 1, "noise": 0.0, "prune": 1}
            cube = gnubg.cubeinfo(1, owner, 1, 0, (0, 0), 0, 0)
            answer = gnubg.cfevaluate([_board(opp), _board(mover)], cube, ec)
            out.write(f"{answer[1]:.5f} {answer[2]:.5f} {answer[3]:.5f}\n")
            out.flush()
            continue
        nums = [int(x) for x in parts]
        me, opp, dice, plies = nums[0:26], nums[26:52], nums[52:54], nums[54]
        ec = {"cubeful": 0, "plies": plies, "deterministic": 1, "noise": 0.0, "prune": 1}
        move = gnubg.findbestmove([_board(opp), _board(me)], None, ec, dice)
        text = " ".join(f"{move[i]}/{move[i + 1]}" for i in range(0, len(move), 2))
        out.write((text or "-") + "\n")
        out.flush()


main()
