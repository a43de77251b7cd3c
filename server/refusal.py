"""A request the server turns down, with a stable code and a sentence."""

from __future__ import annotations


class Refusal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# Codes the server (not the protocol layer or the rules engine) refuses with.
SERVER_CODES: dict[str, str] = {
    "unknown_resume": "The resume token is not known here (its seat is gone, a newer one"
    " replaced it, or the server kept no data directory across a restart); say hello"
    " without one.",
    "no_such_table": "There is no table with that id.",
    "seat_held": "You hold a seat in a game in progress; join that table to go on.",
    "table_full": "Every seat at the table is taken.",
    "seat_taken": "That seat is taken.",
    "no_such_seat": "The table has no such seat or side.",
    "wrong_side": "The seat asked for is not on the side asked for.",
    "game_started": "The game has started; seats can't change now.",
    "not_a_player": "Only a seated player can do that (spectators watch).",
    "too_many_spectators": "The table has as many spectators as the protocol allows.",
    "too_many_tables": "The server has as many tables as it allows.",
    "too_many_computer_tables": "Guests from one address have as many open tables where"
    " the computer may play or advise as the server allows; no more are made, and no"
    " game starts at one of theirs, until one ends.",
    "not_away": "Only an away player's seat can be handed to the computer.",
    "too_soon": "A seat can be handed to the computer once its player has been away a while.",
    "already_computer": "The computer already plays that seat.",
    "server_full": "The server has as many connections as it allows (sent in `bye`).",
    "name_taken": "Someone at the table already has that name.",
    "not_ready_in_time": "The sweep freed your seat at this table for not getting ready;"
    " you can sit there again after a while.",
    "too_fast": "Too many joins, watches and leaves in a short while.",
    "chat_too_fast": "Chat is limited to a few lines every few seconds.",
    "standings_too_fast": "The standings are given a few times every few seconds.",
    "forget_too_fast": "Forgetting is done a couple of times a minute at most.",
    "changes_too_fast": "Ready or not, and the computers at a table, change a few times every"
    " few seconds.",
    "no_person": "The client sent no person key in `hello`, so nothing is kept to forget.",
    "idle": "No message arrived for too long (sent in `bye`).",
    "slow_frame": "A message took too long to arrive whole (sent in `bye`).",
    "too_many_resumes": "Too many unknown resume tokens on one connection (sent in `bye`).",
    "too_many_connections": "Too many connections from one address (sent in `bye`).",
    "replaced": "The same player connected again elsewhere (sent in `bye`).",
    "shutdown": "The server is shutting down (sent in `bye`).",
    "hints_off": "The table does not allow hints.",
    "no_hint": "No hint now: not the seat's turn, or the game has moved on.",
    "hint_busy": "The connection's last hint is still being worked out.",
    "hints_too_fast": "The hints asked from one address are limited to a few a minute.",
    "internal_error": "Something went wrong in the server; the connection closes.",
}
