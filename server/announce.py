"""The server announced on the LAN with DNS-SD, so players need no address to join.

`announce(server, host)` runs beside the server in its nursery: python-zeroconf runs in
its own thread (its own asyncio loop), and every blocking call into it (register,
update, close) goes through `trio.to_thread`, so trio's loop never waits on it. It
announces on the addresses the server listens on and only there: `--host 127.0.0.1`
announces on loopback alone. The count of waiting tables comes from the lobby's table
list when the lobby says the list changed (Server.list_watchers), re-announced at most
every UPDATE_EVERY seconds however many joins there are; the service is withdrawn
(goodbye packets) when the server stops.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
from functools import partial
from typing import Any

import trio

from sarja.client.mdns import interfaces_for, keep_to_loopback, loopback_only
from sarja.protocol.discovery import SERVICE_TYPE, instance_name, txt_record
from sarja.protocol.messages import TableList

from .lan import lan_addresses

log = logging.getLogger("sarja.server.announce")

UPDATE_EVERY = 1.0  # seconds: the waiting count is re-announced at most this often
# Seconds a stopping server gives zeroconf to say goodbye. A zeroconf that started
# badly (out of file descriptors, say) may never finish closing: its worker thread is
# then left behind, so the server's stop never waits on it.
CLOSE_PATIENCE = 2.0


def waiting_tables(tables: TableList) -> int:
    """Tables a player could sit down at: not started, a seat free."""
    return sum(1 for t in tables.tables if not t.started and None in t.seated)


def announced_addresses(host: str | None) -> list[str]:
    """The IPv4 addresses a server listening on `host` is reached at (every LAN
    address for every interface). IPv6 is not announced: empty for an IPv6 host."""
    if host in (None, "", "0.0.0.0", "::"):
        return lan_addresses()
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        with contextlib.suppress(OSError):
            infos = socket.getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)
            return list(dict.fromkeys(str(info[4][0]) for info in infos))
        return []
    return [str(ip)] if ip.version == 4 else []


class Announcement:
    """The zeroconf side: every method blocks, and is called in a worker thread."""

    def __init__(self, addresses: list[str], every_interface: bool) -> None:
        from zeroconf import IPVersion, Zeroconf

        self.addresses = addresses
        interfaces = interfaces_for(None if every_interface else addresses)
        self.zc = Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        if not every_interface and loopback_only(addresses):
            keep_to_loopback(self.zc)
        self.info: Any = None

    def register(self, name: str, server_id: str, port: int, waiting: int, fingerprint: str) -> str:
        from zeroconf import ServiceInfo

        self.info = ServiceInfo(
            SERVICE_TYPE,
            f"{instance_name(name, server_id)}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in self.addresses],
            port=port,
            properties=txt_record(name, server_id, waiting, fingerprint),
            server=f"sarja-{server_id.lower()}.local.",
        )
        # The instance name carries the server_id, unique to this server: no probing
        # for a clash (a second's wait before players see it) is needed.
        self.zc.register_service(self.info, cooperating_responders=True)
        return str(self.info.name)

    def update(self, name: str, server_id: str, waiting: int, fingerprint: str) -> None:
        from zeroconf import ServiceInfo

        old = self.info
        self.info = ServiceInfo(
            SERVICE_TYPE, old.name, addresses=old.addresses, port=old.port,
            properties=txt_record(name, server_id, waiting, fingerprint), server=old.server,
        )  # fmt: skip
        self.zc.update_service(self.info)

    def close(self) -> None:
        """Withdraw the service (goodbyes: browsers drop it at once) and stop."""
        with contextlib.suppress(Exception):
            if self.info is not None:
                self.zc.unregister_service(self.info)
        self.zc.close()


class Announcer:
    """Announces one server while it runs; `changed()` says the lobby's list changed."""

    def __init__(
        self, host: str | None, port: int, name: str, server_id: str, fingerprint: str
    ) -> None:
        self.host, self.port, self.name, self.server_id = host, port, name, server_id
        self.fingerprint = fingerprint
        self._due = trio.Event()
        self.announced: str | None = None  # the instance name, once announced
        self.updates = 0
        # How zeroconf's blocking calls are made: in a worker thread (a test calls
        # them in place, on trio's MockClock).
        self.blocking: Any = trio.to_thread.run_sync

    def changed(self) -> None:
        self._due.set()

    async def run(self, count: Any) -> None:
        """Announce, re-announce the waiting count `count()` as it changes, and
        withdraw when cancelled."""
        addresses = await self.blocking(announced_addresses, self.host)
        if not addresses:
            log.warning("not announced on the LAN: no IPv4 address to announce for %s", self.host)
            return
        every = self.host in (None, "", "0.0.0.0", "::")
        try:
            announcement = await self.blocking(Announcement, addresses, every)
        except OSError as err:
            log.warning("not announced on the LAN: %s", err.strerror or err)
            return
        try:
            waiting = count()
            register = partial(announcement.register, self.name, self.server_id, self.port)
            self.announced = await self.blocking(register, waiting, self.fingerprint)
            log.info("announced as %r on %s", self.announced, ", ".join(addresses))
            while True:
                await self._due.wait()
                self._due = trio.Event()
                now = count()
                if now != waiting:
                    waiting = now
                    update = partial(
                        announcement.update, self.name, self.server_id, now, self.fingerprint
                    )
                    await self.blocking(update)
                    self.updates += 1
                await trio.sleep(UPDATE_EVERY)
        finally:
            with trio.CancelScope(shield=True) as closing:
                closing.deadline = trio.current_time() + CLOSE_PATIENCE
                await self.blocking(announcement.close, abandon_on_cancel=True)
            if closing.cancelled_caught:
                log.warning("zeroconf did not close within %s s; left behind", CLOSE_PATIENCE)
