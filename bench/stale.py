"""Does the mover's own screen show the move it just made? Own moves played through the
real client in a pseudo-terminal, at a table with a 30 s turn clock.

Run: python bench/stale.py --burners 2   (300 own moves, some minutes; --quick: 12)

A real `sarja-server` (127.0.0.1, port 0) and two real `sarja-client`s, Aino and
Bertil, each in an 80×24 pseudo-terminal read through pyte, at a two-player table
with a 30 s turn clock. Whoever's title says it is their turn plays by keys as a
hurried person does (the digit of the first card that can be used, Enter; a dead card
exchanged, once a turn), game after game (a rematch at each end, asked for on each
screen once it shows the end). After each own move the mover's screen is read as it
comes: the title, the board's space (the one the log tells), the clock's line, the hand
and the log each either show the move or not. Once one part shows it, the next redraw
(the clock's line counting on) must show it in every part; a screen that does not is
*stale*, and how long it stayed so is kept too. (The diff of one redraw is written top
to bottom, so a part read means those above it of the same redraw are read.)

`--burners N` runs N busy loops beside it (each a `python -c 'while 1: pass'`),
ended when it ends: a loaded machine is where a redraw waits longest.

Its last line is one JSON object: {"own_moves": n, "stale_screens": n,
"stale_seconds_max": s, "burners": n, "enters_without_move": n} (an Enter that made no
move: the clock's computer was first, or the server refused it; not a move, not stale).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.pty_screen import Terminal  # noqa: E402

BIN = Path(sys.executable).parent
TURN = "▶ YOUR TURN ◀"
OVER = "Game over"
PATIENCE = 60.0
OWN = re.compile(r"You (?:played \S+ at|removed .*? chip at) (?P<cell>[A-J]\d+)\b")
# The computer's move for the mover's seat (its clock ran out): not a move the bench made.
STAND_IN = re.compile(r"The computer (?:played for you|, for you,)")
# A hand's items: the digit that picks each card, its label, what it does.
ITEM = re.compile(r"\[(\d)\](\S+?)(?: (wild|remove|dead))?(?= |$)")
# The status line once a card is picked: "K♣: 2 open spaces…", "2♥ is dead…",
# "Q♦ cannot be played now.", "J♦ is wild…".
PICKED = re.compile(r"^\s*(\S+?)(?:: \d| is dead| cannot| is wild)")
CHOOSE = "more than one way: choose"  # the status line as the five chooser opens
SETTLE = 5.0  # a key's redraw not seen in this long: the key is typed again


def command(name: str) -> list[str]:
    script = BIN / name
    if script.exists():
        return [str(script)]
    module = {"sarja-server": "sarja.server.cli", "sarja-client": "sarja.client"}[name]
    return [sys.executable, "-m", module]


@dataclass
class Seen:
    """One screen of the game, in parts."""

    title: str
    board: list[str]
    clock: str
    hand: str
    log: list[str]
    status: str

    @classmethod
    def of(cls, screen: str) -> Seen:
        lines = screen.splitlines()
        top = next((i for i, line in enumerate(lines) if re.match(r"^\s+A\s+B\s+C", line)), 1)
        board = lines[top : top + 12]  # the letters, ten rows, the cursor's line
        clock = next((line for line in lines if line.startswith("⏱")), "")
        at = next((i for i, line in enumerate(lines) if line.startswith(" Hand ")), None)
        if at is None:  # the end of a game: what each held, then the log
            held = next((i for i, line in enumerate(lines) if " held: " in line), len(lines))
            told = [line.strip() for line in lines[held + 1 : -2]]
            return cls(lines[0], board, clock, "", told, lines[-2].strip())
        end = at + 1
        while end < len(lines) and lines[end].startswith("      ") and lines[end].strip():
            end += 1  # the hand's wrapped lines
        hand = " ".join(line.strip() for line in lines[at:end])
        told = [line.strip() for line in lines[end:-2]]
        return cls(lines[0], board, clock, hand, told, lines[-2].strip())

    def pile(self) -> str:
        """The side panel's draw pile ("Draw pile 85")."""
        return next(
            (m.group(0) for line in self.board if (m := re.search(r"Draw pile \d+", line))), ""
        )

    def cursor(self) -> str:
        """The space under the cursor, as the line under the board names it ("E9")."""
        found = re.match(r"\s*([A-J]\d+):", self.board[11] if len(self.board) > 11 else "")
        return found.group(1) if found else ""

    def space(self, cell: str) -> str:
        """What the board shows at `cell` ("E9"), its marks included."""
        header = self.board[0]
        first, second = header.index("A"), header.index("B")
        width = second - first
        column = "ABCDEFGHIJ".index(cell[0])
        row = self.board[int(cell[1:])]
        start = first - width // 2 + column * width
        return row[start : start + width]


