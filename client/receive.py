"""How server messages change the model.

`apply` takes in one message in the session state it led to, first into the client
session (`model.session`), and returns what to send back: the session's own `pong` or
`sync`, a `resume` for a seat remembered at this server, the lobby's list, chat kept
while the connection was down. Seats
are remembered by the key the server proved it holds (`session.peer_key`), never its
id or the address typed.
After each `welcome` the model either asks to `resume` the seat it holds a token for at
that server, or keeps the welcome's new token (tokens work once): resume.py, which
sarja-bot shares.

Nothing here does I/O or knows about prompt_toolkit.
"""

from __future__ import annotations

from functools import partial

from sarja.protocol import messages as msgs
from sarja.protocol.changes import seat_only
from sarja.protocol.client_session import Event, Past
from sarja.protocol.mirror import GameMirror, ServerProtocolError
from sarja.protocol.session import SessionState

from . import resume
from .computer_seats import computers_seated
from .facts import final_board, present
from .hints import hint_line, take_hint
from .history import take_history
from .model import CENTRE, Model, afresh, note, screen
from .styles import side_style
from .words import coach, connect, lobby, refusals
from .words import game as game_words
from .words import standings as standing_words
from .words.common import Fragment
from .words.log import arrival, away_or_back, drew, log_changes, moved
from .words.table import notice_parts

# ----- turning server messages into the model ----------------------------------------


def apply(model: Model, msg: msgs.ServerMessage, phase: SessionState) -> list[msgs.ClientMessage]:
    """Take in one message from the server, in the session state it led to: first into
    the client session (`model.session.take`), then onto the screen. Returns what to
    send back (the session's own `pong` or `sync`, a `resume`, the lobby's list, chat
    kept while the connection was down).

    A message that does not fit the game raises ServerProtocolError, once the log
    says so and the game waits for a fresh picture: the link then connects afresh."""
    if phase != model.phase:
        model.status = ""  # a line about the last screen means nothing on the next
    model.phase = phase
    shown = screen(model)
    try:
        event = model.session.take(msg)
        replies = model.session.replies() + _take(model, event, phase)
    except ServerProtocolError as err:
        _unusable(model, err.message)
        raise
    finally:
        _overlays_of(model, shown)
    if model.online and model.chat_queue and phase in _AT_TABLE:
        replies += [msgs.Chat(text=text) for text in model.chat_queue]
        model.chat_queue.clear()
    return replies


def _overlays_of(model: Model, shown: str) -> None:
    """What the screen `shown` had in front of it goes with it: the help (its keys page
    lists that screen's keys: the waiting room's over a game that started is wrong) and
    the standings (drawn over the lobby only)."""
    if screen(model) == shown:
        return
    if model.overlay in ("help", "standings"):
        model.overlay = None
    model.help_over, model.forget_asked = None, False  # (its question: ? and q wait on it)


def _unusable(model: Model, what: str) -> None:
    """The server said something no game can be in, or sent a frame none may hold
    (`what`): say so, and act on nothing it said before until a fresh snapshot (a stale
    "your turn" would invite a move)."""
    note(model, "error", lambda: [("", connect.unusable_log(what))])
    model.status = connect.UNUSABLE.format(what=what)
    model.thinking = None
    if model.game is not None:
        model.game.legal, model.game.choices = (), ()
    if model.overlay == "fives":
        model.overlay = model.fives_cell = None


# The messages about the game on screen, and those about the connection, the lobby or
# the table.
GameNews = msgs.Snapshot | Past | msgs.Update | msgs.Hand | msgs.Legal | msgs.Ack
SessionNews = (
    msgs.Welcome | msgs.Pong | msgs.TableList | msgs.TableView | msgs.Error | msgs.Bye
    | msgs.Standings | msgs.Forgotten
)  # fmt: skip


def _take(model: Model, msg: Event, phase: SessionState) -> list[msgs.ClientMessage]:
    match msg:
        case msgs.Snapshot() | Past() | msgs.Update() | msgs.Hand() | msgs.Legal() | msgs.Ack():
            _game_news(model, msg)
        case (
            msgs.Welcome() | msgs.Pong() | msgs.TableList() | msgs.TableView() | msgs.Error()
            | msgs.Bye() | msgs.Standings() | msgs.Forgotten()
        ):  # fmt: skip
            return _session_news(model, msg, phase)
        case msgs.Notice():
            _notice(model, msg)
        case msgs.ChatLine():
            _chat_line(model, msg)
        case msgs.Hint():
            take_hint(model, msg)
    return []


