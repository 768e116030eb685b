"""Train the rules matcher's learned model and write teacher/data/question_model.json.

Usage: ``PYTHONPATH=. python scripts/teacher_train.py [--hold-out NAME ... | --loso] [--check]``.
The training questions are the tuning table (tests/teacher/test_knowledge.py) and every set in
tests/teacher/data (development sets and the blind sets already reported). ``--hold-out``
leaves the named sets out and prints the figures on them instead of writing the file — the
honest measure of how the model does on questions it never saw; ``--loso`` does that for each
blind set in turn (leave one set out) and adds the figures up. ``--check`` exits non-zero
when the shipped file differs from what training gives (the test suite runs the same check).
"""

from __future__ import annotations

import argparse
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from teacher.training import Trainer

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "teacher" / "data"
MODEL = REPO / "teacher" / "data" / "question_model.json"

LOSO_FOLDS: dict[str, tuple[str, ...]] = {
    "blind_set_v1.tsv": ("blind_set_v1.tsv",),
    "blind_set_v2.tsv": ("blind_set_v2.tsv",),
    # dev set 5 was written after reading v3's misses, so it leaves with v3.
    "blind_set_v3.tsv": ("blind_set_v3.tsv", "dev_set_5.tsv"),
    "blind_set_v4.tsv": ("blind_set_v4.tsv",),
    # dev set 6 was written after reading v5's misses, so it leaves with v5.
    "blind_set_v5.tsv": ("blind_set_v5.tsv", "dev_set_6.tsv"),
    "blind_set_v6.tsv": ("blind_set_v6.tsv",),
    "blind_set_v7.tsv": ("blind_set_v7.tsv",),
    "blind_set_v8.tsv": ("blind_set_v8.tsv",),
    "blind_set_v9.tsv": ("blind_set_v9.tsv",),
    "blind_set_v10.tsv": ("blind_set_v10.tsv",),
    "blind_set_v11.tsv": ("blind_set_v11.tsv",),
    "blind_set_v12.tsv": ("blind_set_v12.tsv",),
    "blind_set_v13.tsv": ("blind_set_v13.tsv",),
    "blind_set_v14.tsv": ("blind_set_v14.tsv",),
    "blind_set_v15.tsv": ("blind_set_v15.tsv",),
    "blind_set_v16.tsv": ("blind_set_v16.tsv",),
    "blind_set_v17.tsv": ("blind_set_v17.tsv",),
    "blind_set_v18.tsv": ("blind_set_v18.tsv",),
    "blind_set_v19.tsv": ("blind_set_v19.tsv",),
    "blind_set_v20.tsv": ("blind_set_v20.tsv",),
}
"""Leave-one-set-out: each blind set, evaluated by a model trained without it (and without
what was written knowing it). The written training sets (``train_set_13*``, round 13;
``train_set_14*``, round 14; ``train_set_17*``, round 17) are always in training: nobody wrote
them knowing a blind set's questions."""


@cache
def labelled_sets() -> dict[str, list]:  # type: ignore[type-arg]
    """Every labelled set by name: ``table`` and each TSV file of tests/teacher/data (read once
    a run; not to be changed by the caller)."""
    sys.path.insert(0, str(REPO))
    from teacher.evaluation import Row, read_set
    from teacher.text import script_of
    from tests.teacher.test_knowledge import QUESTIONS, UNRELATED

    def lang(q: str) -> str:
        return "ru" if any(script_of(w) == "cyr" for w in q.split()) else "en"

    sets: dict[str, list[Row]] = {
        "table": [Row(lang(q), topic, q) for q, topic, _ in QUESTIONS]  # type: ignore[arg-type]
        + [Row(lang(q), "none", q) for q in UNRELATED]  # type: ignore[arg-type]
    }
    for path in sorted(DATA.glob("*.tsv")):
        sets[path.name] = read_set(path)
    return sets


def trained_json(hold_out: tuple[str, ...] = (), trainer: Trainer | None = None) -> str:
    """The model file's text, trained on every labelled set except ``hold_out`` (by
    ``trainer``, which shares its readings between models, or a new one)."""
    from teacher.training import Trainer

    sets = labelled_sets()
    rows = [row for name, rows in sets.items() if name not in hold_out for row in rows]
    return (trainer or Trainer()).train(rows).to_json()


def leave_one_set_out() -> str:
    """Each blind set's figures from a model trained without it, then all of them added up."""
    from teacher.evaluation import evaluate, pooled, report
    from teacher.learned import Counts
    from teacher.training import Trainer

    sets = labelled_sets()
    trainer = Trainer()
    parts = []
    lines = []
    for name, without in LOSO_FOLDS.items():
        matcher = trainer.matcher(Counts.from_json(trained_json(without, trainer)))
        figures = evaluate(sets[name], matcher)
        parts.append(figures)
        lines += [f"== {name} (trained without {', '.join(without)})", report(figures)]
    lines += [f"== all {len(parts)} (leave one set out)", report(pooled(parts))]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hold-out", nargs="*", default=[], metavar="NAME")
    parser.add_argument("--loso", action="store_true", help="leave each blind set out in turn")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.loso:
        print(leave_one_set_out())
        return
    if args.hold_out:
        from teacher.evaluation import evaluate, report
        from teacher.learned import Counts, QuestionModel
        from teacher.matcher import Matcher

        sets = labelled_sets()
        unknown = set(args.hold_out) - set(sets)
        if unknown:
            parser.error(f"no such set: {', '.join(sorted(unknown))} (have {', '.join(sets)})")
        model = QuestionModel(Counts.from_json(trained_json(tuple(args.hold_out))))
        matcher = Matcher(model=model)
        for name in args.hold_out:
            print(f"== {name} (held out of training)")
            print(report(evaluate(sets[name], matcher)))
        return
    text = trained_json()
    if args.check:
        current = MODEL.read_text(encoding="utf-8") if MODEL.exists() else ""
        if current != text:
            sys.exit(f"{MODEL} is stale: run scripts/teacher_train.py")
        print("up to date")
        return
    MODEL.parent.mkdir(parents=True, exist_ok=True)
    MODEL.write_text(text, encoding="utf-8")
    print(f"wrote {MODEL} ({len(text.encode()) // 1000} KB)")


if __name__ == "__main__":
    main()
