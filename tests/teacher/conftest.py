"""Fixtures of the teacher's tests: one trainer for the whole session.

Several tests train the learned model — on everything (the shipped file must be what training
gives) and without each blind set in turn (the held-out guards). A session-scoped
``teacher.training.Trainer`` shares what does not depend on the training set between them: the
dictionary reader, the keyword score of each distinct reading of a question, and each trained
model under a content hash of its rows. It lives in memory for one run only, so it cannot go
stale.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from teacher.matcher import Matcher
from teacher.training import Trainer

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def train_script() -> ModuleType:
    """``scripts/teacher_train.py``, loaded as a module (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location(
        "teacher_train", REPO / "scripts/teacher_train.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def trainer() -> Trainer:
    """The trainer every test that trains a model shares."""
    return Trainer()


@pytest.fixture(scope="session")
def keyword_matcher() -> Matcher:
    """A matcher without the learned model (what training reads questions with), built once."""
    return Matcher(learn=False)
