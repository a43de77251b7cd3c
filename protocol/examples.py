"""One representative message of every type, in each direction it travels (protocol 2).

The golden-bytes tests and docs/protocol.md use these, so the bytes in the document are
the bytes the code writes. Every one is built through its class's validating constructor.

The game messages tell one moment of one game, and agree with each other (a test
checks them against the engine): Aino (seat 0, blue) and Bertil (seat 1, green) have
made six moves each; at version 12 it is Aino's turn. Her 5♥ on E5 would make six blue
chips in a row, so she chooses which five form the sequence: B5-F5. The server answers
with `ack`, one `update` for everyone and her new `hand`.
"""

from __future__ import annotations

import dataclasses

from . import messages as m
from .cards import LAYOUT_CODES
from .changes import Change, Drew, Played, Removed, SequenceMade, Won

RESUME = "q2v9X0c3T7mZpW1yK8rB4nE6dF5gH_aJ-sL0uVxYz"
RULES = m.Rules(hand_size=7, manual_draw=False)

# Every table shape a server offers (the server's own list; a test compares).
SHAPES = tuple(
    m.TableShape(players=p, teams=t, hand_size=h, needed=n)
    for p, t, h, n in (
        (2, 2, 7, 2), (3, 3, 6, 1), (4, 2, 6, 2), (6, 2, 5, 2), (6, 3, 5, 1),
        (8, 2, 4, 2), (9, 3, 4, 1), (10, 2, 3, 2), (12, 2, 3, 2), (12, 3, 3, 1),
    )
)  # fmt: skip

# The board at version 12: blue on A5 B5 C5 D5 F5, green on C3 H4 E6 G7 H8 (Bertil's
# one-eyed jack took Aino's chip off J2 at version 5).
BOARD = "".join(
    (
        "*........*",
        "..........",
        "..g.......",
        ".......g..",
        "bbbb.b....",
        "....g.....",
        "......g...",
        ".......g..",
        "..........",
        "*........*",
    )
)
# The cards played, in order: 9C@A5 8D@H4 QS@B5 2H@E6 TS@J2 JHxJ2 7C@C5 2D@C3 6H@D5
# QH@G7 4H@F5 KD@H8.
DISCARD = ("9C", "8D", "QS", "2H", "TS", "JH", "7C", "2D", "6H", "QH", "4H", "KD")
HAND = ("2C", "5H", "7H", "9S", "JS", "QS", "AD")  # sorted as the server sorts: rank, then suit
TARGETS = ((14, 36), (44, 68), (48, 53), (8, 61), (22, 37, 54, 66, 77), (29,), (76, 91))
LEGAL = (
    "2C@E2", "2C@G4", "5H@E5", "5H@I7", "7H@I5", "7H@D6", "9S@I1", "9S@B7",
    "JSxC3", "JSxH4", "JSxE6", "JSxG7", "JSxH8", "QS@J3", "AD@G8", "AD@B10",
)  # fmt: skip
# E5 (cell 44) makes six in a row: A5-E5 (the default) or B5-F5.
CHOICES = (m.Choice(cell=44, options=(((40, 44),), ((41, 45),))),)
PLAYERS = (
    m.Player(name="Aino", side=0, away=False, held=7),
    m.Player(name="Bertil", side=1, away=False, held=7),
)

SNAPSHOT = m.Snapshot(
    table="t1",
    version=12,
    seat=0,
    last_id=6,
    players=PLAYERS,
    sides=2,
    needed=2,
    rules=RULES,
    first=0,
    # A tie for lowest (two fives) is cut again; Aino's 3♣ is then lowest.
    cut=(((0, "5S"), (1, "5D")), ((0, "3C"), (1, "KD"))),
    board=BOARD,
    sequences=((), ()),
    discard=DISCARD,
    last=m.Last(seat=1, action="KD@H8"),
    turn=0,
    draw_size=78,  # 104 - 14 dealt - 12 drawn
    hand=HAND,
    targets=TARGETS,
    legal=LEGAL,
    choices=CHOICES,
)


def _past(version: int, seat: int, move: str) -> m.Entry:
    """One of the twelve moves before version 12 as its update told it: the play (or
    the removal), then the server's draw for the player."""
    card, sign, cell = move[:2], move[2], move[3:]
    at = (int(cell[1:]) - 1) * 10 + "ABCDEFGHIJ".index(cell[0])
    made = (
        Played(seat=seat, card=card, cell=at)
        if sign == "@"
        else Removed(seat=seat, card=card, cell=at, side=1 - seat)
    )
    return m.Entry(version=version, changes=(made, Drew(seat=seat)))


