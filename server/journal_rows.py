"""What the journal is to write, as rows: one SQL statement and its parameters each.

Pure: building a row touches no file. A table says what happened as rows (its
effects, effects.py); the server's loop hands them to the journal, which commits
them in a batch before the frames that tell of them leave (outflow.py).
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import TYPE_CHECKING

from .journal_schema import COMPACT, FORGET_GUEST, PARKED

if TYPE_CHECKING:
    from .journal_saved import Result

Row = tuple[str, tuple[object, ...]]


def token_hash(token: str) -> str:
    """What the journal keeps of a resume token: enough to recognise it, not to use it."""
    return hashlib.sha256(token.encode()).hexdigest()


def table_opened(
    table_id: str, number: int, name: str, players: int, teams: int, hand_size: int,
    manual_draw: bool, takeover: str | None, turn_clock: int = 0,
) -> list[Row]:  # fmt: skip
    params = (
        table_id, number, name, players, teams, hand_size, manual_draw, takeover is not None,
        takeover, turn_clock,
    )  # fmt: skip
    return [
        (
            "INSERT OR REPLACE INTO tables (id, number, name, players, teams, hand_size,"
            " manual_draw, computer_takeover, takeover, turn_clock)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            params,
        )
    ]


def table_allows_hints(table_id: str) -> list[Row]:
    return [("UPDATE tables SET hints = 1 WHERE id = ?", (table_id,))]


def turn_clock(table_id: str, seat: int, left: float | None, runs: int) -> list[Row]:
    """A seat's turn clock: set to run out `left` seconds from now (None: none runs),
    after `runs` clocks in a row ran out."""
    deadline = None if left is None else time.time() + left
    return [
        (
            "INSERT OR REPLACE INTO turn_clocks (table_id, seat, deadline, runs)"
            " VALUES (?, ?, ?, ?)",
            (table_id, seat, deadline, runs),
        )
    ]


def compact(table_id: str) -> list[Row]:
    """What the table's finished and recorded games no longer need (journal_schema.py)."""
    return [(sql, (table_id,)) for sql in COMPACT]


def table_closed(table_id: str) -> list[Row]:
    return [
        ("UPDATE tables SET closed = 1 WHERE id = ?", (table_id,)),
        ("DELETE FROM spectators WHERE table_id = ?", (table_id,)),
        *compact(table_id),
    ]


def table_parked(table_id: str, keep: int) -> list[Row]:
    """Kept for its absent players, not loaded at start: only a resume brings it
    back. Of the parked tables, the newest `keep` stay; older ones are closed."""
    return [
        (f"UPDATE tables SET closed = {PARKED} WHERE id = ?", (table_id,)),
        (
            f"UPDATE tables SET closed = 1 WHERE closed = {PARKED} AND number <= ("
            f" SELECT number FROM tables WHERE closed = {PARKED}"
            " ORDER BY number DESC LIMIT 1 OFFSET ?)",
            (keep,),
        ),
    ]


def table_reopened(table_id: str) -> list[Row]:
    return [("UPDATE tables SET closed = 0 WHERE id = ?", (table_id,))]


def spectator(table_id: str, guest_id: str, watching: bool) -> list[Row]:
    """A guest starts (`watching`) or stops watching a table."""
    if watching:
        sql = "INSERT OR REPLACE INTO spectators (table_id, guest_id) VALUES (?, ?)"
    else:
        sql = "DELETE FROM spectators WHERE table_id = ? AND guest_id = ?"
    return [(sql, (table_id, guest_id))]


def table_waiting(table_id: str, game: int) -> list[Row]:
    """A seat freed after game `game` ended: the table is a waiting room again."""
    return [("UPDATE tables SET waiting_after = ? WHERE id = ?", (game, table_id))]


def table_creator(table_id: str, guest_id: str, person: str | None) -> list[Row]:
    """Who made the table: its guest, and the hash of their person key (None: none)."""
    sql = "UPDATE tables SET creator = ?, creator_person = ? WHERE id = ?"
    return [(sql, (guest_id, person, table_id))]


def table_version(table_id: str, version: int) -> list[Row]:
    return [("UPDATE tables SET version = ? WHERE id = ?", (version, table_id))]


def guest(guest_id: str, name: str, keys: tuple[str, ...], person: str | None = None) -> list[Row]:
    """A guest's name, the hashes of the tokens that resume it (`token_hash`), and the
    hash of its person key (None: the one kept stays, e.g. for a guest restored from
    the journal whose client has not said hello again yet)."""
    return [
        (
            "INSERT OR REPLACE INTO guests (id, name, token_hash, person) VALUES (?, ?, ?,"
            " coalesce(?, (SELECT person FROM guests WHERE id = ?)))",
            (guest_id, name, " ".join(keys), person, guest_id),
        ),
        ("DELETE FROM guest_keys WHERE guest_id = ?", (guest_id,)),
        *(
            ("INSERT OR REPLACE INTO guest_keys (key, guest_id) VALUES (?, ?)", (key, guest_id))
            for key in keys
        ),
    ]


