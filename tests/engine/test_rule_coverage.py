"""Every rule of RULES.md is named by at least one test (in a test name, a parametrize id or
a docstring), and every worked example of §7 has a test. Rules the engine cannot test are
listed below with the reason."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
RULES = Path(__file__).resolve().parents[2].parent / "shared/rules/RULES.md"

#: Rules with no engine behaviour to test, each with why.
NOT_TESTABLE = {
    "C-10": "rendering recommendation (orientation on screen); the engine has no pictures",
}


def rules_text() -> str:
    if not RULES.exists():
        pytest.skip(f"RULES.md not found at {RULES} (the shared rules live outside the repo)")
    return RULES.read_text(encoding="utf-8")


def names_in(path: Path) -> list[str]:
    """What names a test in ``path``: test function names, their docstrings, and the ids of
    ``pytest.param(..., id=...)`` and ``ids=[...]`` (comments and helpers do not count)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            out.append(node.name)
            out.append(ast.get_docstring(node) or "")
        elif isinstance(node, ast.keyword) and node.arg in ("id", "ids"):
            out.extend(
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            )
    return out


def collected_text() -> str:
    files = [p for p in sorted(TESTS.rglob("test_*.py")) if p.resolve() != Path(__file__).resolve()]
    return "\n".join(text for path in files for text in names_in(path))


def named(rule_id: str, text: str) -> bool:
    """``C-1`` is named by "C-1" or "C_1" (as in ``test_C_1_…``), not by "C-12" or "T-C-1";
    ``T-L22a`` by "T-L22a" or "T_L22a", not by "T-L22"."""
    pattern = re.escape(rule_id).replace(r"\-", "[-_]")
    return re.search(rf"(?<![A-Za-z0-9-]){pattern}(?![A-Za-z0-9])", text) is not None


def test_every_rule_id_is_named_by_a_test() -> None:
    ids = re.findall(r"^\*\*([CLSMV]-\d+) ", rules_text(), flags=re.MULTILINE)
    assert len(ids) > 100, "RULES.md headings not found; has the format changed?"
    assert len(ids) == len(set(ids)), "duplicate rule IDs in RULES.md"
    text = collected_text()
    missing = [rid for rid in ids if rid not in NOT_TESTABLE and not named(rid, text)]
    assert not missing, f"rules no test names: {missing}"
    assert set(NOT_TESTABLE) <= set(ids), "the allow-list names a rule RULES.md does not have"


def test_every_worked_example_has_a_test() -> None:
    examples = re.findall(r"^\| (T-[LSM]\d+[a-z]?) \|", rules_text(), flags=re.MULTILINE)
    assert len(examples) >= 60
    text = collected_text()
    missing = [ex for ex in examples if not named(ex, text)]
    assert not missing, f"worked examples without a test: {missing}"


@pytest.mark.parametrize(
    ("rule_id", "text", "expected"),
    [
        ("C-1", "test_C_1_checkers", True),
        ("C-1", "id='C-1 no checker'", True),
        ("C-1", "C-12 lot", False),
        ("C-1", "T-C-1", False),
        ("L-2", "(L-2, L-3)", True),
        ("T-L1", "test_T_L1_first", True),
        ("T-L1", "T-L12", False),
        ("T-S9", "T-S9b only", False),
    ],
)
def test_named_matches_whole_ids_only(rule_id: str, text: str, expected: bool) -> None:
    assert named(rule_id, text) is expected
