"""How long the client takes from an update's bytes to a finished screen.

Run: python bench/client.py   (well under a minute; --quick or --games 1 for a glance).

The games are real: random two-player games played by the rules engine and turned into
one seat's protocol 2 messages by the server's own presenter (a snapshot, then per move
the public `update` and, when they apply, this seat's `hand` and `legal`), framed by the
server's codec. For every move the clock covers what the client does when they arrive:
the client session decodes the frames, the model takes them in (the game mirror moves on,
the log gets its sentences), and prompt_toolkit renders the whole screen (layout,
styles, and the escape codes for what changed) into an in-memory terminal. Half the
time a card is picked, so its spaces are highlighted too. Sockets and the event loop's
wake-up are not included.

It prints figures only and asserts nothing about speed; its last line is one JSON
object: {"render_ms_80x24": median ms, "render_ms_160x50": median ms}, and the same in
Finnish ("render_ms_80x24_fi", "render_ms_160x50_fi"): the same games, every sentence
from the catalog. Beside each, "floor_render_ms_…" is prompt_toolkit's own price for
painting those very screens (`floor`: one FormattedTextControl of the same cells, the
same diff from screen to screen), and "render_over_floor_…" the client's median over it:
most of a big screen's time is prompt_toolkit's, copying every cell and diffing it.
"layout_floor_ms_…" is prompt_toolkit's price for the client's own layout (`repaint`:
each screen laid out and painted again, frame by frame in the same run, from the lines
its parts drew, nothing taken in or drawn), and "render_over_layout_floor_…" the
client's median over that: the client's own work (decoding, the model, drawing) is
the difference.
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import random
import statistics
import time
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import DummyInput
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.layout.screen import Screen, Transparent
from prompt_toolkit.output.vt100 import Vt100_Output

from sarja import lang
from sarja.client import model as m
from sarja.client import receive
from sarja.client.app import ClientApp
from sarja.client.parts import Region
from sarja.client.styles import no_color, style
from sarja.protocol.codec import ServerCodec
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import Seat, Sync, TableView, Welcome
from sarja.server import present
from sarja.server.engine import Arrangement, Game
from sarja.server.engine.board import LAYOUT_CODES

TARGET_MS = 10.0
NAMES = ["Aino", "Bertil"]


def game_frames(rng: random.Random, seat: int) -> list[list[bytes]]:
    """The frames one seat receives over a random game, grouped as they come: the
    welcome, the table and the snapshot first, then one group per move."""
    arrangement = Arrangement.of(2)
    server = ServerCodec()
    seats = tuple(Seat(name=n, ready=True, away=False) for n in NAMES)
    welcome = Welcome(
        version=PROTOCOL_VERSION, session="s1", resume="x" * 43, server_id="bench",
        layout=LAYOUT_CODES, server="Bench", shapes=present.table_shapes(),
    )  # fmt: skip
    table = TableView(
        id="t1", name="Bench", players=2, teams=2, seats=seats, spectators=0, started=True,
        rules=present.rules_of(arrangement), computer_takeover=False, seat=seat,
    )  # fmt: skip
    game = Game.new(arrangement, rng)
    away = [False, False]
    first = [
        server.send(welcome),
        server.send(table),
        server.send(present.snapshot("t1", 0, game, seat, NAMES, away, None)),
    ]
    groups = [first]
    held = present.hand_part(game, seat)
    version = 0
    while game.outcome is None:
        mover = game.turn
        events = game.apply(mover, rng.choice(game.legal_actions(mover)))
        version += 1
        group = [server.send(present.update(version, game, tuple(events)))]
        if game.outcome is None:
            part = present.hand_part(game, seat)
            if part != held:
                group.append(server.send(present.hand_message(version, part, None)))
                held = part
            legal = present.legal_message(version, game, seat)
            if legal is not None:
                group.append(server.send(legal))
        groups.append(group)
    return groups


class Terminal(io.StringIO):
    """An in-memory terminal: prompt_toolkit writes its escape codes here."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def measure(
    groups: list[list[bytes]],
    rng: random.Random,
    columns: int,
    rows: int,
    painted: list[Painted] | None = None,
    layout_floor: list[float] | None = None,
) -> list[float]:
    """The time of each move's update, received to rendered; with `painted`, each
    screen's cells are kept there too (outside the clock), for `floor`; with
    `layout_floor`, the time prompt_toolkit takes to lay out and paint the same screen
    again from the lines each part just drew (see `repaint`), frame by frame."""
    model = m.Model(address="bench:7474", name="Aino", named=True, link="online")
    terminal = Terminal()
    output = Vt100_Output(terminal, lambda: Size(rows=rows, columns=columns), term="xterm-256color")
    client = ClientApp(model, "bench", 7474, input=DummyInput(), output=output)
    app = client.app
    session = model.session
    times: list[float] = []
    kept: list[tuple[Screen, list[list[Any]]]] = []
    board = client.screen.named["board"]
    draw = board.draw
    drawn = [0]

    def counted(width: int, height: int) -> list[Any]:
        drawn[0] += 1
        return draw(width, height)

    board.draw = counted
    before: Screen | None = None
    with set_app(app):
        for i, group in enumerate(groups):
            if i and model.hand and rng.random() < 0.5:
                model.picked = rng.choice(model.hand)
            start = time.perf_counter()
            for frame in group:
                session.receive_data(frame)
                msg = session.next_message()
                assert msg is not None
                replies = receive.apply(model, msg, session.state)
                assert not any(isinstance(r, Sync) for r in replies), "no gap in a bench game"
            client.screen.changed()  # as the app does after each message
            app.render_counter += 1  # as Application._redraw does: no cached fragments
            app.renderer.render(app, app.layout)
            elapsed = time.perf_counter() - start
            if i:  # the first group is the welcome, the table and the snapshot
                times.append(elapsed)
                if layout_floor is not None:
                    layout_floor.append(repaint(app, before))
            before = app.renderer._last_screen
            if painted is not None:  # as it is (turned into text after the run, off the clock)
                kept.append(on_screen(app))
            terminal.seek(0)
            terminal.truncate()
    assert drawn[0] == len(groups), "every move must be drawn afresh"
    if painted is not None:
        painted += [screen_fragments(screen, lines, rows) for screen, lines in kept]
    assert model.game is not None and model.game.result is not None
    return times


