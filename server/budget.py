"""How much one connection, and one address, may ask of the server: token buckets, in
units of work.

Every request costs units (a snapshot for `sync` costs several times a ping); a bucket
refills at a steady rate up to its size. Each connection has one, and every connection
from one address shares a larger one as well (app.py keeps them): a request is carried
out only if both hold its cost, and then it is taken from both; until then it waits,
and nothing more is read from its connection (connection.py). So a peer that floods the
server with valid requests gets a bounded share of it, whatever it sends and over
however many connections, and a real client, which asks far less, never notices.
Pure: the caller passes the time.
"""

from __future__ import annotations

import math

from sarja.protocol.messages import (
    AskHint,
    AskHistory,
    AskStandings,
    ClientMessage,
    Forget,
    ListTables,
    Sync,
)

# Units per request, by what answering costs: most requests are about a ping's work;
# a table list is packed once for everyone; a snapshot is built for one seat, and a
# page of history holds up to 256 entries; the standings and forgetting have limits of
# their own as well (quotas.py); a hint may start a search (hints.py bounds those;
# this bounds the asking).
COSTS: dict[type[ClientMessage], float] = {
    ListTables: 2.0, Sync: 10.0, AskHistory: 10.0, AskStandings: 20.0, AskHint: 50.0,
    Forget: 50.0,
}  # fmt: skip


class RequestBudget:
    """A token bucket of `burst` units refilled at `rate` units a second."""

    __slots__ = ("rate", "burst", "_units", "_at")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self._units = burst
        self._at = now

    def spend(self, msg: ClientMessage, now: float, shared: RequestBudget | None = None) -> bool:
        """Take what `msg` costs, from this budget and from `shared` (the address's):
        True if both allow it now; nothing is taken from either otherwise."""
        cost = COSTS.get(type(msg), 1.0)
        if not self._holds(cost, now) or (shared is not None and not shared._holds(cost, now)):
            return False
        self._units -= cost
        if shared is not None:
            shared._units -= cost
        return True

    def wait(self, msg: ClientMessage, now: float, shared: RequestBudget | None = None) -> float:
        """Seconds until this budget and `shared` both hold what `msg` costs."""
        cost = COSTS.get(type(msg), 1.0)
        return max(b._until(cost, now) for b in (self, shared) if b is not None)

    def _until(self, cost: float, now: float) -> float:
        if self._holds(cost, now):
            return 0.0
        # A millisecond more, so that rounding never leaves it a hair short at the time.
        return (cost - self._units) / self.rate + 0.001 if self.rate > 0 else math.inf

    def _holds(self, cost: float, now: float) -> bool:
        self._units = min(self.burst, self._units + (now - self._at) * self.rate)
        self._at = now
        return self._units >= cost

    def full(self, now: float) -> bool:
        """Whether the budget has refilled: forgetting it then loses nothing."""
        return self._holds(self.burst, now)