def moved(before: Seen, after: Seen, cell: str) -> dict[str, bool]:
    """Which parts of the screen `after` show the move made at `cell` on the screen
    `before`, top to bottom as a redraw writes them. Once the log tells a move after it
    (the other's answer, or the computer's for them when their clock ran out) the turn
    is ours again, and the title and the clock say so rightly."""
    over = OVER in after.title or not after.hand
    told = new_lines(before.log, after.log)
    own = next((i for i, line in enumerate(told) if OWN.search(line)), None)
    answered = own is not None and own + 1 < len(told)
    return {
        "title": answered or TURN not in after.title,
        "board": after.space(cell)[1:-1] != before.space(cell)[1:-1]
        or (own is not None and answered and any(cell in line for line in told[own + 1 :])),
        "clock": answered or over or (bool(after.clock) and "your turn" not in after.clock),
        # (Played the card just drawn and drew its twin: the same hand, one card fewer
        # in the draw pile beside the board.)
        "hand": over or after.hand != before.hand or after.pile() != before.pile(),
        "log": own is not None,
    }


def new_lines(before: list[str], after: list[str]) -> list[str]:
    """The log lines of `after` that `before` did not end with."""
    for k in range(min(len(before), len(after)), 0, -1):
        if before[-k:] == after[:k]:
            return after[k:]
    # Scrolled by more than a screen, or the log's height changed: what is not in it.
    old = set(before)
    return [line for line in after if line not in old]


def pick(person: Terminal, key: str, label: str) -> Seen | None:
    """Pick a card by its digit: the screen whose status line tells that card picked
    (None if the turn ended first). Each card is picked at most once a turn and the
    line of an earlier pick is put away first, so the line read is this key's."""
    person.type(key)
    deadline = time.monotonic() + PATIENCE
    again = time.monotonic() + SETTLE
    while True:
        seen = Seen.of(person.text())
        found = PICKED.match(seen.status)
        if found and found.group(1) == label:
            return seen
        if TURN not in seen.title:
            return None
        assert time.monotonic() < deadline, person.text()
        if time.monotonic() > again:  # (the same pick again changes nothing)
            person.type(key)
            again = time.monotonic() + SETTLE
        time.sleep(0.005)


