"""What docs/protocol.md tells a client author about the order and the content of the
server's messages, seen on a real server: each test reads the doc's words and checks
that the server does what they say, where a client written from the doc alone would go
wrong otherwise (a clock counted down after the game, a `table` where none was
promised, a refusal not in its request's list).

The clock tests run on trio's mock clock (autojump), their journal in memory, as in
test_server_clocks.py.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import trio

from sarja.protocol.messages import (
    Ack,
    AskHint,
    CreateTable,
    Notice,
    Ping,
    Ready,
    Spectate,
    TableView,
    Update,
)
from sarja.server.app import serve
from sarja.server.budget import RequestBudget
from sarja.server.engine import Action
from sarja.server.engine.actions import DRAW_ACTION, EXCHANGE_ACTIONS, PLACE
from sarja.server.engine.checks import pass_refused

from .netclient import NetClient
from .server_helpers import seat_table
from .test_protocol_docs import DOC, section, subsection
from .test_server_clocks import CLOCK, my_turn, played_by, stand_ins, start, until
from .test_server_one_table import config, read_all

PAUSE = 2.0  # the computer's pause before a move, on the mock clock


def said(text: str) -> str:
    """`text` on one line, as a sentence of the doc is searched for."""
    return " ".join(text.split())


def game_section(heading: str) -> str:
    return said(subsection(section("8."), heading))


def code_row(code: str) -> str:
    rows = [r for r in section("10.").splitlines() if r.startswith(f"| `{code}` |")]
    assert len(rows) == 1, code
    return rows[0]


async def clock_handed_over(nursery: trio.Nursery) -> tuple[Any, NetClient, int, list[float]]:
    """A person at a 30 s clock table lets three turns run out, so the clock hands their
    seat to the computer while they are here. Returns the server, the person, their
    seat, and for each run-out how long after the clock's end its move came."""
    server = await nursery.start(serve, config(None, takeover_delay=PAUSE))
    person, seat = await start(server.port)
    nursery.start_soon(read_all, person)
    version, late = -1, []
    for run in range(1, 4):
        await until(lambda v=version: my_turn(person, seat, v))
        began = trio.current_time()
        await until(lambda n=run: len(stand_ins(person, seat)) == n)
        late.append(trio.current_time() - began - CLOCK)
        version = person.state.version
    await until(lambda: played_by(person, seat) == "medium")
    return server, person, seat, late


# ----- a turn clock's run-outs and the seat it hands over ---------------------------


async def test_the_third_run_out_is_played_at_the_computer_s_pace_as_the_first_two(
    nursery, autojump_clock
):
    clocks = said(section("8."))
    assert "(the third made as the first two)" in clocks
    assert "an action of the person's own that arrives first is made instead" in clocks
    server, _person, _seat, late = await clock_handed_over(nursery)
    # Each at about the computer's pause after its clock ran out: the third too, not
    # after the draw grace meant for the seat's later turns.
    assert server.config.draw_grace > 2 * PAUSE
    assert all(PAUSE - 0.1 < t < server.config.draw_grace - 1 for t in late), late


async def test_no_takeover_notice_is_sent_for_a_person_at_the_table(nursery, autojump_clock):
    kinds = said(subsection(section("7."), "#### Notice kinds"))
    assert "never for a player who is at the table" in kinds
    server, person, seat, _ = await clock_handed_over(nursery)
    version = person.state.version
    await until(lambda: my_turn(person, seat, version))
    await until(lambda: len(stand_ins(person, seat)) == 4)  # the computer's, as the seat's
    assert played_by(person, seat) == "medium"
    notices = [m.kind for m in person.received if isinstance(m, Notice) and m.seat == seat]
    assert "thinking" in notices and "takeover" not in notices
    assert server.failure is None


async def test_an_action_that_takes_the_seat_back_is_answered_first_and_the_table_follows(
    nursery, autojump_clock
):
    sent_when = game_section("### What is sent when")
    assert "nothing else comes between these messages" in sent_when
    assert "is followed, after step 4, by a `table` to every member" in sent_when
    server, person, seat, _ = await clock_handed_over(nursery)
    version = person.state.version
    await until(lambda: my_turn(person, seat, version))
    mine = person.action_message(person.state.legal[0])  # within the computer's pause
    await person.send(mine)
    await until(lambda: played_by(person, seat) is None)
    got = person.received
    at = next(i for i, m in enumerate(got) if isinstance(m, Ack) and m.id == mine.id)
    update = got[at + 1]
    assert isinstance(update, Update) and update.version == got[at].version
    assert not update.stand_in
    back = next(i for i, m in enumerate(got) if i > at and isinstance(m, TableView))
    # Between the ack and the table: only the action's own update, hand and legal.
    assert {m.TYPE for m in got[at + 1 : back]} <= {"update", "hand", "legal"}
    assert got[back].seats[seat].computer is None
    assert server.failure is None


