"""The protocol's one error family.

Like h11, errors are split by who caused them: a *remote* error is the peer's fault (a
bad frame or field) and becomes an `error` reply; a *local* error is ours (we tried to
send something invalid or out of turn) and is a bug to fix, never a reply.
"""


class ProtocolError(Exception):
    """A refusal with a stable snake_case `code` and a `message` a person can read.

    `fatal` means the byte stream can no longer be trusted and the connection must close.
    `id` echoes the action id of the refused message, when it carried a valid one.
    """

    def __init__(self, code: str, message: str, *, fatal: bool = False, id: int | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fatal = fatal
        self.id = id


class RemoteProtocolError(ProtocolError):
    """The peer broke the protocol; reply with an `error` carrying `code` and `message`."""


class LocalProtocolError(ProtocolError):
    """We broke the protocol (a bug on our side); nothing was sent."""


# Every code the protocol layer itself raises, with what it means. docs/protocol.md
# lists the same codes (a test checks). Game rule refusals (e.g. not_your_turn) come
# from the server's engine and are documented with the rules.
CODES: dict[str, str] = {
    "frame_too_large": "A length prefix is over the limit for its direction (fatal).",
    "empty_frame": "A length prefix is 0 (fatal).",
    "truncated_frame": "The connection closed in the middle of a frame (fatal).",
    "malformed_msgpack": "A frame body is not exactly one valid msgpack value.",
    "value_too_large": "A string, array or map in a frame is over the decoder limit.",
    "unsupported_type": "A frame holds binary or extension data (timestamps included).",
    "too_deep": "A frame nests arrays and maps deeper than the limit.",
    "not_a_message": 'A frame is not a map with string keys and a string "t".',
    "unknown_type": 'The "t" names no message this side may receive.',
    "missing_field": "A required field is absent.",
    "unknown_field": "A field the message type does not define is present.",
    "bad_type": "A field has the wrong type (bool is never an integer).",
    "out_of_range": "A number, or the length of a list, is outside its range.",
    "bad_card": "A card code is malformed or not allowed in that field.",
    "bad_cell": "A cell is not [row, col] with both 0 to 9.",
    "bad_five": "A five is not two end cells 4 steps apart on one line, in reading order.",
    "bad_text": "A name, chat line or sentence is empty, too long or not printable.",
    "bad_notation": "An action in notation does not follow the grammar.",
    "bad_format": "An identifier, token, board or layout string has the wrong form.",
    "wrong_state": "The message is not allowed in the session's current state.",
    "incompatible_version": "The peer speaks a protocol version we do not (fatal).",
    "stale_version": "An action names a game version older than the current one.",
}