def repaint(app: Application[Any], before: Screen | None) -> float:
    """The same screen painted again by the same layout, over the screen before it: the
    containers share out rows and columns, every window copies its lines and the diff
    is written, but no message is taken in and no part draws (each shows the lines it
    drew, as on a clock's tick). What is left of the client's time over this is its own
    work; this is prompt_toolkit's price for the client's layout."""
    app.renderer._last_screen = before
    app.render_counter += 1  # no change counted: every part keeps its lines (parts.py)
    start = time.perf_counter()
    app.renderer.render(app, app.layout)
    return time.perf_counter() - start


Painted = tuple[StyleAndTextTuples, int]  # a screen's style runs, its fragments drawn


def on_screen(app: Application[Any]) -> tuple[Screen, list[list[Any]]]:
    """The screen just rendered, and the lines each part on it drew."""
    screen = app.renderer._last_screen
    assert screen is not None
    lines = [
        window.content.lines
        for window in app.layout.find_all_windows()
        if window in screen.visible_windows_to_write_positions
        and isinstance(window.content, Region)
    ]
    return screen, lines


def screen_fragments(screen: Screen, lines: list[list[Any]], rows: int) -> Painted:
    """A screen as one formatted text (a fragment per run of cells in one style, rows
    joined by newlines), and how many fragments the client's parts drew for it."""
    runs: StyleAndTextTuples = []
    for y in range(rows):
        if y:
            runs.append(("", "\n"))
        row = screen.data_buffer[y]
        # (The cells the diff with the next screen only read are Transparent blanks.)
        end = max((x for x, c in row.items() if c.style != Transparent and
                   (c.char != " " or c.style)), default=-1)  # fmt: skip
        x = 0
        while x <= end:
            char = row[x]
            if runs and runs[-1][0] == char.style and runs[-1][1] != "\n":
                runs[-1] = (char.style, runs[-1][1] + char.char)
            else:
                runs.append((char.style, char.char))
            x += max(1, char.width)
    return runs, sum(len(line) for part in lines for line in part)


