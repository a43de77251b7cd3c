"""The lobby's answers about people: the standings screen's `standings`, and `forget`.

Both are answered from the standings as kept (standings_read.py), never by reading
every game; `forget` writes through the lobby's effects, so its answer leaves once the
rows are gone for good. Each is allowed a few times in a while, per person and per
address (quotas.py): a flood from many connections gets no more.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from sarja.protocol.messages import Forgotten, Standings

from .effects import Effects
from .guest import Guest
from .quotas import Quotas
from .refusal import Refusal
from .standings import forget_rows
from .standings_read import StandingsBook


def ask(book: StandingsBook, quotas: Quotas, guest: Guest) -> Standings:
    """The standings, with the asker's own line; a few times in a while only."""
    quotas.check(guest, "standings")
    return book.standings(time.time(), guest.person)


def forget(
    book: StandingsBook, quotas: Quotas, fx: Effects, guest: Guest, everyone: Iterable[Guest]
) -> None:
    """Remove what the server keeps about the guest's person; tell them how much."""
    person = guest.person
    if person is None:
        raise Refusal(
            "no_person", "Your client sent no person key: the server keeps no standing for you."
        )
    quotas.check(guest, "forget")
    games = book.games_of(person)
    fx.write(forget_rows(person))
    book.forget(person)
    for other in everyone:  # the same person on another connection, or at a table
        if other.person == person:
            other.person = None
    fx.send(guest, Forgotten(games=games, _trusted=True))