async def test_the_update_that_ends_a_game_at_a_clock_table_stops_every_clock(nursery):
    clocks = said(section("8."))
    assert "The update that ends the game carries `clocks` [] (every clock stops)" in clocks
    server = await nursery.start(serve, config(None))
    players = await seat_table(server, 2, turn_clock=3600)  # no clock runs out here
    assert players[0].state is not None and players[0].state.clocks  # one runs
    rng = random.Random(5)
    while (state := players[0].state) is not None and state.result is None:
        seat = rng.choice([state.turn, *state.pending_draw])
        mover = next(p for p in players if p.state is not None and p.state.seat == seat)
        mine = await mover.legal_at(state.version)
        await mover.send(mover.action_message(rng.choice(mine.legal)))
        version = (await mover.expect("ack")).version
        for p in players:
            await p.state_at(version)
    for person in players:
        [last] = [m for m in person.received if isinstance(m, Update) and m.result is not None]
        assert last.clocks == ()  # said, not left "as they were"
        assert (await person.check_mirror()).clocks == ()  # as a snapshot says it


# ----- refusals --------------------------------------------------------------------


async def test_a_spectator_s_ask_hint_gets_the_refusal_its_request_lists(nursery):
    hint = said(subsection(section("6."), "### `ask_hint`"))
    assert "`not_a_player` (a spectator)" in hint
    server = await nursery.start(serve, config(None))
    player = await NetClient.connect(server.port, "Aino")
    await player.send(
        CreateTable(name="Coached", players=2, teams=2, computers=(None, "easy"), hints=True)
    )
    table = await player.expect("table")
    await player.send(Ready(ready=True))
    await player.expect("snapshot")
    watcher = await NetClient.connect(server.port, "Cecilia")
    await watcher.send(Spectate(table=table.id))
    snap = await watcher.expect("snapshot")
    await watcher.send(AskHint(version=snap.version))
    error = await watcher.expect("error")
    assert error.code == "not_a_player"


def test_the_doc_orders_a_pass_s_refusals_as_the_engine_does() -> None:
    text = said(subsection(section("6."), "### `pass`"))
    assert "in the order of the legal list" in text
    codes = ("must_draw", "must_play", "must_exchange")
    order = sorted((c for c in codes if f"`{c}`" in text), key=text.index)
    assert order == list(codes)
    # Each kind of thing a seat may do instead, as the engine's legal list holds it.
    instead = {
        "must_draw": DRAW_ACTION,
        "must_play": Action(PLACE, 0, 1),
        "must_exchange": EXCHANGE_ACTIONS[0],
    }
    for n in range(1, len(codes) + 1):
        for held in combinations(codes, n):
            refusal = pass_refused([instead[c] for c in held])
            assert refusal.code == next(c for c in order if c in held), held
    # A real position of each: tests/test_engine_rules.py,
    # test_a_pass_is_refused_for_the_first_thing_the_legal_list_offers.


# ----- the connection's budget and its resume tokens ------------------------------


def test_a_request_over_the_budget_waits_and_is_neither_refused_nor_lost() -> None:
    requests = said(section("11."))
    assert "A request that finds either budget spent waits" in " ".join(requests.split())
    budget = RequestBudget(rate=2000.0, burst=2000.0, now=0.0)
    now = 0.0
    for _ in range(2000):
        assert budget.spend(Ping(n=1), now)
    assert not budget.spend(Ping(n=1), now)
    wait = budget.wait(Ping(n=1), now)
    assert 0 < wait and budget.spend(Ping(n=1), now + wait)  # carried out once it holds it


def test_the_standings_point_to_the_rules_for_the_computer_s_moves() -> None:
    standings = said(subsection(section("7."), "### `standings`"))
    assert "some of their turns" in standings and "[rules.md](rules.md)" in standings
    assert DOC.count("[rules.md](rules.md)") >= 2