def floor(screens: list[Painted], columns: int, rows: int) -> list[float]:
    """What prompt_toolkit itself takes to paint the same screens, one after another:
    a bare full-screen Application with one FormattedTextControl of the same cells in
    the same styles (the client's style sheet), and the same diff with the screen
    before. The client's time over this is the price of taking the update in, its
    layout and its drawing."""
    terminal = Terminal()
    output = Vt100_Output(terminal, lambda: Size(rows=rows, columns=columns), term="xterm-256color")
    control = FormattedTextControl()
    app: Application[None] = Application(
        layout=Layout(Window(control)), style=style(no_color()), full_screen=True,
        mouse_support=True, input=DummyInput(), output=output,
    )  # fmt: skip
    times: list[float] = []
    with set_app(app):
        for i, (runs, _) in enumerate(screens):
            start = time.perf_counter()
            control.text = runs
            app.render_counter += 1
            app.renderer.render(app, app.layout)
            elapsed = time.perf_counter() - start
            if i:  # as in `measure`: the first screen is drawn on an empty one
                times.append(elapsed)
            terminal.seek(0)
            terminal.truncate()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="random games to draw (default 6)")
    parser.add_argument("--quick", action="store_true", help="one game: the test suite's run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = 1 if args.quick else args.games
    print(f"Python {platform.python_version()} on {platform.machine()}")
    figures: dict[str, float] = {}
    for language in lang.LANGUAGES:  # the same games in each
        lang.use(language)
        rng = random.Random(args.seed)
        for columns, rows in ((80, 24), (160, 50)):
            times: list[float] = []
            bare: list[float] = []
            laid: list[float] = []
            drawn = cells = screens = 0
            for g in range(games):
                painted: list[Painted] = []
                times += measure(game_frames(rng, g % 2), rng, columns, rows, painted, laid)
                bare += floor(painted, columns, rows)
                drawn += sum(n for _, n in painted)
                cells += sum(len(runs) for runs, _ in painted)
                screens += len(painted)
            times.sort()
            median = statistics.median(times) * 1000
            p95 = times[int(len(times) * 0.95)] * 1000
            print(
                f"{columns}×{rows} {language}: update received → screen rendered, over"
                f" {len(times)} moves: median {median:.2f} ms, 95th percentile {p95:.2f} ms"
                f" (target ≤ {TARGET_MS:.0f} ms median)"
            )
            least = statistics.median(bare) * 1000
            print(
                f"  the floor: prompt_toolkit painting the same screens from one"
                f" FormattedTextControl, median {least:.2f} ms (the client's median is"
                f" {median / least:.2f} times it); fragments per screen: the client's"
                f" parts {drawn / screens:.0f}, the floor's {cells / screens:.0f}"
            )
            again = statistics.median(laid) * 1000
            print(
                f"  the client's layout painted again from the lines its parts drew (no"
                f" message taken in, no part drawn), frame by frame: median {again:.2f} ms;"
                f" the client's own work is the {median - again:.2f} ms over it"
            )
            suffix = "" if language == "en" else f"_{language}"
            figures[f"layout_floor_ms_{columns}x{rows}{suffix}"] = round(again, 3)
            figures[f"render_over_layout_floor_{columns}x{rows}{suffix}"] = round(median / again, 2)
            figures[f"render_ms_{columns}x{rows}{suffix}"] = round(median, 3)
            figures[f"floor_render_ms_{columns}x{rows}{suffix}"] = round(least, 3)
            figures[f"render_over_floor_{columns}x{rows}{suffix}"] = round(median / least, 2)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
