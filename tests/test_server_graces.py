"""The graces that keep the computer fair to people, at the table itself (no sockets):
the lobby and its tables with a clock the test moves, people as outboxes that keep what
they are sent, and the computer's moves made by hand from `computer_turn`; last, the
computer players' own task, on trio's mock clock, woken when a grace runs out.

- the stand-in plays an away person's seat only once they have been gone the grace
  (after a disconnect, a deliberate `leave`, a restart), and its moves are marked;
- a computer waits for the previous seat's manual draw, and takes its own draw with its
  move: over 200 games, no computer seat ever loses a draw;
- a spectator is watching again after a restart.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from sarja.protocol.messages import (
    ClientMessage,
    CreateTable,
    Join,
    Leave,
    Ready,
    ServerMessage,
    Spectate,
    Update,
)
from sarja.protocol.moves import action_message
from sarja.server.bots import make_player
from sarja.server.computers import Computers
from sarja.server.config import ServerConfig
from sarja.server.guest import Guest
from sarja.server.journal import FILE_NAME, Journal
from sarja.server.lobby import Lobby
from sarja.server.table import Table

GRACE = ServerConfig.hand_over_after
DRAW_GRACE = ServerConfig.draw_grace


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Box:
    """An outbox that keeps every message sent to it."""

    def __init__(self) -> None:
        self.sent: list[ServerMessage] = []
        self.closed = False

    def send(self, msg: ServerMessage) -> None:
        self.sent.append(msg)

    def encode(self, msg: ServerMessage) -> bytes:
        return b""

    def send_encoded(self, msg: ServerMessage, frame: bytes) -> None:
        self.sent.append(msg)

    def close(self, code: str, message: str) -> None:
        self.closed = True

    def updates(self) -> list[Update]:
        return [m for m in self.sent if isinstance(m, Update)]


class Place:
    """A lobby with a clock of the test's, its people, and what carries out the effects
    of its steps (as the server's does: the rows to the journal, each message to the
    outbox of each guest it is for, the computer's timers to its task)."""

    def __init__(self, clock: Callable[[], float], path: Path | None = None, seed: int = 1) -> None:
        self.clock = clock
        self.journal = Journal(path)
        config = ServerConfig(host="127.0.0.1", port=0, seed=seed)
        self.lobby = Lobby(config, random.Random(seed), "srv", self.journal, clock=clock)
        self.computers = Computers(
            config.takeover_delay, config.computer_budget, config.think_time, config.seed,
            workers=config.search_workers, processes=config.search_processes,
            carry=self.carry, clock=clock,
        )  # fmt: skip
        self.boxes: dict[str, Box] = {}
        self._ids = iter(range(1, 1_000_000))

    def carry(self) -> None:
        fx = self.lobby.fx.take()
        self.journal.write(fx.rows)
        for guest, msg in fx.messages():
            if guest.outbox is not None:
                guest.outbox.send(msg)
        for outbox, code, message in fx.closes:
            outbox.close(code, message)
        for timer in fx.timers:
            self.computers.wake(timer.table, timer.at)
        for table in fx.stopped:
            self.computers.stop(table)

    def hello(self, name: str, resume: str | None = None) -> Guest:
        box = self.boxes[name] = Box()
        guest = self.lobby.hello(name, resume, box)
        self.carry()
        return guest

    def handle(self, guest: Guest, msg: ClientMessage) -> None:
        self.lobby.handle(guest, msg)
        self.carry()

    def disconnected(self, guest: Guest) -> None:
        self.lobby.disconnected(guest, self.boxes[guest.name])
        self.carry()

    def restore(self) -> None:
        self.lobby.restore(self.journal.load())
        self.carry()

    def shutdown(self) -> None:
        self.lobby.shutdown("The server is shutting down.")
        self.carry()

    def table(self) -> Table:
        [table] = self.lobby.tables.values()
        return table

    def act(self, guest: Guest, notation: str) -> None:
        table = self.table()
        msg = action_message(notation, next(self._ids), table.version)
        self.handle(guest, msg)

    def computer(self) -> bool:
        """The computer makes its next move here, if it has one now."""
        table = self.table()
        turn = table.computer_turn(self.clock())
        if turn is None:
            return False
        action = make_player(turn.level, seed=3).choose(turn.view)
        assert table.computer_move(turn, action, self.clock())
        self.carry()
        return True


def two_seats(place: Place, **rules: Any) -> tuple[Guest, Guest, Table]:
    """Aino and Bertil at a 2-seat table, the game started."""
    aino, bertil = place.hello("Aino"), place.hello("Bertil")
    place.handle(aino, CreateTable(name="Ilta", players=2, teams=2, **rules))
    table = place.table()
    place.handle(bertil, Join(table=table.id))
    place.handle(aino, Ready(ready=True))
    place.handle(bertil, Ready(ready=True))
    assert table.in_play
    return aino, bertil, table


def on_turn(table: Table, *guests: Guest) -> Guest:
    assert table.game is not None
    return next(g for g in guests if g.seat == table.game.turn)


def first_legal(table: Table, seat: int) -> str:
    assert table.game is not None
    return str(table.game.legal_actions(seat)[0])


def test_the_stand_in_waits_out_the_grace_after_a_player_drops():
    clock = Clock()
    place = Place(clock)
    aino, bertil, table = two_seats(place, computer_takeover="medium")
    away = on_turn(table, aino, bertil)
    place.disconnected(away)
    assert table.away()[away.seat]
    assert table.computer_turn(clock.now) is None  # the person has not given the seat up
    assert table.computer_due(clock.now) == clock.now + GRACE
    clock.now += GRACE - 0.5
    assert table.computer_turn(clock.now) is None
    assert table.view_for(on_turn_other(table, aino, bertil)).seats[away.seat].computer is None
    clock.now += 0.5
    turn = table.computer_turn(clock.now)
    assert turn is not None and turn.seat == away.seat


def on_turn_other(table: Table, *guests: Guest) -> Guest:
    mover = on_turn(table, *guests)
    return next(g for g in guests if g is not mover)


def test_a_deliberate_leave_mid_game_is_not_giving_the_seat_up():
    clock = Clock()
    place = Place(clock)
    aino, bertil, table = two_seats(place, computer_takeover="easy")
    away = on_turn(table, aino, bertil)
    place.handle(away, Leave())  # `q` in the client, mid-game
    assert table.computer_turn(clock.now) is None
    clock.now += GRACE / 2
    assert table.computer_turn(clock.now) is None
    # Back within the grace: the seat was never played for them.
    place.handle(away, Join(table=table.id))
    clock.now += GRACE
    assert table.computer_turn(clock.now) is None and table.computer_due(clock.now) is None
    place.act(away, first_legal(table, away.seat))
    assert not table.stand_ins


def test_the_stand_in_waits_out_the_grace_from_a_restart(tmp_path):
    clock = Clock()
    place = Place(clock, tmp_path / FILE_NAME)
    aino, bertil, table = two_seats(place, computer_takeover="medium", manual_draw=True)
    mover = on_turn(table, aino, bertil)
    place.act(mover, first_legal(table, mover.seat))  # a play; the draw waits
    place.journal.close()  # the server stops (as a kill would leave it: all committed)

    clock.now += 3600
    again = Place(clock, tmp_path / FILE_NAME)
    again.restore()
    table = again.table()
    assert table.in_play and all(table.away())
    assert table.computer_turn(clock.now) is None  # today's code had the stand-in play at once
    assert table.computer_due(clock.now) == clock.now + GRACE
    clock.now += GRACE
    # The grace is over: the stand-in takes the waiting draw first, then plays on.
    turn = table.computer_turn(clock.now)
    assert turn is not None and turn.seat == mover.seat
    again.computer()
    assert mover.seat not in table.game.pending_draw
    again.journal.close()


def test_a_stand_in_move_is_marked_journalled_and_kept_across_a_restart(tmp_path):
    clock = Clock()
    place = Place(clock, tmp_path / FILE_NAME)
    aino, bertil, table = two_seats(place, computer_takeover="medium")
    away = on_turn(table, aino, bertil)
    here = on_turn_other(table, aino, bertil)
    place.disconnected(away)
    clock.now += GRACE
    assert place.computer()
    [mark] = table.stand_ins
    last = place.boxes[here.name].updates()[-1]
    assert last.version == mark and last.stand_in
    assert last.to_wire()["stand_in"] is True
    # Everything else, the "away" change among them, is not marked (nor on the wire).
    earlier = place.boxes[here.name].updates()[:-1]
    assert earlier and not any(u.stand_in or "stand_in" in u.to_wire() for u in earlier)
    place.journal.close()
    [kept] = Journal(tmp_path / FILE_NAME).load()
    assert kept.game is not None
    assert [a.version for a in kept.game.actions if a.stand_in] == [mark]
    again = Place(clock, tmp_path / FILE_NAME)
    again.restore()
    assert again.table().stand_ins == {mark}
    again.journal.close()


def test_a_computer_seats_own_moves_are_not_marked():
    clock = Clock()
    place = Place(clock)
    aino = place.hello("Aino")
    place.handle(aino, CreateTable(name="Solo", players=2, teams=2, computers=(None, "easy")))
    place.handle(aino, Ready(ready=True))
    table = place.table()
    for _ in range(6):
        if not place.computer():
            place.act(aino, first_legal(table, 0))
    assert table.acted_at >= 6 and not table.stand_ins
    assert not any(u.stand_in for u in place.boxes["Aino"].updates())


def manual_with_a_computer(clock: Callable[[], float]) -> tuple[Place, Guest, Table]:
    """Aino (seat 0) and a computer (seat 1), manual draw, Aino's move made: her draw
    waits, and it is the computer's turn."""
    place = Place(clock)
    aino = place.hello("Aino")
    place.handle(
        aino,
        CreateTable(name="Käsin", players=2, teams=2, manual_draw=True, computers=(None, "easy")),
    )
    place.handle(aino, Ready(ready=True))
    table = place.table()
    assert table.game is not None
    if table.game.turn == 1:
        assert place.computer()
    place.act(aino, first_legal(table, 0))
    assert table.game.turn == 1 and table.game.pending_draw == [0]
    return place, aino, table


def test_a_computer_waits_for_the_previous_seats_draw():
    clock = Clock()
    place, aino, table = manual_with_a_computer(clock)
    assert table.computer_turn(clock.now) is None  # it would have played (and drawn) at once
    assert table.computer_due(clock.now) == clock.now + DRAW_GRACE
    clock.now += 2
    assert table.computer_turn(clock.now) is None
    place.act(aino, "draw")  # two seconds after her move: in time
    turn = table.computer_turn(clock.now)
    assert turn is not None and turn.seat == 1
    kinds = [c.kind for u in place.boxes["Aino"].updates() for c in u.changes]
    assert "draw_forfeited" not in kinds and "drew" in kinds


def test_a_draw_not_taken_in_the_grace_is_lost_to_the_computer():
    clock = Clock()
    place, aino, table = manual_with_a_computer(clock)
    clock.now += DRAW_GRACE
    assert place.computer()
    changes = [
        (c.kind, getattr(c, "seat", None)) for u in place.boxes["Aino"].updates() for c in u.changes
    ]
    assert ("draw_forfeited", 0) in changes
    assert table.game is not None and table.game.pending_draw == []  # it drew, too


def test_a_computer_takes_its_own_draw_with_its_move():
    clock = Clock()
    place, aino, table = manual_with_a_computer(clock)
    place.act(aino, "draw")
    before = table.version
    assert place.computer()
    assert table.game is not None and 1 not in table.game.pending_draw
    # Two updates, the play and the draw, sent in the one step: no move between them.
    made = [u for u in place.boxes["Aino"].updates() if u.version > before]
    assert [c.kind for c in made[-1].changes][:1] == ["drew"] and made[-1].changes[0].seat == 1
    assert len(made) == 2 and table.game.turn == 0


def test_an_away_persons_draw_waits_for_them_within_the_grace():
    clock = Clock()
    place, aino, table = manual_with_a_computer(clock)
    place.disconnected(aino)
    clock.now += DRAW_GRACE * 3
    assert table.computer_turn(clock.now) is None  # she cannot take it while gone
    back = place.hello("Aino", resume=aino.token)
    assert back is aino
    clock.now += DRAW_GRACE - 1  # a whole draw grace from her return
    assert table.computer_turn(clock.now) is None
    place.act(aino, "draw")
    assert table.computer_turn(clock.now) is not None


def test_a_computer_never_loses_its_own_draw():
    """200 games, manual draw, two people who play the moment they can (and draw when
    they like, or never) and two computers: every computer seat's cards are counted
    after every step, and none ever lost a draw."""
    rng = random.Random(20)
    forfeited_by_people = 0
    for number in range(200):
        clock = Clock()
        place = Place(clock, seed=number)
        aino, bertil = place.hello("Äijä"), place.hello("Öljy")
        place.handle(
            aino,
            CreateTable(
                name="Sarja", players=4, teams=2, manual_draw=True,
                computers=(None, None, "easy", "medium"),
            ),
        )  # fmt: skip
        table = place.table()
        place.handle(bertil, Join(table=table.id))
        place.handle(aino, Ready(ready=True))
        place.handle(bertil, Ready(ready=True))
        game = table.game
        assert game is not None
        hand = game.arrangement.hand_size
        while game.outcome is None:
            people = [g for g in (aino, bertil) if game.legal_actions(g.seat)]
            if people and rng.random() < 0.8:
                person = rng.choice(people)
                legal = [str(a) for a in game.legal_actions(person.seat)]
                if rng.random() < 0.5 and len(legal) > 1 and "draw" in legal:
                    legal.remove("draw")  # in a hurry: play first, draw later or never
                place.act(person, rng.choice(legal))
            elif not place.computer():
                due = table.computer_due(clock.now)
                if due is not None:
                    clock.now = due
                elif not people:
                    raise AssertionError("no one can move")
            for seat in (2, 3):
                # A computer's hand is short only when both piles are empty (or its
                # move just won: no draw after the last move).
                if game.outcome is None:
                    assert len(game.hands[seat]) == hand or not game.draw_pile, (number, seat)
        lost = [
            c.seat
            for u in place.boxes["Äijä"].updates()
            for c in u.changes
            if c.kind == "draw_forfeited"
        ]
        assert 2 not in lost and 3 not in lost, number
        forfeited_by_people += len(lost)
    assert forfeited_by_people > 0  # the people did lose draws: the check could fail


def test_a_spectator_is_watching_again_after_a_restart(tmp_path):
    clock = Clock()
    place = Place(clock, tmp_path / FILE_NAME)
    aino, bertil, table = two_seats(place)
    cecilia = place.hello("Cecilia")
    token = cecilia.token
    place.handle(cecilia, Spectate(table=table.id))
    assert cecilia in table.spectators
    place.shutdown()
    place.journal.close()

    again = Place(clock, tmp_path / FILE_NAME)
    again.restore()
    table = again.table()
    back = again.hello("Cecilia", resume=token)
    assert back in table.spectators and back.table is table and back.seat is None
    kinds = [m.TYPE for m in again.boxes["Cecilia"].sent]
    assert kinds[:3] == ["welcome", "table", "snapshot"], kinds
    # Still watching after another restart (the new token is the one kept).
    again.shutdown()
    again.journal.close()
    third = Place(clock, tmp_path / FILE_NAME)
    third.restore()
    assert third.hello("Cecilia", resume=back.token) in third.table().spectators
    third.journal.close()


def test_a_spectator_who_left_is_not_brought_back(tmp_path):
    clock = Clock()
    place = Place(clock, tmp_path / FILE_NAME)
    aino, bertil, table = two_seats(place)
    cecilia = place.hello("Cecilia")
    place.handle(cecilia, Spectate(table=table.id))
    place.handle(cecilia, Leave())
    place.journal.close()
    [kept] = Journal(tmp_path / FILE_NAME).load()
    assert kept.spectators == []


async def test_the_computers_task_wakes_when_the_stand_ins_grace_runs_out(nursery, autojump_clock):
    place = Place(trio.current_time)
    computers = place.computers
    await nursery.start(computers.run)
    aino, bertil, table = two_seats(place, computer_takeover="easy")
    away = on_turn(table, aino, bertil)
    gone = trio.current_time()
    place.disconnected(away)
    with trio.fail_after(GRACE * 3):
        while not computers.moves:
            await trio.sleep(0.5)
    assert trio.current_time() >= gone + GRACE  # on the mock clock
    assert table.stand_ins


async def test_a_draw_taken_in_time_wakes_the_waiting_computer_at_once(nursery, autojump_clock):
    place, aino, table = manual_with_a_computer(trio.current_time)
    computers = place.computers
    await nursery.start(computers.run)
    await trio.sleep(2)
    assert not computers.moves  # it waits for her draw
    drawn = trio.current_time()
    place.act(aino, "draw")
    with trio.fail_after(DRAW_GRACE * 3):
        while not computers.moves:
            await trio.sleep(0.01)
    # It did not sleep out the rest of the draw grace: it looked again when she drew.
    assert trio.current_time() < drawn + DRAW_GRACE - 2


async def test_coming_back_starts_the_draw_grace_afresh_and_wakes_the_computer(
    nursery, autojump_clock
):
    """Away with her draw waiting, Aino comes back after 20 s and does not draw: the
    computer plays once the draw grace from her return is over, not a minute on."""
    place, aino, table = manual_with_a_computer(trio.current_time)
    computers = place.computers
    await nursery.start(computers.run)
    gone = trio.current_time()
    place.disconnected(aino)
    await trio.sleep(20)
    assert not computers.moves
    place.hello("Aino", resume=aino.token)
    back = trio.current_time()
    with trio.fail_after(GRACE * 3):
        while not computers.moves:
            await trio.sleep(0.5)
    assert back + DRAW_GRACE <= trio.current_time() < gone + GRACE