def tells(person: Terminal, before: list[str], what: str) -> bool:
    """Wait until the log tells `what` of the person (True), or their status line
    tells a refusal or the turn ended (False)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        seen = Seen.of(person.text())
        if any(what in line for line in new_lines(before, seen.log)):
            return True
        if TURN not in seen.title or (seen.status and not PICKED.match(seen.status)):
            return False
        assert time.monotonic() < deadline, person.text()
        time.sleep(0.005)


def hurry(person: Terminal) -> Seen | None:
    """The turn as a hurried person plays it: the first card in the hand that can be
    used picked by its digit, its space under the cursor (for a wild jack, `n` puts
    the cursor on an open space first), and that screen returned for Enter to play it.
    On the way one dead card is exchanged (one a turn: the next is passed over), and
    with nothing to play the turn is passed. None if no card is left to play this
    turn: passed, or the turn ended by the clock or the computer."""
    seen = Seen.of(person.text())
    if PICKED.match(seen.status):  # an earlier pick's line: put the card back first
        person.type("\x1b")
        deadline = time.monotonic() + PATIENCE
        while PICKED.match((seen := Seen.of(person.text())).status):
            assert time.monotonic() < deadline, person.text()
            time.sleep(0.005)
    exchanged = "exchanged)" in seen.hand
    tried: set[str] = set()  # each card at most once a turn (twins alike)
    while TURN in seen.title:
        item = next((i for i in ITEM.finditer(seen.hand) if i.group(2) not in tried), None)
        if item is None:  # nothing to play: pass
            person.type("p")
            tells(person, seen.log, "You passed")
            return None
        key, label, does = item.groups()
        tried.add(label)
        if does == "dead" and exchanged:
            continue
        picked = pick(person, key, label)
        if picked is None:
            return None
        status = picked.status
        if "is dead" in status:
            person.type("x")
            exchanged = True  # told or refused, the turn has had its exchange
            tells(person, picked.log, "You exchanged")  # (or refused: the line says why)
            tried.clear()  # a new card, and those passed over may be tried again
            seen = Seen.of(person.text())
            continue
        if "cannot" in status:
            continue
        if "is wild" in status:
            person.type("n")
            deadline = time.monotonic() + PATIENCE
            while (now := Seen.of(person.text())).cursor() == picked.cursor():
                if TURN not in now.title:
                    return None
                assert time.monotonic() < deadline, person.text()
                time.sleep(0.005)
            return now
        return picked
    return None


def next_screen(person: Terminal, timeout: float = PATIENCE) -> str:
    deadline = time.monotonic() + timeout
    while not person.pump():
        assert time.monotonic() < deadline, person.text()
        time.sleep(0.002)
    return person.text()


def rematch(people: list[Terminal]) -> None:
    """At a game's end each asks for a rematch on their own screen's end (an `r` typed
    before that screen is refused: "once the game is over"), again if it is not told
    within a while; until the next game is on every screen."""
    deadline = time.monotonic() + PATIENCE
    typed: dict[int, float] = {}
    while True:
        screens = [p.text() for p in people]
        if not any(OVER in screen for screen in screens):
            return
        for i, (person, screen) in enumerate(zip(people, screens, strict=True)):
            waits = OVER in screen and "You asked for a rematch" not in screen
            if waits and time.monotonic() > typed.get(i, 0.0) + SETTLE:
                person.type("r")
                typed[i] = time.monotonic()
        assert time.monotonic() < deadline, "\n".join(screens)
        time.sleep(0.01)


def mover_of(people: list[Terminal]) -> tuple[Terminal, str]:
    """Whoever's screen says it is their turn (or offers the five chooser), and that
    screen; at a game's end both ask for a rematch first."""
    deadline = time.monotonic() + PATIENCE
    while True:
        screens = [p.text() for p in people]
        if any(OVER in screen for screen in screens):
            rematch(people)
            continue
        for person, screen in zip(people, screens, strict=True):
            if TURN in screen.splitlines()[0] or "Which five" in screen:
                return person, screen
        assert time.monotonic() < deadline, "\n".join(screens)
        time.sleep(0.005)