_MOVES = (
    "9C@A5", "8D@H4", "QS@B5", "2H@E6", "TS@J2", "JHxJ2", "7C@C5", "2D@C3", "6H@D5", "QH@G7",
    "4H@F5", "KD@H8",
)  # fmt: skip
# What a seat that comes back at version 12 gets after the snapshot: the whole game so
# far, in one page (Aino moved first, so the odd versions are hers).
HISTORY = m.History(
    version=12, entries=tuple(_past(v, (v - 1) % 2, move) for v, move in enumerate(_MOVES, 1))
)

PLAY = m.Play(id=7, version=12, card="5H", cell=44, fives=((41, 45),))
ACK = m.Ack(id=7, version=13)


def _aino_makes(card: str, cell: int, five: tuple[int, int], then: Change) -> tuple[Change, ...]:
    """Aino's play of `card` on `cell` that makes the sequence `five`, and what follows."""
    return (
        Played(seat=0, card=card, cell=cell),
        SequenceMade(seat=0, side=0, fives=(five,)),
        then,
    )


UPDATE = m.Update(
    version=13, changes=_aino_makes("5H", 44, (41, 45), Drew(seat=0)), turn=1, draw_size=77
)
HAND_UPDATE = m.Hand(
    version=13,
    hand=("2C", "7H", "8S", "9S", "JS", "QS", "AD"),
    targets=((14, 36), (48, 53), (7, 71), (8, 61), (22, 37, 54, 66, 77), (29,), (76, 91)),
    drawn="8S",
)
LEGAL_LIST = m.Legal(version=12, legal=LEGAL, choices=CHOICES)
# The coach's answer to Aino's `ask_hint` at version 12: the 5♥ on E5, which completes
# a sequence in row 5 (she then plays it, choosing B5-F5).
HINT = m.Hint(version=12, action="5H@E5", reason="completes")

# Aino's standing after an evening of three games with Bertil: two wins, one loss.
AINO = m.Standing(
    name="Aino", games=3, wins=2, losses=1, draws=0, sequences=5, removed=2, exchanged=1,
    move_ms=8400, rating=31,
)  # fmt: skip
BERTIL = m.Standing(
    name="Bertil", games=3, wins=1, losses=2, draws=0, sequences=3, removed=1, exchanged=0,
    move_ms=11250, rating=-12,
)  # fmt: skip
STANDINGS = m.Standings(hours=12, evening=(AINO, BERTIL), all_time=(AINO, BERTIL), you=AINO)

CLIENT_EXAMPLES = (
    m.Hello(version=3, name="Aino"),
    m.Resume(token=RESUME),
    m.Ping(n=7),
    m.Pong(n=8),  # answers the server's ping 8
    m.ListTables(),
    m.CreateTable(name="Friday", players=2, teams=2),
    m.Join(table="t1", seat=1),
    m.Spectate(table="t1"),
    m.Sit(seat=1),
    m.Ready(ready=True),
    m.Leave(),
    m.Rematch(),
    m.HandOver(seat=1),
    m.SeatComputer(seat=1, level="medium"),
    m.Sync(),
    m.AskHistory(after=8),  # the next page, after one that ended at version 8
    m.Chat(text="Good luck!"),
    PLAY,
    m.Remove(id=8, version=14, card="JS", cell=37),
    m.Exchange(id=9, version=16, card="9C"),
    m.Draw(id=10, version=18),
    m.Pass(id=11, version=20),
    m.AskHint(version=12),
    m.AskStandings(),
    m.Forget(),
)

# Aino's table in the lobby's list, before Bertil sits down.
FRIDAY = m.TableSummary(
    id="t1",
    name="Friday",
    players=2,
    teams=2,
    seated=("Aino", None),
    spectators=0,
    started=False,
    rules=RULES,
    computer_takeover=False,
)

# The table Aino and Bertil sit at, as Aino sees it before the game.
TABLE = m.TableView(
    id="t1",
    name="Friday",
    players=2,
    teams=2,
    seats=(
        m.Seat(name="Aino", ready=True, away=False),
        m.Seat(name="Bertil", ready=False, away=False),
    ),
    spectators=0,
    started=False,
    rules=RULES,
    computer_takeover=False,
    seat=0,
)

WELCOME = m.Welcome(
    version=3,
    session="5f2a9c1e7b3d4a60",
    resume=RESUME,
    server_id="8c1d4e7a2b9f3a61",
    layout=LAYOUT_CODES,
    server="Sarja",
    shapes=SHAPES,
)

