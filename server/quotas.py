"""How often one person, and one address, may ask for the things that cost the most or
tell the most people: the standings, forgetting, and the waiting room's toggles.

Each kind has a limit per guest (a few in any window, as chat has) and a larger one per
address, shared by every connection from it: a client that reconnects, or opens many
connections, to ask again gets no more than the address's share. Over either, the
request is refused with the kind's code and does nothing (one refused for another
reason counts for neither). The per-address counts go once their window has passed
(`prune`), so an address that stopped asking costs nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from .guest import Guest, within_limit
from .refusal import Refusal


@dataclass(frozen=True)
class Quota:
    """`burst` per guest and `address_burst` per address in any `window` seconds."""

    burst: int
    address_burst: int
    window: float
    code: str
    message: str


STANDINGS = Quota(
    6, 30, 10.0, "standings_too_fast", "Slow down: the standings change only as games end."
)
FORGET = Quota(
    2, 6, 60.0, "forget_too_fast", "Slow down: forgetting a couple of times a minute is enough."
)
# Ready and not ready, and a computer's level: each one is told to everyone at the table.
TOGGLE = Quota(
    5, 60, 10.0, "changes_too_fast", "Slow down: a few changes at the table every few seconds."
)

QUOTAS = {"standings": STANDINGS, "forget": FORGET, "toggle": TOGGLE}


class Quotas:
    """The per-address counts; the per-guest ones are on the guest."""

    def __init__(self) -> None:
        self._by_address: dict[tuple[str, str], list[float]] = {}

    def check(self, guest: Guest, kind: str) -> None:
        """Count one request of `kind` (a key of QUOTAS) for the guest and its address;
        Refusal, and nothing counted, if either has had its share."""
        quota = QUOTAS[kind]
        if guest.limits is None:
            guest.limits = {}  # most guests never ask: an idle one keeps none
        mine = guest.limits.setdefault(kind, [])
        key = (guest.address, kind)
        theirs = self._by_address.get(key)
        if theirs is None:
            theirs = self._by_address[key] = []
        if not within_limit(theirs, quota.address_burst, quota.window):
            raise Refusal(quota.code, quota.message)
        if not within_limit(mine, quota.burst, quota.window):
            theirs.pop()  # not carried out: it does not count for the address
            raise Refusal(quota.code, quota.message)

    @contextmanager
    def counted(self, guest: Guest, kind: str) -> Iterator[None]:
        """`check`, for a request that may yet be refused: one refused after all
        counts for neither the guest nor the address."""
        self.check(guest, kind)
        try:
            yield
        except Refusal:
            assert guest.limits is not None
            guest.limits[kind].pop()
            self._by_address[(guest.address, kind)].pop()
            raise

    def prune(self) -> None:
        """Forget the addresses whose counts have all passed their window."""
        now = time.monotonic()
        for key, times in list(self._by_address.items()):
            if not times or now - times[-1] > QUOTAS[key[1]].window:
                del self._by_address[key]
