"""How much one connection, and one address, may ask of the server: token buckets, in
units of work.

Every request costs units (a snapshot for `sync` costs several times a ping); a bucket
refills at a steady rate up to its size. Each connection has one, and every connection
from one address shares a larger one as well (app.py keeps them): a request is carried
out only if both hold its cost, and then it is taken from both. So a peer that floods
the server with valid requests gets a bounded share of it, whatever it sends and over
however many connections, and a real client, which asks far less, never notices.
Pure: the caller passes the time.
"""

from __future__ import annotations

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
# a table list is packed once for everyone; a snapshot (about 1.5 KiB late in a game)
# is built for one seat, and a page of history holds up to 256 entries, so a flood of
# either would send far more than it asks (a real client asks after a gap, or once
# after it connects); the standings and forgetting have limits of their own
# (quotas.py), and what goes past the budget is dropped without an answer; a hint may
# start a search (hints.py bounds those; this bounds the asking).
COSTS: dict[type[ClientMessage], float] = {
    ListTables: 2.0, AskStandings: 20.0, AskHint: 50.0, Forget: 50.0, Sync: 100.0,
    AskHistory: 100.0,
}  # fmt: skip


class RequestBudget:
    """A token bucket of `burst` units refilled at `rate` units a second."""

    __slots__ = ("rate", "burst", "_units", "_at", "_told")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self._units = burst
        self._at = now
        self._told = False  # the peer was told it is too fast, since its last success

    def spend(self, msg: ClientMessage, now: float, shared: RequestBudget | None = None) -> bool:
        """Take what `msg` costs, from this budget and from `shared` (the address's):
        True if both allow it now; nothing is taken from either otherwise."""
        cost = COSTS.get(type(msg), 1.0)
        if not self._holds(cost, now) or (shared is not None and not shared._holds(cost, now)):
            return False
        self._units -= cost
        if shared is not None:
            shared._units -= cost
        self._told = False
        return True

    def _holds(self, cost: float, now: float) -> bool:
        self._units = min(self.burst, self._units + (now - self._at) * self.rate)
        self._at = now
        return self._units >= cost

    def full(self, now: float) -> bool:
        """Whether the budget has refilled: forgetting it then loses nothing."""
        return self._holds(self.burst, now)

    def tell(self) -> bool:
        """Whether to tell the peer of a refusal now: once until a request succeeds
        again, so refusing costs no more than the request did."""
        told, self._told = self._told, True
        return not told
