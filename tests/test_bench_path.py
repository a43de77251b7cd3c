"""bench/path.py's counting, on traces made up here: no server."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

import pytest

BENCH_PATH = Path(__file__).resolve().parent.parent / "bench" / "path.py"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(BENCH_PATH.parent))  # bench/path.py's own imports
    spec = importlib.util.spec_from_file_location("bench_path", BENCH_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_return_is_an_entry_into_a_file_entered_before(bench):
    assert bench.count([["a", "b", "a", "c", "b"]]) == (3, 2)
    # Repeats in a row are one entry; a task's step starts afresh, so coming back to
    # a file in the next step is a return too.
    steps = [
        ["server/connection.py", "protocol/codec.py", "protocol/codec.py", "server/connection.py"],
        [],
        ["server/outflow.py", "server/connection.py", "server/connection.py"],
    ]
    assert bench.entered(steps[0]) == [
        "server/connection.py",
        "protocol/codec.py",
        "server/connection.py",
    ]
    assert bench.count(steps) == (3, 2)
    assert bench.count([["a"], ["a"], ["a"]]) == (1, 2)
    assert bench.count([]) == (0, 0)


@types.coroutine
def _trap() -> Any:
    return (yield "suspended")


async def _inner() -> int:
    return int(await _trap()) + 1


async def _outer() -> int:
    return await _inner()


def test_a_coroutine_resumed_or_suspending_is_told_from_a_call_and_a_return(bench):
    seen: list[tuple[str, str, bool]] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if frame.f_code.co_filename != __file__ or event not in ("call", "return"):
            return
        skipped = bench.resumed(frame) if event == "call" else bench.yielding(frame)
        seen.append((event, frame.f_code.co_name, skipped))

    coro = _outer()
    sys.setprofile(profile)
    try:
        coro.send(None)
        with pytest.raises(StopIteration):
            coro.send(41)
    finally:
        sys.setprofile(None)
    assert seen == [
        # Called, then suspended at the trap: every frame yields on the way out.
        ("call", "_outer", False),
        ("call", "_inner", False),
        ("call", "_trap", False),
        ("return", "_trap", True),
        ("return", "_inner", True),
        ("return", "_outer", True),
        # Resumed through every frame, then each really returns.
        ("call", "_outer", True),
        ("call", "_inner", True),
        ("call", "_trap", True),
        ("return", "_trap", False),
        ("return", "_inner", False),
        ("return", "_outer", False),
    ]