def _game_news(model: Model, msg: GameNews) -> None:
    """A message about the game on screen."""
    match msg:
        case msgs.Snapshot():
            _snapshot(model, msg)
        case Past():
            take_history(model, msg)
        case msgs.Update() | msgs.Hand() | msgs.Legal():
            _game_message(model, msg)
        case msgs.Ack():
            _acked(model, msg)


def _acked(model: Model, msg: msgs.Ack) -> None:
    """Our last action was applied: the card picked for it and the line about it are
    done with. A choice made since it was sent stays: a key pressed before the ack
    came (x, then Tab), or on a turn begun before an earlier action's ack (a draw
    taken while the others moved)."""
    acted = model.acted
    if acted is None or acted[0] != msg.id:
        return  # an earlier action's: the last one's ack (or refusal) is still to come
    model.acted = None
    _, picked, status = acted
    if model.picked == picked:
        model.picked = None
    if model.status == status:
        model.status = ""


def _session_news(model: Model, msg: SessionNews, phase: SessionState) -> list[msgs.ClientMessage]:
    """A message about the connection, the lobby or the table; the replies it calls for."""
    replies: list[msgs.ClientMessage] = []
    match msg:
        case msgs.Welcome():
            replies = _welcome(model, msg)
        case msgs.Pong():
            if resume.no_seat_back(msg, phase):
                _gone(model)  # the resume brought no seat back
                replies = [msgs.ListTables()]
        case msgs.TableList():
            _tables(model, msg)
        case msgs.TableView():
            _table(model, msg)
            replies = _practice_ready(model, msg)
        case msgs.Error():
            replies = _error(model, msg)
        case msgs.Bye():
            model.status = refusals.said(msg.code, msg.message)
            if model.bye != msg.code:  # told again to each try while it stops: said once
                note(model, "error", lambda: [("", refusals.said(msg.code, msg.message))])
            model.bye = msg.code
        case msgs.Standings():
            model.standings = msg
            if model.status == standing_words.ASKING:
                model.status = ""
        case msgs.Forgotten():
            model.status = standing_words.forgotten(msg.games)
            replies = [msgs.AskStandings()]  # the screen shows what is left
    return replies


_AT_TABLE = (SessionState.TABLE, SessionState.GAME, SessionState.ENDED)


def _welcome(model: Model, msg: msgs.Welcome) -> list[msgs.ClientMessage]:
    model.welcome = msg
    model.status = ""
    model.bye = ""  # a goodbye is the last connection's
    if model.dropped:  # (a connection that took us, not one a closing server refused)
        model.dropped = False
        note(model, "info", lambda: [("", connect.CONNECTED_AGAIN)])
    resuming = model.resuming
    reply = resume.welcomed(model, model.name, msg, model.session.peer_key)
    if resuming:
        model.kept_unknown = model.kept_at is None  # a seat may be kept that we were not shown
    if reply is not None:
        # A seat this server gave us before (by whatever address): take it back; or,
        # that done, ask whether it came.
        return [reply]
    _no_seat_kept(model)  # a guest greeted afresh
    if model.practice is not None and not model.practising:
        model.practising = model.creating = True
        return [model.practice]  # the practice table; `_practice_ready` does the rest
    return [msgs.ListTables()]


def _error(model: Model, msg: msgs.Error) -> list[msgs.ClientMessage]:
    if msg.code == "unknown_resume" and resume.refused(model, model.session.peer_key, model.name):
        # The seat is gone (the game ended, or the server forgot it): we stay the
        # guest this connection greeted as.
        _no_seat_kept(model)
        _gone(model)
        return [msgs.ListTables()]
    model.creating = False  # a refused `create_table`: no table that comes is ours
    # The server's sentence is the whole explanation: show it (in our language).
    model.status = refusals.said(msg.code, msg.message)
    if msg.code == "not_your_turn":  # a move made early: said until the turn is ours
        model.refused_turn = model.status
    if msg.fatal:
        note(model, "error", lambda: [("", refusals.said(msg.code, msg.message))])
    return []


def _no_seat_kept(model: Model) -> None:
    model.kept_at, model.kept_unknown = None, False


