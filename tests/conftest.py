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
