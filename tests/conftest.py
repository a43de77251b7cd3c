"""What every test shares: the language is English unless a test chooses another.

The language is the process's (sarja.lang, like gettext's), so a test that switches it
(the lobby's F, an intent carried out on every screen) must not leave the tests after
it speaking Finnish."""

from __future__ import annotations

import pytest

from sarja import lang


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
