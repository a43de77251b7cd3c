"""The protocol's one error family.

Like h11, errors are split by who caused them: a *remote* error is the peer's fault (a
bad frame or field) and becomes an `error` reply; a *local* error is ours (we tried to
send something invalid or out of turn) and is a bug to fix, never a reply.
"""


class ProtocolError(Exception):
    """A refusal with a stable snake_case `code` and a `message` a person can read.

    `fatal` (the code is one of FATAL_CODES) means the byte stream can no longer be
    trusted and the connection must close. `id` echoes the action id of the refused
    message, when it carried a valid one.
    """

    def __init__(self, code: str, message: str, *, id: int | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fatal = code in FATAL_CODES
        self.id = id


class RemoteProtocolError(ProtocolError):
    """The peer broke the protocol; reply with an `error` carrying `code` and `message`."""


class LocalProtocolError(ProtocolError):
    """We broke the protocol (a bug on our side); nothing was sent."""


# Every code of the protocol itself, with what it means: those the codec raises for a
# frame, and the three of the action id and version rules, which the server enforces
# because only it knows a game's versions. Each can reach the wire in an `error` from
# the server. docs/protocol.md lists the same codes with the same words (a test checks).
# The server's own refusals are in server/refusal.py, the rules' in docs/rules.md.
CODES: dict[str, str] = {
    "frame_too_large": "A length prefix is over the limit for its direction.",
    "empty_frame": "A length prefix is 0.",
    "truncated_frame": "The stream ended in the middle of a frame.",
    "malformed_msgpack": "A frame body is not exactly one valid msgpack value.",
    "value_too_large": "A string, array or map in a frame is over the decoder limit.",
    "unsupported_type": "A frame holds binary or extension data (timestamps included).",
    "not_a_message": 'The value is not a map with only string keys and a string "t".',
    "too_deep": "Arrays and maps nest deeper than the limit.",
    "unknown_type": 'The "t" names no message this side may receive.',
    "incompatible_version": "A greeting names a protocol version this side does not speak.",
    "unknown_field": "A field the message type does not define is present.",
    "missing_field": "A required field is absent.",
    "bad_type": "A field has the wrong type (a boolean is never an integer).",
    "out_of_range": "A number, or the length of an array, is outside its range.",
    "bad_card": "A card is not a card code.",
    "bad_cell": "A cell is not an integer from 0 to 99.",
    "bad_five": "A five is not [start, end]: two cells 4 steps apart on one line, start first.",
    "bad_text": "A name or text is empty, too long or not printable.",
    "invisible_text": (
        "A name a person gives, or a text, shows nothing: only blank or invisible"
        " characters and combining marks."
    ),
    "too_many_marks": (
        "A character of a name a person gives, or of a text, carries more than 2 combining marks."
    ),
    "bad_format": "A string or value does not have its documented form.",
    "wrong_state": "The message is not allowed in the session's current state.",
    "id_reused": "An action id already accepted in this game names a different action.",
    "bad_version": "An action names a game version the game has not reached.",
    "stale_version": "An action names a version older than the last accepted action's.",
    "bad_turn_clock": "A table's turn clock is not 0 (none) or within its range of seconds.",
}

# The codes after which the stream cannot be trusted: the connection closes.
FATAL_CODES = frozenset(
    {"frame_too_large", "empty_frame", "truncated_frame", "incompatible_version"}
)
