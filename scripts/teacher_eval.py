"""Print the rules matcher's figures on a question set.

Usage: ``PYTHONPATH=. python scripts/teacher_eval.py PATH [--misses]``, where PATH is a TSV of
``lang<TAB>topic id or none<TAB>question`` (see teacher/evaluation.py). Prints top-1, top-3 and
wrong "don't know" per language and the off-topic "don't know" rate; ``--misses`` also lists
the questions that did not get their topic first.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from teacher.evaluation import evaluate, read_set, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--misses", action="store_true", help="list the misses too")
    args = parser.parse_args()
    figures = evaluate(read_set(args.path))
    print(report(figures))
    if args.misses:
        for row, ids in figures.misses:
            answered = ", ".join(ids) or "(none)"
            print(f"  {row.lang} {row.expected:>20} <- {answered:40} {row.question}")


if __name__ == "__main__":
    main()
