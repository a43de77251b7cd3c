"""The compact text notation for actions, as the engine writes it (validated, not parsed).

cell   = column letter A-J, then row number 1-10 (A1 is cell 0, the top left)
five   = CELL "-" CELL                       its two end cells, in reading order
action = CARD "@" CELL [ "[" FIVE { "," FIVE } "]" ]   place a chip (1 to 4 fives)
       | ("JS" | "JH") "x" CELL              a one-eyed jack removes the chip at CELL
       | "dead:" CARD                        exchange a dead card (never a jack)
       | "draw" | "pass"
"""

import re

_CELL = r"[A-J](?:10|[1-9])"
_FIVE = rf"{_CELL}-{_CELL}"
_PLACE_CARD = r"(?:[2-9TQKA][SHDC]|J[DC])"  # every card but a one-eyed jack
_ACTION = (
    rf"(?:{_PLACE_CARD}@{_CELL}(?:\[{_FIVE}(?:,{_FIVE}){{0,3}}\])?"
    rf"|J[SH]x{_CELL}|dead:[2-9TQKA][SHDC]|draw|pass)"
)

ACTION_RE = re.compile(_ACTION)
