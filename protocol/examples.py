"""One representative message of every type, in each direction it travels.

The golden-bytes tests, docs/protocol.md and the bench all use these, so the bytes in the
document are the bytes the code writes.
"""

from .client_messages import (
    Chat,
    CreateTable,
    Draw,
    Exchange,
    Hello,
    Join,
    Leave,
    ListTables,
    Pass,
    Ping,
    Play,
    Pong,
    Ready,
    Rematch,
    Remove,
    Sit,
    Spectate,
)
from .records import Choice, Last, Outcome, Player, Rules, Seat, TableInfo
from .server_messages import Ack, Bye, ChatFrom, Error, Event, State, Table, Tables, Welcome

# The standard board, row-major, "XX" for the free corners (the server sends its own).
_LAYOUT_ROWS = (
    "XX 2S 3S 4S 5S 6S 7S 8S 9S XX",
    "6C 5C 4C 3C 2C AH KH QH TH TS",
    "7C AS 2D 3D 4D 5D 6D 7D 9H QS",
    "8C KS 6C 5C 4C 3C 2C 8D 8H KS",
    "9C QS 7C 6H 5H 4H AH 9D 7H AS",
    "TC TS 8C 7H 2H 3H KH TD 6H 2D",
    "QC 9S 9C 8H 9H TH QH QD 5H 3D",
    "KC 8S TC QC KC AC AD KD 4H 4D",
    "AC 7S 6S 5S 4S 3S 2S 2H 3H 5D",
    "XX AD KD QD TD 9D 8D 7D 6D XX",
)
STANDARD_LAYOUT = tuple(card for row in _LAYOUT_ROWS for card in row.split())

RESUME = "q2v9X0c3T7mZpW1yK8rB4nE6dF5gH_aJ-sL0uVxYz"
RULES = Rules(hand_size=7, manual_draw=False)
_BOARD = "".join(
    (
        "*........*",
        "..........",
        "..........",
        ".......g..",  # H4: Bertil's 8D
        "bbbb.b....",  # E5 would make six in a row: a real choice of five
        "g.........",
        "..........",
        "..........",
        "..........",
        "*........*",
    )
)

CLIENT_EXAMPLES = (
    Hello(version=1, name="Aino", resume=None),
    Ping(n=7),
    Pong(n=7),
    ListTables(),
    CreateTable(
        name="Friday",
        players=2,
        teams=2,
        hand_size=None,
        manual_draw=False,
        computer_takeover=False,
    ),
    Join(table="t1", seat=0, side=None),
    Spectate(table="t1"),
    Sit(seat=1),
    Ready(ready=True),
    Leave(),
    Rematch(),
    Chat(text="Good luck!"),
    Play(id=3, version=12, card="5H", cell=(4, 4), fives=((4, 0, 4, 4),)),
    Remove(id=4, version=13, card="JS", cell=(5, 0)),
    Exchange(id=5, version=14, card="9C"),
    Draw(id=6, version=15),
    Pass(id=7, version=16),
)

SERVER_EXAMPLES = (
    Welcome(version=1, session="s1", resume=RESUME, layout=STANDARD_LAYOUT, server="Sarja"),
    Error(code="not_your_turn", message="It is Bertil's turn.", id=3, fatal=False),
    Bye(code="shutdown", message="The server is shutting down."),
    Ping(n=8),
    Pong(n=8),
    Tables(
        tables=(
            TableInfo(
                id="t1",
                name="Friday",
                players=2,
                teams=2,
                seated=("Aino", None),
                spectators=0,
                started=False,
                rules=RULES,
                computer_takeover=False,
            ),
        )
    ),
    Table(
        id="t1",
        name="Friday",
        players=2,
        teams=2,
        seats=(Seat(name="Aino", ready=True, away=False), Seat(name=None, ready=False, away=False)),
        spectators=0,
        started=False,
        rules=RULES,
        computer_takeover=False,
        seat=0,
    ),
    State(
        table="t1",
        version=12,
        seat=0,
        players=(
            Player(name="Aino", side=0, away=False, hand_size=7),
            Player(name="Bertil", side=1, away=False, hand_size=7),
        ),
        sides=2,
        needed=2,
        hand=("5H", "7H", "JD", "QS", "2C", "AD", "9S"),
        board=_BOARD,
        discard=("2H", "3H", "4H", "AC", "6H", "8D"),
        draw_size=84,
        sequences=((), ()),
        turn=0,
        first=0,
        cut=(((0, "3C"), (1, "KD")),),
        last=Last(seat=1, action="8D@H4"),
        legal=("5H@E5", "7H@I5", "7H@D6", "JD@B1", "QS@J3", "2C@E2", "AD@G8"),
        choices=(Choice(cell=(4, 4), options=(((4, 0, 4, 4),), ((4, 1, 4, 5),))),),
        exchanged=False,
        pending_draw=(),
        passes=0,
        rules=RULES,
        outcome=None,
    ),
    Event(
        version=12,
        kind="played",
        text="Bertil played 8♦ at H4.",
        seat=1,
        side=1,
        card="8D",
        cell=(3, 5),
        action="8D@F4",
        fives=None,
    ),
    ChatFrom(sender="Bertil", seat=1, text="Good luck!"),
    Ack(id=3, version=13),
)

# A finished game's state differs only in `outcome`; shown too because it reveals hands.
OUTCOME = Outcome(result="win", side=0, hands=(("QS", "2C"), ("KD", "4H")))
