"""A table's match: first side to `to` game wins, and the score of its games so far.

Pure bookkeeping: the table (table.py) says when a game of the match ends and when a
new match starts; this keeps the score, says when the match is over, and gives the
row that journals it and the part the protocol shows. A drawn game counts for nobody.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sarja.protocol.messages import MatchScore
from sarja.protocol.parts import MatchRule

from . import journal_rows as rows


@dataclass
class Match(MatchRule):
    to: int  # first side to this many game wins takes the match
    games: list[int | None] = field(default_factory=list)  # per game, the side that won it
    number: int = 1  # which match at this table: 1, then one more per new match

    def game_over(self, table_id: str, side: int | None) -> list[rows.Row]:
        """A game of the match ended, won by `side` (None: drawn); the row to journal."""
        self.games.append(side)
        return self.row(table_id)

    def new_match(self, table_id: str) -> list[rows.Row]:
        """The score starts afresh: the match was over, and the rematch starts the next."""
        self.games = []
        self.number += 1
        return self.row(table_id)

    def row(self, table_id: str) -> list[rows.Row]:
        return rows.match_score(table_id, self.to, self.number, self.games)

    def part(self) -> MatchScore:
        return MatchScore(to=self.to, games=tuple(self.games), _trusted=True)