def play(people: list[Terminal], moves: int, stale: list[float]) -> tuple[int, int]:
    """Play `moves` own moves (whoever's turn it is, game after game); returns how many
    were made, and how many Enters made none (the clock or the computer was first, or
    the move was refused). A move is stale if, once some part of the mover's screen
    shows it, a later redraw (the clock's line counting on) still leaves a part that
    does not. Its space is the one the log tells (the cursor's until then)."""
    made = missed = 0
    while made < moves:
        person, screen = mover_of(people)
        if "Which five" in screen:
            person.type("\r")
            continue
        before = Seen.of(screen)
        picked = hurry(person)
        if picked is None:
            continue
        # The card is picked and the cursor on its space: the move plays there.
        cell = picked.cursor()
        assert cell, person.text()
        person.type("\r")
        first: str | None = None  # the clock's line on the first screen that showed it
        since: float | None = None
        deadline = time.monotonic() + PATIENCE
        chose = False
        while True:
            screen = next_screen(person)
            after = Seen.of(screen)
            choosing = "Which five" in screen or CHOOSE in after.status
            if choosing and not chose:  # the first five the chooser offers
                person.type("\r")
                chose = True
                continue
            news = new_lines(before.log, after.log)
            own = next((found for line in news if (found := OWN.search(line))), None)
            if own is None and (
                any(STAND_IN.search(line) for line in news)
                or (after.status not in ("", picked.status) and CHOOSE not in after.status)
            ):  # the computer was first, or the server refused it
                print(f"no own move made at {cell}: {after.status or news[-1]}")
                break
            cell = own.group("cell") if own else cell
            parts = moved(before, after, cell)
            if all(parts.values()):
                break
            if first is None and any(parts.values()):
                first = after.clock
            elif first is not None and after.clock != first and since is None:
                since = time.monotonic()
                missing = ", ".join(part for part, shows in parts.items() if not shows)
                print(f"stale after own move {made + 1} at {cell}: no {missing} on\n{screen}")
            assert time.monotonic() < deadline, f"never shown:\n{screen}"
        if own is None:
            missed += 1
            continue
        if since is not None:
            stale.append(time.monotonic() - since)
        made += 1
    return made, missed


def run(moves: int, burners: int) -> dict[str, float]:
    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(burners)]
    server: subprocess.Popen[str] | None = None
    people: list[Terminal] = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            server = subprocess.Popen(
                [*command("sarja-server"), "--host", "127.0.0.1", "--port", "0",
                 "--data-dir", f"{tmp}/data"],
                stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            assert server.stdout is not None
            address = next(
                line.split()[-1] for line in server.stdout if "sarja-client 127.0.0.1:" in line
            )
            for name in ("Aino", "Bertil"):
                env = {**os.environ, "XDG_CONFIG_HOME": f"{tmp}/{name}"}
                argv = [*command("sarja-client"), address, "--name", name, "--lang", "en"]
                people.append(Terminal(argv, env))
            aino, bertil = people
            aino.wait_for("No tables yet")
            aino.type("n")
            aino.wait_for("New table")
            aino.type("\t" * 10 + " ")  # the eleventh field: a 30 s turn clock
            aino.wait_for("30 s")
            aino.type("\r")
            aino.wait_for("Aino (you)")
            bertil.wait_for("Aino's table")
            bertil.type("\r")
            bertil.wait_for("Bertil (you)")
            for person in people:
                person.type("r")
            for person in people:
                person.wait_for(" Hand ")
            stale: list[float] = []
            made, missed = play(people, moves, stale)
            assert not any(b"Traceback" in p.raw for p in people)
        finally:
            for person in people:
                person.close()
            if server is not None:
                server.terminate()
                server.wait(10)
            for burner in busy:
                burner.kill()
                burner.wait()
    return {
        "own_moves": made,
        "stale_screens": len(stale),
        "stale_seconds_max": round(max(stale, default=0.0), 2),
        "burners": burners,
        "enters_without_move": missed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="own moves (default 300)")
    parser.add_argument("--quick", action="store_true", help="12 own moves: the tests' run")
    parser.add_argument("--burners", type=int, default=0, help="busy loops beside it")
    args = parser.parse_args()
    figures = run(12 if args.quick else args.moves, args.burners)
    print(
        f"{figures['own_moves']} own moves at a 30 s clock table, {args.burners} CPU burners:"
        f" {figures['stale_screens']} stale screens (the longest {figures['stale_seconds_max']} s)"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
