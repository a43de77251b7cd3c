"""The lobby's answers about people: the standings screen's `standings`, and `forget`.

Both read the journal (standings_read.py) as committed; `forget` writes through the
lobby's effects, so its answer leaves once the rows are gone for good.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sarja.protocol.messages import Forgotten, Standings

from .effects import Effects
from .guest import Guest, within_limit
from .refusal import Refusal
from .standings import forget_rows
from .standings_read import games_of, standings

if TYPE_CHECKING:  # the lobby loads without trio, which the journal's thread needs
    from .journal import Journal

ASK_BURST, ASK_WINDOW = 6, 10.0  # standings asked for: each reads every person's games


def ask(journal: Journal, guest: Guest) -> Standings:
    """The standings, with the asker's own line; a few times in a while only."""
    if not within_limit(guest.ask_times, ASK_BURST, ASK_WINDOW):
        raise Refusal("standings_too_fast", "Slow down: the standings change only as games end.")
    now = time.time()
    return journal.read(lambda db: standings(db, now, guest.person))


def forget(journal: Journal, fx: Effects, guest: Guest, everyone: Iterable[Guest]) -> None:
    """Remove what the server keeps about the guest's person; tell them how much."""
    person = guest.person
    if person is None:
        raise Refusal(
            "no_person", "Your client sent no person key: the server keeps no standing for you."
        )
    games = journal.read(lambda db: games_of(db, person))
    fx.write(forget_rows(person))
    for other in everyone:  # the same person on another connection, or at a table
        if other.person == person:
            other.person = None
    fx.send(guest, Forgotten(games=games, _trusted=True))
