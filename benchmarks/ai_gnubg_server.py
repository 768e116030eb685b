"""Runs *inside* GNU Backgammon (``gnubg -t -q -p this_file``) as a move server for the
benchmark: reads ``<26 ints mover> <26 ints opponent> <d1> <d2> <plies>`` per line on stdin
(our 26-tuples: 0 off, 1..24 points, 25 bar, each side in its own numbering) and answers the
best move as ``from/to`` pairs (25 = bar, 0 = off), or ``-`` for no move.

A line ``E <plies> <26 ints me> <26 ints opponent>`` instead asks for the cubeless equity of
that after-state for ``me`` (who has just moved; the opponent is on roll), evaluated at
``plies`` (used to judge plays: ``benchmarks/short_positions.py``).

Benchmark-only: the bot never runs gnubg.
"""

import sys

import gnubg  # provided by the gnubg binary that runs this script


def _board(side):
    return [int(side[p]) for p in range(1, 26)]  # index 0..23 = points 1..24, 24 = bar


_MONEY = gnubg.cubeinfo(1, -1, 0, 0)  # cube 1, centred, money play (cubeless equities)


def main():
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
        nums = [int(x) for x in parts]
        me, opp, dice, plies = nums[0:26], nums[26:52], nums[52:54], nums[54]
        ec = {"cubeful": 0, "plies": plies, "deterministic": 1, "noise": 0.0, "prune": 1}
        move = gnubg.findbestmove([_board(opp), _board(me)], None, ec, dice)
        text = " ".join(f"{move[i]}/{move[i + 1]}" for i in range(0, len(move), 2))
        out.write((text or "-") + "\n")
        out.flush()


main()
