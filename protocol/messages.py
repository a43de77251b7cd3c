"""Every message type, and which direction may carry it.

`CLIENT_MESSAGES` and `SERVER_MESSAGES` map the wire's "t" to the class; a "t" missing
from the receiving side's table is refused as `unknown_type`.
"""

from .base import Record
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
from .server_messages import (
    EVENT_KINDS,
    Ack,
    Bye,
    ChatFrom,
    Error,
    Event,
    State,
    Table,
    Tables,
    Welcome,
)

ClientMessage = (
    Hello
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
    | Chat
    | Play
    | Remove
    | Exchange
    | Draw
    | Pass
)
ServerMessage = (
    Welcome | Error | Bye | Ping | Pong | Tables | Table | State | Event | ChatFrom | Ack
)

CLIENT_MESSAGES: dict[str, type[Record]] = {
    cls.TYPE: cls
    for cls in (
        Hello,
        Ping,
        Pong,
        ListTables,
        CreateTable,
        Join,
        Spectate,
        Sit,
        Ready,
        Leave,
        Rematch,
        Chat,
        Play,
        Remove,
        Exchange,
        Draw,
        Pass,
    )
}
SERVER_MESSAGES: dict[str, type[Record]] = {
    cls.TYPE: cls
    for cls in (Welcome, Error, Bye, Ping, Pong, Tables, Table, State, Event, ChatFrom, Ack)
}

__all__ = [
    "CLIENT_MESSAGES",
    "EVENT_KINDS",
    "SERVER_MESSAGES",
    "Ack",
    "Bye",
    "Chat",
    "ChatFrom",
    "Choice",
    "ClientMessage",
    "CreateTable",
    "Draw",
    "Error",
    "Event",
    "Exchange",
    "Hello",
    "Join",
    "Last",
    "Leave",
    "ListTables",
    "Outcome",
    "Pass",
    "Ping",
    "Play",
    "Player",
    "Pong",
    "Ready",
    "Record",
    "Rematch",
    "Remove",
    "Rules",
    "Seat",
    "ServerMessage",
    "Sit",
    "Spectate",
    "State",
    "Table",
    "TableInfo",
    "Tables",
    "Welcome",
]
