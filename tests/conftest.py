"""What every test shares: the language is English unless a test chooses another, and
the settings are the suite's own.

The language is the process's (sarja.lang, like gettext's), so a test that switches it
(the lobby's F, an intent carried out on every screen) must not leave the tests after
it speaking Finnish."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

from sarja import lang

# No test reads or writes the settings and records of whoever runs the suite (a client
# they ran with --lang fi would make a test's sarja-bot speak Finnish): the processes a
# test starts inherit these, unless the test gives its own.
_HOME = tempfile.mkdtemp(prefix="sarja-tests-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")


@pytest.fixture(autouse=True)
def _english_after_each_test():
    yield
    if lang.language() != "en":
        lang.use("en")


@pytest.fixture(params=["en", "fi"])
def language(request: pytest.FixtureRequest) -> str:
    """A test asking for it runs in English and in Finnish (the language it speaks)."""
    lang.use(request.param)
    return str(request.param)