def _gone(model: Model) -> None:
    """Back in the lobby without the table we were at before the connection dropped."""
    if model.table is not None or model.game is not None:
        name = model.table.name if model.table is not None else None
        afresh(model)  # the lobby: what follows is none of that table's
        note(model, "info", lambda: [("", lobby.NO_LONGER_HAS_YOU.format(
            where=lobby.YOUR_TABLE if name is None else name))])  # fmt: skip
    model.table = None
    model.game = None
    model.picked = None
    if model.chat_queue:
        unsent = "; ".join(model.chat_queue)
        note(model, "error", lambda: [("", lobby.NOT_SENT), ("class:log.chat", unsent)])
        model.chat_queue.clear()


def _tables(model: Model, msg: msgs.TableList) -> None:
    if model.table is not None:
        name = model.table.name
        afresh(model)  # the lobby: what follows is none of that table's
        if model.leaving:
            kept = model.game is not None and model.game.result is None and model.seated
            note(model, "info", lambda: [("", lobby.left_table(name, kept))])
            if model.table.seat is not None:  # our seat: kept, or given up
                model.kept_at, model.kept_unknown = (model.table.id if kept else None), False
        else:
            note(model, "info", lambda: [("", lobby.NO_LONGER_AT.format(name=name))])
    model.leaving = False
    model.tables = msg.tables
    model.table = None
    model.thinking = None
    model.game = None
    model.picked = None
    if model.overlay in ("quit", "leave", "fives", "chat"):
        model.overlay = None
    model.lobby_row = min(model.lobby_row, max(0, len(msg.tables) - 1))


def _table(model: Model, msg: msgs.TableView) -> None:
    if model.creating:
        model.creating, model.created = False, msg.id
    if model.table is None or model.table.id != msg.id:
        afresh(model)  # another table: its own log (its notices come after it)
        model.seat_row = msg.seat if msg.seat is not None else _first_free(msg)
        if model.overlay == "create":
            model.overlay = None
    _handed_over(model, msg)
    _away_between_games(model, msg)
    computers_seated(model, msg)
    if msg.seat is not None:  # one seat at a time: this one, until we leave it
        _no_seat_kept(model)
    model.table = msg
    if not msg.started and not final_board(model):
        model.game = None
        model.thinking = None


def _handed_over(model: Model, msg: msgs.TableView) -> None:
    """Say as soon as the table shows it that the computer now plays an away player's
    seat (after `o`, say), not only when it first moves there (the server's notice)."""
    old = model.table
    if old is None or old.id != msg.id or not msg.started or len(old.seats) != len(msg.seats):
        return
    for seat, (was, now) in enumerate(zip(old.seats, msg.seats, strict=True)):
        if now.away and now.computer is not None and was.computer is None and now.name:
            _notice(model, msgs.Notice(kind="takeover", name=now.name, seat=seat, _trusted=True))
            if model.status == game_words.HANDED_OVER.format(name=now.name):
                model.status = ""  # the log says it now, in its place among the moves


def _away_between_games(model: Model, msg: msgs.TableView) -> None:
    """Between two games of a match no game's change says who dropped or came back,
    and the next game waits for them: the log says it from the table."""
    old, g = model.table, model.game
    if old is None or old.id != msg.id or g is None or g.result is None or not msg.started:
        return
    if len(old.seats) != len(msg.seats):
        return
    for seat, (was, now) in enumerate(zip(old.seats, msg.seats, strict=True)):
        changed = was.name == now.name and was.away != now.away
        if now.name and changed and seat != msg.seat and now.computer is None:
            said = partial(away_or_back, now.name, seat % msg.teams, not now.away)
            note(model, "info", said)


def _practice_ready(model: Model, msg: msgs.TableView) -> list[msgs.ClientMessage]:
    """In a practice game, we are ready as soon as we sit: the computers always are."""
    if model.practice is None or msg.started or msg.seat is None or msg.seats[msg.seat].ready:
        return []
    return [msgs.Ready(ready=True)]


def _first_free(table: msgs.TableView) -> int:
    return next((i for i, seat in enumerate(table.seats) if seat.name is None), 0)


def _snapshot(model: Model, msg: msgs.Snapshot) -> None:
    fresh = model.game is None or model.game.table != msg.table or model.game.version > msg.version
    model.game = model.session.game  # the session's new mirror of this snapshot
    model.clocks_unknown = False
    assert model.game is not None
    model.thinking = None
    if fresh:
        table = model.table.name if model.table is not None else msg.table
        model.logged = 0 if msg.version == 0 else None  # None: its history follows
        afresh(model)  # a new game: the log is its own (its past follows, if it has one)
        # Told as the game stood when it came (the game on screen moves on).
        came = GameMirror(model.game.snapshot())
        for i in range(len(arrival(model, came, table))):
            note(model, "info", partial(_arrival_line, model, came, table, i))
            if i == 0:
                model.arrival = model.log[-1]
        if msg.seat is not None:
            model.cursor = CENTRE
    _settle(model)


