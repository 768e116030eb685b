"""Accuracy, time and memory of the rules matcher on any question sets.

Usage: ``PYTHONPATH=. python benchmarks/teacher_bench.py [SET.tsv ...] [--rounds N]``. For each
set given (``lang<TAB>topic or none<TAB>question``, teacher/evaluation.py) it prints top-1,
top-3 and wrong "don't know" per language and the off-topic "don't know" rate. Then, over the
tuning table, the development set and the sets given (default 5 rounds; bounded: a few
seconds), it prints the process's
resident memory before and after the matcher is built (what the bot pays for the teacher)
and per-question timings: median, 99th percentile and maximum of single runs, and the
slowest question's best of three (which hides scheduler and garbage-collector pauses), and
for the questions ``match`` does not answer the time of ``match`` plus ``suggest`` ("did you
mean"), as the bot asks them.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def rss_mb() -> float:
    """Resident memory of this process (Linux /proc; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path, help="question sets to measure on")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    # The questions first (their import brings pytest), so that they are not counted.
    from teacher.evaluation import evaluate, read_set, report
    from tests.teacher.test_knowledge import QUESTIONS, UNRELATED

    questions = [q for q, _, _ in QUESTIONS] + list(UNRELATED)
    questions += [r.question for r in read_set(REPO / "tests/teacher/data/dev_set.tsv")]
    given = {path: read_set(path) for path in args.sets}
    for rows in given.values():
        questions += [r.question for r in rows]

    import teacher

    gc.collect()
    imported = rss_mb()
    start = time.perf_counter()
    matcher = teacher.default_matcher()
    build = time.perf_counter() - start
    gc.collect()
    built = rss_mb()

    cold: list[float] = []  # the first round: every word is new to the caches
    timings: list[float] = []
    for round_ in range(max(1, args.rounds)):
        for question in questions:
            t0 = time.perf_counter()
            matcher.match(question)
            (cold if round_ == 0 else timings).append(time.perf_counter() - t0)
    timings = sorted(timings or cold)
    cold.sort()
    slowest = max(questions, key=lambda q: min(_time(matcher.match, q) for _ in range(3)))
    best_slowest = min(_time(matcher.match, slowest) for _ in range(3))
    # What the bot does with a question it cannot answer: ``match``, then "did you mean"
    # (``suggest``, which reuses the reading ``match`` just made).
    unanswered = [q for q in questions if not matcher.match(q)]
    declined = sorted(
        min(_time(lambda q: matcher.match(q) or matcher.suggest(q), q) for _ in range(3))
        for q in unanswered
    )
    after = rss_mb()

    for path, rows in given.items():
        print(f"== {path}")
        print(report(evaluate(rows, matcher)))
    print(f"questions: {len(questions)} x {args.rounds} rounds")
    print(
        f"index build: {build * 1e3:.0f} ms (first question; pymorphy3 dictionary and the "
        "learned model's file loaded)"
    )
    print(
        f"memory (RSS): after import {imported:.1f} MB, after build {built:.1f} MB, "
        f"after the run {after:.1f} MB -> the matcher costs {after - imported:.1f} MB"
    )
    print(
        f"answer time, first time each word is seen: median "
        f"{statistics.median(cold) * 1e3:.3f} ms, max {cold[-1] * 1e3:.3f} ms"
    )
    print(
        f"answer time, warm caches: median {statistics.median(timings) * 1e3:.3f} ms, "
        f"p99 {timings[int(len(timings) * 0.99)] * 1e3:.3f} ms, max {timings[-1] * 1e3:.3f} ms"
    )
    print(f"slowest question (best of 3): {best_slowest * 1e3:.3f} ms  {slowest!r}")
    if declined:
        print(
            f"unanswered questions ({len(declined)}): match + suggest, best of 3: median "
            f"{statistics.median(declined) * 1e3:.3f} ms, max {declined[-1] * 1e3:.3f} ms"
        )


def _time(fn, arg: str) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn(arg)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
