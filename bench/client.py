"""How long the client takes from a `state` frame's bytes to a finished screen.

Run: python bench/client.py   (a few seconds).

The states are real: random two-player games played by the rules engine and turned into
each seat's `state` message by the server's own presenter, then framed by the server's
codec. For every state the clock covers what the client does when one arrives: the
client codec decodes the frame, the model takes the message in, and prompt_toolkit
renders the whole 80×24 screen (layout, styles, and the escape codes for what changed)
into an in-memory terminal. Half the time a card is picked, so its spaces are
highlighted too. Sockets and the event loop's wake-up are not included.

It prints figures only; it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import io
import platform
import random
import statistics
import time

from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import DummyInput
from prompt_toolkit.output.vt100 import Vt100_Output

from sarja.client import model as m
from sarja.client.app import ClientApp
from sarja.protocol import ClientCodec, ServerCodec
from sarja.protocol.messages import Rules, Seat, Table, Welcome
from sarja.server.engine import Arrangement, Game
from sarja.server.engine.board import LAYOUT_CODES
from sarja.server.present import state_message

TARGET_MS = 10.0


def game_frames(rng: random.Random, seat: int) -> list[bytes]:
    """Every `state` frame one seat receives over a random game, after the welcome and
    the table (so both codecs are in the right session state)."""
    arrangement = Arrangement.of(2)
    server = ServerCodec()
    rules = Rules(hand_size=arrangement.hand_size, manual_draw=False)
    frames = [
        server.send(Welcome(version=1, session="s1", resume="x" * 43, layout=LAYOUT_CODES,
                            server="Bench")),
        server.send(Table(id="t1", name="Bench", players=2, teams=2,
                          seats=(Seat(name="Aino", ready=True, away=False),
                                 Seat(name="Bertil", ready=True, away=False)),
                          spectators=0, started=True, rules=rules, computer_takeover=False,
                          seat=seat)),
    ]  # fmt: skip
    game = Game.new(arrangement, rng)
    names, away = ["Aino", "Bertil"], [False, False]
    while True:
        frames.append(server.send(state_message("t1", game, seat, names, away, arrangement)))
        if game.outcome is not None:
            return frames
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))


class Terminal(io.StringIO):
    """An in-memory terminal: prompt_toolkit writes its escape codes here."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def measure(frames: list[bytes], rng: random.Random, columns: int, rows: int) -> list[float]:
    model = m.Model(address="bench:7474", name="Aino", named=True, link="online")
    terminal = Terminal()
    output = Vt100_Output(terminal, lambda: Size(rows=rows, columns=columns), term="xterm-256color")
    client = ClientApp(model, "bench", 7474, input=DummyInput(), output=output)
    app = client.app
    codec = ClientCodec()
    times: list[float] = []
    with set_app(app):
        for i, frame in enumerate(frames):
            if i >= 2 and model.hand and rng.random() < 0.5:
                model.picked = rng.choice(model.hand)
            start = time.perf_counter()
            codec.receive_data(frame)
            msg = codec.next_message()
            m.apply(model, msg)
            app.render_counter += 1  # as Application._redraw does: no cached fragments
            app.renderer.render(app, app.layout)
            elapsed = time.perf_counter() - start
            if i >= 2:  # the welcome and the table are not state updates
                times.append(elapsed)
            terminal.seek(0)
            terminal.truncate()
    assert client.renders == len(frames), "every state must be drawn afresh"
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="random games to draw (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    for columns, rows in ((80, 24), (160, 50)):
        times: list[float] = []
        for g in range(args.games):
            times += measure(game_frames(rng, g % 2), rng, columns, rows)
        times.sort()
        median = statistics.median(times) * 1000
        p95 = times[int(len(times) * 0.95)] * 1000
        print(
            f"{columns}×{rows}: state received → screen rendered, over {len(times)} states:"
            f" median {median:.2f} ms, 95th percentile {p95:.2f} ms"
            f" (target ≤ {TARGET_MS:.0f} ms median)"
        )


if __name__ == "__main__":
    main()
