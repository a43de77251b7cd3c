"""Every message type, and which direction may carry it.

`CLIENT_MESSAGES` and `SERVER_MESSAGES` map the wire's "t" to the class; a "t" missing
from the receiving side's table is refused as `unknown_type`.
"""

from .base import WireMap
from .change_wire import CHANGE_FIELDS, CHANGE_KINDS
from .changes import Change
from .client_messages import (
    ACTION_TYPES,
    ActionMessage,
    AskHint,
    AskHistory,
    AskStandings,
    Chat,
    CreateTable,
    Draw,
    Exchange,
    Forget,
    HandOver,
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
    Resume,
    SeatComputer,
    Sit,
    Spectate,
    Sync,
)
from .parts import (
    Choice,
    Entry,
    Last,
    MatchScore,
    Player,
    Result,
    Rules,
    Seat,
    TableShape,
    TableSummary,
)
from .server_messages import (
    NOTICE_KINDS,
    Ack,
    Bye,
    ChatLine,
    Error,
    Forgotten,
    Hand,
    Hint,
    History,
    Legal,
    Notice,
    Snapshot,
    Standings,
    TableList,
    TableView,
    Update,
    Welcome,
)
from .standing import Pair, Standing

ClientMessage = (
    Hello
    | Resume
    | Ping
    | Pong
    | ListTables
    | CreateTable
    | Join
    | Spectate
    | Sit
    | Ready
    | Leave
    | Rematch
    | HandOver
    | SeatComputer
    | Sync
    | AskHistory
    | Chat
    | Play
    | Remove
    | Exchange
    | Draw
    | Pass
    | AskHint
    | AskStandings
    | Forget
)
ServerMessage = (
    Welcome
    | Error
    | Bye
    | Ping
    | Pong
    | TableList
    | TableView
    | Notice
    | ChatLine
    | Ack
    | Snapshot
    | History
    | Update
    | Hand
    | Legal
    | Hint
    | Standings
    | Forgotten
)

_CLIENT: tuple[type[WireMap], ...] = (
    Hello, Resume, Ping, Pong, ListTables, CreateTable, Join, Spectate, Sit, Ready, Leave, Rematch,
    HandOver, SeatComputer, Sync, AskHistory, Chat, Play, Remove, Exchange, Draw, Pass, AskHint,
    AskStandings, Forget,
)  # fmt: skip
_SERVER: tuple[type[WireMap], ...] = (
    Welcome, Error, Bye, Ping, Pong, TableList, TableView, Notice, ChatLine, Ack, Snapshot,
    History, Update, Hand, Legal, Hint, Standings, Forgotten,
)  # fmt: skip
CLIENT_MESSAGES: dict[str, type[WireMap]] = {cls.TYPE: cls for cls in _CLIENT}
SERVER_MESSAGES: dict[str, type[WireMap]] = {cls.TYPE: cls for cls in _SERVER}
ACTIONS = frozenset(cls.TYPE for cls in ACTION_TYPES)

__all__ = [
    "ACTIONS",
    "ACTION_TYPES",
    "CHANGE_FIELDS",
    "CHANGE_KINDS",
    "CLIENT_MESSAGES",
    "NOTICE_KINDS",
    "SERVER_MESSAGES",
    "Ack",
    "ActionMessage",
    "AskHint",
    "AskHistory",
    "AskStandings",
    "Bye",
    "Change",
    "Chat",
    "ChatLine",
    "Choice",
    "ClientMessage",
    "CreateTable",
    "Draw",
    "Entry",
    "Error",
    "Exchange",
    "Forget",
    "Forgotten",
    "Hand",
    "HandOver",
    "Hint",
    "Hello",
    "History",
    "Join",
    "Last",
    "Leave",
    "Legal",
    "ListTables",
    "Notice",
    "Pair",
    "Pass",
    "Ping",
    "Play",
    "Player",
    "Pong",
    "Ready",
    "Rematch",
    "Remove",
    "Result",
    "Resume",
    "Rules",
    "Seat",
    "SeatComputer",
    "ServerMessage",
    "Sit",
    "Snapshot",
    "Spectate",
    "Standing",
    "Standings",
    "Sync",
    "TableList",
    "TableShape",
    "TableSummary",
    "MatchScore",
    "TableView",
    "Update",
    "Welcome",
    "WireMap",
]