SERVER_EXAMPLES = (
    WELCOME,
    m.Error(code="not_your_turn", message="It is not your turn.", id=8),
    m.Bye(code="shutdown", message="The server is shutting down."),
    m.Ping(n=8),
    m.Pong(n=7),  # answers the client's ping 7
    m.TableList(
        tables=(
            FRIDAY,
            # Two computers at hard, two seats for people; a computer stands in (at
            # medium) for a person who is away during the game.
            m.TableSummary(
                id="t2",
                name="Practice",
                players=4,
                teams=2,
                seated=("Cecilia", "Bertil", None, "David"),
                spectators=0,
                started=False,
                rules=m.Rules(hand_size=6, manual_draw=False),
                computer_takeover="medium",
                computers=(None, "hard", None, "hard"),
            ),
        )
    ),
    TABLE,
    m.Notice(kind="joined", name="Bertil", seat=1),
    m.ChatLine(sender="Bertil", seat=1, text="Good luck!"),
    ACK,
    SNAPSHOT,
    HISTORY,
    UPDATE,
    HAND_UPDATE,
    LEGAL_LIST,
    HINT,
    STANDINGS,
    m.Forgotten(games=3),
)

# How a game ends: Aino's 8♠ on B8 makes B5-B9, her second sequence (it shares B5 with
# the first, as it may). Nobody draws after the winning play; every hand is shown.
RESULT = m.Result(
    result="win",
    side=0,
    hands=(("2C", "7H", "9S", "JS", "QS", "AD"), ("3D", "4S", "6C", "8H", "TH", "KS", "KC")),
)
FINAL_UPDATE = m.Update(
    version=27,
    changes=_aino_makes("8S", 71, (41, 81), Won(side=0)),
    turn=0,
    draw_size=70,
    result=RESULT,
)

# The computer's move for a person's seat: Bertil has been away past the grace and the
# table's stand-in plays K♠ on B4 for him (docs/protocol.md section 8, "Computer moves").
STAND_IN_UPDATE = m.Update(
    version=14,
    changes=(Played(seat=1, card="KS", cell=31), Drew(seat=1)),
    turn=0,
    draw_size=76,
    stand_in=True,
)

# The snapshot of the same moment as SNAPSHOT, had the computer made Bertil's K♦ for him
# (his turn clock ran out): its last move says whose it was.
STAND_IN_LAST = dataclasses.replace(SNAPSHOT, last=m.Last(seat=1, action="KD@H8", stand_in=True))

# A version-1 client's greeting, as version 1 wrote it (every field, nil included),
# and the server's fatal answer, which a version-1 client can read: `error` kept its
# shape across the versions.
V1_HELLO = {"t": "hello", "version": 1, "name": "Aino", "resume": None}
INCOMPATIBLE = m.Error(
    code="incompatible_version",
    message="This server speaks protocol version 3 only; the client sent 1.",
    fatal=True,
)

# A server's public key as DER SubjectPublicKeyInfo (a P-256 key, as servers make), for
# the worked fingerprint and short code (docs/protocol.md section 1, "TLS").
SERVER_KEY = bytes.fromhex(
    "3059301306072a8648ce3d020106082a8648ce3d0301070342000438fe5b752b52b31bed8d81d29535b4"
    "11b9f91d2410d9c655b6dbce0d32292d8a381b44573551f72844ac58961e1e8525116f68c976bfd47dba"
    "29dacae678f96c"
)

# A version-2 client's greeting, sent in the clear (version 2 had no TLS), and the one
# frame the server answers it with, in the clear too, before it closes the connection.
V2_HELLO = {"t": "hello", "version": 2, "name": "Aino"}
OLDER_CLIENT = m.Error(
    code="incompatible_version",
    message="This server speaks protocol version 3, over TLS; update the client to connect.",
    fatal=True,
)

# A match, first side to 2 game wins, after its first game (Bertil's side won it): the
# table as every member sees it, waiting for both to be ready for game 2 (docs/protocol.md
# section 8, "Matches").
MATCH_TABLE = dataclasses.replace(TABLE, started=True, match=m.MatchScore(to=2, games=(1,)))

# A table with a turn clock of 30 seconds (docs/protocol.md section 8, "Turn clocks"),
# and the update that starts Bertil's turn there: his clock, 30 000 ms left.
CLOCK_TABLE = m.CreateTable(
    name="Quick", players=2, teams=2, computers=(None, "easy"), turn_clock=30
)
CLOCK_UPDATE = m.Update(
    version=13,
    changes=(Played(seat=0, card="7H", cell=48), Drew(seat=0)),
    turn=1,
    draw_size=77,
    clocks=((1, 30000),),
)
# The update that ends a game at such a table: every clock stops, said as `clocks` [].
CLOCK_FINAL = dataclasses.replace(FINAL_UPDATE, clocks=())
