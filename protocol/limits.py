"""Every bound the protocol enforces, in one place so the docs and tests can cite them."""

PROTOCOL_VERSION = 3  # 3: the stream is TLS, the server's key pinned (docs/protocol.md)
SUPPORTED_VERSIONS = (3,)
DEFAULT_PORT = 7474  # where a server listens unless told otherwise

# Frames: a 4-byte big-endian length, then that many bytes of msgpack.
HEADER_SIZE = 4
MAX_CLIENT_FRAME = 8 * 1024  # what a client may send: small requests only
MAX_SERVER_FRAME = 256 * 1024  # a snapshot with a long legal list fits easily

# msgpack decoder limits per direction. Strings are counted in bytes here (UTF-8),
# which caps memory; the per-field limits below count characters.
CLIENT_DECODE = {"max_str_len": 1024, "max_array_len": 16, "max_map_len": 16, "max_depth": 4}
SERVER_DECODE = {"max_str_len": 1024, "max_array_len": 512, "max_map_len": 32, "max_depth": 8}

# Numbers.
MAX_ID = 2**31 - 1  # action ids, versions, ping counters
MAX_SEATS = 12
MIN_PLAYERS, MAX_PLAYERS = 2, 12
MIN_TEAMS, MAX_TEAMS = 2, 3
MAX_HAND = 10
DECK_SIZE = 104
MAX_SPECTATORS = 999
MAX_TABLES = 100  # the most one `tables` message lists
MAX_PASSES = 12
# A table's turn clock, in seconds (0: none); the clocks sent say milliseconds left.
MIN_TURN_CLOCK, MAX_TURN_CLOCK = 10, 3600
CELLS = 100  # a cell is row * 10 + column, 0 to 99

# Texts, counted in characters (Unicode code points).
MAX_NAME = 24  # player names, after stripping surrounding spaces
MAX_TABLE_NAME = 32
MAX_SERVER_NAME = 32
MAX_TEXT = 200  # chat lines and error sentences
MAX_MARKS = 2  # combining marks in a row on one character of a text or a name sent
MAX_CODE = 40  # snake_case error and reason codes

# Lists.
MAX_FIVES = 4  # fives chosen in one play; fives held by one side
MAX_LEGAL = 500  # legal actions listed for one seat, every choice of fives included
MAX_CHOICES = 100  # cells offering a choice of fives
MAX_OPTIONS = 64  # ways to choose the fives at one cell
MAX_CUT_ROUNDS = 12
MAX_CHANGES = 12  # changes in one update
MAX_HISTORY_PAGE = 256  # entries in one `history` page: worst case ~160 KiB, under a frame
MAX_ARRANGEMENTS = 16  # the table shapes a server offers

# Matches: first side to `match_to` game wins.
MIN_MATCH_TO, MAX_MATCH_TO = 2, 9
# Games one match may last (drawn games count for nobody): a match this long ends
# without a winner, so the score a table sends stays bounded.
MAX_MATCH_GAMES = 64
MAX_STANDINGS = 20  # rows in each list of a `standings` reply
MAX_EVENING_HOURS = 168  # the longest "evening" a server may count