def _arrival_line(model: Model, game: GameMirror, table: str, i: int) -> list[Fragment]:
    return arrival(model, game, table)[i]


def _game_message(model: Model, msg: msgs.Update | msgs.Hand | msgs.Legal) -> None:
    """A message the session took into its game (a gap or one set aside never comes here)."""
    game = model.game = model.session.game
    assert game is not None
    if isinstance(msg, msgs.Update):
        if msg.clocks is not None:
            model.clocks_unknown = False
        # Told after the change is applied: the words need only names and sides.
        if any(map(moved, msg.changes)):
            asked = {game_words.HANDED_OVER.format(name=p.name) for p in game.players}
            if model.status in asked:
                model.status = ""  # a request's line under later moves reads as after them
        for line in log_changes(model, game, msg.changes, msg.stand_in):
            note(model, line.kind, line.say)
        if msg.result is not None and model.practice is not None:
            note(model, "info", lambda: [("", coach.PRACTICE_KEPT)])  # where its analysis is
        # (A history comes only straight after its snapshot: any update is later.)
        model.logged = msg.version
        if not all(map(seat_only, msg.changes)):
            model.thinking = None  # the move the computer was choosing, or one that ended it
    if isinstance(msg, msgs.Hand) and msg.drawn is not None and game.rules.manual_draw:
        note(model, "drew", partial(drew, msg.drawn))
    _settle(model)


def _settle(model: Model) -> None:
    """What the screen holds that a new picture of the game may have made pointless."""
    game = model.game
    assert game is not None
    if model.picked is not None and model.picked not in model.hand:
        model.picked = None
    if model.overlay == "fives" and not model.my_turn:
        model.overlay = model.fives_cell = None
    if model.my_turn and model.refused_turn:
        if model.status == model.refused_turn:
            model.status = ""  # "It is not your turn." under "YOUR TURN" in the title
        model.refused_turn = ""
    hint = model.hint
    if hint is not None and hint.version != game.version:
        model.hint = None  # the game moved on (our clock ran out, say): its line is stale
        if model.status == hint_line(hint):
            model.status = ""
    if game.result is not None:
        model.picked = None
        if model.overlay in ("quit", "leave"):
            model.overlay = None


def set_link(model: Model, link: str, text: str = "") -> None:
    """The network layer's news about the connection (or, while online, a problem)."""
    if link == "unusable":  # a frame no server may send: the link hangs up on it
        _unusable(model, text)
        return
    if link == "online" and text:
        model.status = text
        return
    if link == "reconnecting" and model.link == "online" and model.welcome is not None:
        model.dropped = True
        if not model.bye:  # a goodbye said why, before it: no second line after it
            note(model, "info", lambda: [("", connect.DROPPED)])
    if link != "online" and model.link == "online" and model.game is not None:
        model.returning = True  # what happens meanwhile is summed up on return
        model.clocks_unknown = True  # until the server tells them again
    model.link, model.link_text = link, text
    if link != "online" and model.status and model.status in text:
        model.status = ""  # the link's line says it now ("… Trying again in 3 s."): once is enough
    if link != "online":
        # A new connection starts a new session; on resume the server resends it all.
        model.phase = SessionState.CONNECTED
        model.resuming = False
        if model.overlay == "fives":
            model.overlay = model.fives_cell = None


def _chat_line(model: Model, msg: msgs.ChatLine) -> None:
    style = "class:log.chat"
    if model.game is not None and msg.seat is not None and msg.seat < len(model.game.players):
        style = side_style(model.game.players[msg.seat].side)
    elif model.table is not None and msg.seat is not None:
        style = side_style(msg.seat % model.table.teams)
    note(model, "chat", [(style, msg.sender), ("class:log.chat", f": {msg.text}")])


def _notice(model: Model, msg: msgs.Notice) -> None:
    if msg.kind == "thinking":
        model.thinking = msg.seat  # shown until the move comes, not logged
        return
    kind = msg.kind
    # The table as it was told, and whether the seat's person was there then.
    said = partial(notice_parts, msg, model.table, model.name, present(model, msg.seat))
    if kind == "takeover" and any(
        e.kind == kind and e.parts == tuple(said()) for e in list(model.log)[-20:]
    ):
        return  # told already, when the table showed it
    note(model, kind, said)