def seat(
    table_id: str, seat: int, guest_id: str | None, computer: str | None = None,
    name: str | None = None,
) -> list[Row]:  # fmt: skip
    """Who holds a seat: a guest, a computer (`computer` its level, `name` its name),
    or a guest whose seat the computer plays at `computer` while they are away."""
    return [
        (FORGET_GUEST, (table_id, seat, guest_id)),
        (
            "INSERT OR REPLACE INTO seats (table_id, seat, guest_id, computer, name)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, seat, guest_id, computer, name),
        ),
    ]


def game_started(
    table_id: str, number: int, cut: tuple[tuple[tuple[int, int], ...], ...],
    deck: tuple[int, ...],
) -> list[Row]:  # fmt: skip
    return [
        (
            "INSERT OR REPLACE INTO games (table_id, number, cut, deck) VALUES (?, ?, ?, ?)",
            (table_id, number, json.dumps(cut), json.dumps(deck)),
        ),
        ("DELETE FROM actions WHERE table_id = ? AND game = ?", (table_id, number)),
        *compact(table_id),  # the game before, if its record is written
    ]


_ACTION = (
    "INSERT INTO actions (table_id, game, n, seat, action, action_id, version,"
    " reshuffles, stand_in, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def action(
    table_id: str, game: int, n: int, seat: int, notation: str, action_id: int | None,
    version: int, reshuffles: list[tuple[int, ...]], stand_in: bool = False,
) -> Row:  # fmt: skip
    """One accepted action: a single row, the one written on every move. (The table's
    version is its last action's, or the last `table_version`, whichever is greater:
    one statement less per move.)"""
    kept = json.dumps(reshuffles) if reshuffles else None
    at = time.time()  # for the standings' time per move
    return (_ACTION, (table_id, game, n, seat, notation, action_id, version, kept, stand_in, at))


# Who sat where as the game ended, per seat [seat, person key hash, computer level,
# name, held by a guest] (standings.py): kept with the game, so a seat left before
# the standings are counted still counts.
_PEOPLE_AT_END = (
    "SELECT json_group_array(json_array(s.seat, g.person, s.computer,"
    " coalesce(g.name, s.name), g.id IS NOT NULL))"
    " FROM seats s LEFT JOIN guests g ON g.id = s.guest_id WHERE s.table_id = ?"
)


def game_finished(table_id: str, number: int) -> list[Row]:
    return [
        (
            f"UPDATE games SET finished = 1, finished_at = ?, people = ({_PEOPLE_AT_END})"
            " WHERE table_id = ? AND number = ?",
            (time.time(), table_id, table_id, number),
        ),
        (_GAME_PEOPLE, (table_id, number)),
    ]


# The people of a game just finished, indexed by person (forgetting one reads no other).
_GAME_PEOPLE = (
    "INSERT OR IGNORE INTO game_people SELECT json_extract(e.value, '$[1]'), g.table_id,"
    " g.number FROM games g, json_each(g.people) e WHERE g.table_id = ? AND g.number = ?"
    " AND json_extract(e.value, '$[1]') IS NOT NULL"
)


def game_recorded(table_id: str, number: int, result: Result | None = None) -> list[Row]:
    """Game `number`'s record is written (or, with no data directory, need not be):
    `result` is what is kept of it, and the rest may go."""
    rows: list[Row] = []
    if result is not None:
        params = (
            table_id, number, table_id, number, result.table_name, result.players,
            result.teams, result.result, result.side, result.moves, json.dumps(result.seats),
            result.record,
        )  # fmt: skip
        rows.append(
            (
                "INSERT OR REPLACE INTO results (table_id, game, finished_at, table_name,"
                " players, teams, result, side, moves, seats, record) VALUES (?, ?,"
                " (SELECT finished_at FROM games WHERE table_id = ? AND number = ?),"
                " ?, ?, ?, ?, ?, ?, ?, ?)",
                params,
            )
        )
    rows.append(
        ("UPDATE games SET recorded = 1 WHERE table_id = ? AND number = ?", (table_id, number))
    )
    return rows + compact(table_id)


def match_score(table_id: str, to: int, number: int, games: list[int | None]) -> list[Row]:
    """The table's match: first side to `to` wins, its `number` at the table, and the
    side that won each of its games so far (null: drawn)."""
    return [
        (
            "INSERT OR REPLACE INTO matches (table_id, match_to, number, games)"
            " VALUES (?, ?, ?, ?)",
            (table_id, to, number, json.dumps(games)),
        )
    ]
