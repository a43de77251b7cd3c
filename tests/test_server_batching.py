"""Frames queued while a step runs are written when it ends; frames queued
elsewhere are written as soon as their task yields."""

import pytest
import trio

from sarja.server.batching import WriteBatcher


class Recorder:
    def __init__(self) -> None:
        self.flushes = 0

    def flush(self) -> None:
        self.flushes += 1


async def test_a_step_flushes_what_it_queued_before_returning() -> None:
    batcher, a, b = WriteBatcher(), Recorder(), Recorder()

    def work(data: bytes) -> str:
        batcher.waiting(a)
        batcher.waiting(b)
        assert a.flushes == b.flushes == 0  # nothing goes out in the middle of a step
        return data.decode()

    assert batcher.step(work, b"done") == "done"
    assert (a.flushes, b.flushes) == (1, 1)
    await trio.sleep(0)  # and nothing was left scheduled to flush them again
    assert (a.flushes, b.flushes) == (1, 1)


async def test_a_failing_step_still_flushes() -> None:
    batcher, a = WriteBatcher(), Recorder()

    def work(data: bytes) -> None:
        batcher.waiting(a)
        raise ValueError(data)

    with pytest.raises(ValueError):
        batcher.step(work, b"x")
    assert a.flushes == 1


async def test_outside_a_step_frames_go_when_the_task_yields() -> None:
    batcher, a, b = WriteBatcher(), Recorder(), Recorder()
    batcher.waiting(a)
    batcher.waiting(b)
    assert a.flushes == b.flushes == 0
    await trio.sleep(0)
    await trio.sleep(0)
    assert (a.flushes, b.flushes) == (1, 1)
