"""How much one connection may ask of the server: a token bucket, in units of work.

Every request costs units (a snapshot for `sync` costs several times a ping); the
bucket refills at a steady rate up to its size. A request that finds it empty is not
carried out. So a peer that floods the server with valid requests gets a bounded
share of it, whatever it sends, and a real client, which asks far less, never
notices. Pure: the caller passes the time.
"""

from __future__ import annotations

from sarja.protocol.messages import AskHint, ClientMessage, ListTables, Sync

# Units per request, by what answering costs: most requests are about a ping's work;
# a table list is packed once for everyone; a snapshot is built for one seat; a hint
# may start a search (hints.py bounds those; this bounds the asking).
COSTS: dict[type[ClientMessage], float] = {Sync: 10.0, ListTables: 2.0, AskHint: 50.0}


class RequestBudget:
    """A token bucket of `burst` units refilled at `rate` units a second."""

    __slots__ = ("rate", "burst", "_units", "_at", "_told")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self._units = burst
        self._at = now
        self._told = False  # the peer was told it is too fast, since the budget was last full

    def spend(self, msg: ClientMessage, now: float) -> bool:
        """Take what `msg` costs: True if the budget allows it now."""
        self._units = min(self.burst, self._units + (now - self._at) * self.rate)
        self._at = now
        if self._units >= self.burst:
            # Full again: the peer slowed down, so a new flood is told again. A request
            # that fits within a flood is no such sign (the budget refills all the time).
            self._told = False
        cost = COSTS.get(type(msg), 1.0)
        if self._units < cost:
            return False
        self._units -= cost
        return True

    def tell(self) -> bool:
        """Whether to tell the peer of a refusal now: once until the budget is full
        again, so a flood hears it once and refusing costs no more than the request did."""
        told, self._told = self._told, True
        return not told
