"""The server's refusals in the player's language, by their stable code.

The server speaks English on the wire (an `error` or a `bye` carries a code and an
English sentence). In English the client shows that sentence as it is, as it is often
the more exact one; in another language it shows this table's sentence for the code,
and the server's own words for a code this client does not know.
"""

from __future__ import annotations

from sarja.lang import N_, language, translated

# The codes a player can meet (the server's, the rules', the protocol's), with a
# sentence for each that fits every case the server uses the code for.
BY_CODE = {
    # the server's (server/refusal.py)
    "unknown_resume": N_("The server does not know this seat any more."),
    "no_such_table": N_("There is no such table (or you are at none)."),
    "seat_held": N_("You hold a seat in a game in progress; join that table to go on."),
    "table_full": N_("Every seat at the table is taken."),
    "seat_taken": N_("That seat is taken."),
    "no_such_seat": N_("The table has no such seat or side."),
    "wrong_side": N_("The seat asked for is not on the side asked for."),
    "game_started": N_("The game has started; seats can't change now."),
    "not_a_player": N_("Only a seated player can do that (spectators watch)."),
    "too_many_spectators": N_("The table has as many spectators as it allows."),
    "too_many_tables": N_("The server has as many tables as it allows."),
    "too_many_computer_tables": N_(
        "Guests from one address have as many tables with computers as the server allows."
    ),
    "not_away": N_("Only an away player's seat can be handed to the computer."),
    "too_soon": N_("A seat can be handed to the computer once its player has been away a while."),
    "already_computer": N_("The computer already plays that seat."),
    "not_creator": N_("Only the table's creator can seat or take away a computer."),
    # Also a bot's seat (a program that joined by itself) at a server too old to say so.
    "not_computer": N_(
        "That seat has no computer of the server's: a bot that joined by itself leaves"
        " only by itself."
    ),
    "no_computer_name": N_("Every name a computer can have is taken at the table."),
    "server_full": N_("The server has as many connections as it allows."),
    "name_taken": N_("Someone at the table already has that name."),
    "not_ready_in_time": N_(
        "Your seat at this table was freed for not getting ready; you can sit there again"
        " after a while."
    ),
    "too_fast": N_("Slow down: a few joins and leaves every half minute."),
    "chat_too_fast": N_("Slow down: a few chat lines every few seconds."),
    "slow_down": N_("The server is busy with this connection; the request was not carried out."),
    "idle": N_("Nothing was heard from this client for too long."),
    "slow_frame": N_("A message took too long to arrive whole."),
    "too_many_resumes": N_("Too many unknown seats asked for on one connection."),
    "too_many_connections": N_("Too many connections from one address."),
    "replaced": N_("The same player connected again elsewhere."),
    "shutdown": N_("The server is shutting down."),
    "standings_too_fast": N_("Slow down: the standings a few times every few seconds."),
    "forget_too_fast": N_("Slow down: forgetting a couple of times a minute is enough."),
    "changes_too_fast": N_("Slow down: a few changes at the table every few seconds."),
    "no_person": N_("This client keeps no player key here, so there is nothing to forget."),
    "hints_off": N_("The table does not allow hints."),
    "no_hint": N_("No hint now: it is not your turn, or the game has moved on."),
    "hint_busy": N_("The coach is still thinking about your last hint."),
    "hints_too_fast": N_("Slow down: only a few hints a minute from one address."),
    "internal_error": N_("Something went wrong in the server; the connection closes."),
    # the rules' (server/engine)
    "card_not_in_hand": N_("You don't hold that card."),
    "game_over": N_("The game is over."),
    "not_your_turn": N_("It is not your turn."),
    "wrong_card": N_("That card can't do that: a one-eyed jack removes, the others place."),
    "corner_space": N_("The corners are free spaces; no chip goes there."),
    "space_taken": N_("That space is taken."),
    "bad_choice": N_("That isn't a sequence this move can make."),
    "no_chip": N_("There is no chip there to remove."),
    "own_chip": N_("You can't remove your own side's chip."),
    "locked_chip": N_("That chip is in a sequence; it stays."),
    "card_not_dead": N_("That card is not dead: it still has an open space."),
    "must_play": N_("You have a card you can play, so you can't pass."),
    "nothing_to_draw": N_("You have no draw to take."),
    "wrong_space": N_("That card goes on one of its own two spaces, not there."),
    "already_exchanged": N_("You have already exchanged a dead card this turn."),
    "must_exchange": N_(
        "Exchange your dead card first; you may pass only if you still can't play."
    ),
    "must_draw": N_("Take your draw first; you may pass only if you still can't play."),
    "malformed_action": N_("The server could not understand that move."),
    "bad_player_count": N_("A table can't have that many players."),
    "bad_team_count": N_("The players can't be split into that many sides."),
    "team_count_needed": N_("Say how many sides the table has."),
    "bad_hand_size": N_("A hand can't be that size."),
    # the protocol's (protocol/errors.py): a client of ours meets these only by a bug
    "wrong_state": N_("That can't be done just now."),
    "stale_version": N_("The game moved on before that arrived; try again."),
    "bad_version": N_("The server does not know that game position."),
    "id_reused": N_("That move was already sent as another."),
    "bad_card": N_("That is not a card."),
    "bad_cell": N_("That is not a space on the board."),
    "bad_five": N_("That is not five spaces in a line."),
    "bad_text": N_("A name or text is empty, too long or not printable."),
    "invisible_text": N_("A name or line shows nothing: only blank or invisible characters."),
    "too_many_marks": N_("A letter carries more than 2 accents or marks."),
    "incompatible_version": N_("The server speaks another version of the protocol."),
    "bad_turn_clock": N_("A turn clock is off or a number of seconds within its range."),
    "frame_too_large": N_("A message was too large."),
    "empty_frame": N_("An empty message arrived."),
    "truncated_frame": N_("The connection ended in the middle of a message."),
    "malformed_msgpack": N_("A message could not be read."),
    "value_too_large": N_("A message had a value too large."),
    "unsupported_type": N_("A message had data of a kind the protocol does not use."),
    "not_a_message": N_("Something arrived that is not a message."),
    "too_deep": N_("A message was nested too deep."),
    "unknown_type": N_("A message of a kind the other side does not know arrived."),
    "unknown_field": N_("A message had a field its kind does not have."),
    "missing_field": N_("A message lacked a field it needs."),
    "bad_type": N_("A message had a field of the wrong type."),
    "out_of_range": N_("A number in a message was out of its range."),
    "bad_format": N_("A message had a value not in its form."),
}


def said(code: str, message: str) -> str:
    """What the server refused, in the player's language (`message` is its English)."""
    if language() == "en" or code not in BY_CODE:
        return message
    return BY_CODE[code]


translated(__name__)
