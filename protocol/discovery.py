"""What a server says about itself on the LAN through DNS-SD (multicast DNS): the
service type, the TXT keys, and how a browser reads them. Pure: no sockets here; the
server announces (server/announce.py), the client and sarja-bot browse (client/find.py).

A TXT record is hostile input like any other: a value that does not parse is skipped,
never trusted; the address comes from the SRV and A records, never from the TXT.
"""

from __future__ import annotations

from dataclasses import dataclass

from .fields import ID_RE
from .fingerprint import FINGERPRINT_RE
from .limits import MAX_SERVER_NAME, PROTOCOL_VERSION

SERVICE_TYPE = "_sarja._tcp.local."
# TXT keys (docs/protocol.md, "Discovery"): short, as DNS-SD advises.
KEY_VERSION = "v"  # the protocol version the server speaks
KEY_NAME = "name"  # the server's name, as `welcome` says it
KEY_ID = "id"  # the server_id, as `welcome` says it
KEY_FINGERPRINT = "fp"  # its TLS key's fingerprint (fingerprint.py): a hint, not proof
KEY_WAITING = "waiting"  # tables waiting for players (a free seat, not started)
MAX_WAITING = 9999  # a bigger count is shown as this


def txt_record(name: str, server_id: str, waiting: int, fingerprint: str) -> dict[str, str]:
    return {
        KEY_VERSION: str(PROTOCOL_VERSION),
        KEY_NAME: name[:MAX_SERVER_NAME],
        KEY_ID: server_id,
        KEY_WAITING: str(max(0, min(waiting, MAX_WAITING))),
        KEY_FINGERPRINT: fingerprint,
    }


def instance_name(name: str, server_id: str) -> str:
    """The service's instance name: the server's name made unique by its id (so two
    servers called "Sarja" on one LAN need no renaming), within DNS's 63 bytes."""
    text = "".join(c if c.isprintable() and c != "." else " " for c in name)
    suffix = f" {server_id}"
    head = text.encode()[: 63 - len(suffix.encode())].decode(errors="ignore")
    return f"{head.strip() or 'Sarja'}{suffix}"


@dataclass(frozen=True)
class Found:
    """One server found on the LAN."""

    key: str  # the DNS-SD instance name: unique while the server is announced
    host: str  # an address to connect to (IPv4 first)
    port: int
    name: str
    server_id: str
    version: int | None  # None: not said
    waiting: int | None  # None: not said
    fingerprint: str = ""  # what the TXT says of its key ("": not said); only TLS proves it

    @property
    def compatible(self) -> bool:
        return self.version is None or self.version == PROTOCOL_VERSION


def read_found(
    key: str, addresses: list[str], port: int | None, txt: dict[bytes, bytes | None]
) -> Found | None:
    """A Found from what a resolved service says, or None when it says too little
    (no address or port) or what it says is not a Sarja server's."""
    if not addresses or port is None or not 0 < port < 65536:
        return None
    values = {k.decode("utf-8", "replace"): _text(v) for k, v in txt.items()}
    server_id = values.get(KEY_ID, "")
    if not ID_RE.fullmatch(server_id):
        return None
    name = " ".join(values.get(KEY_NAME, "").split())
    name = "".join(c for c in name if c.isprintable())[:MAX_SERVER_NAME] or "Sarja"
    v4 = [a for a in addresses if ":" not in a]
    fingerprint = values.get(KEY_FINGERPRINT, "")
    return Found(
        key=key,
        host=(v4 or addresses)[0],
        port=port,
        name=name,
        server_id=server_id,
        version=_number(values.get(KEY_VERSION)),
        waiting=_number(values.get(KEY_WAITING)),
        fingerprint=fingerprint if FINGERPRINT_RE.fullmatch(fingerprint) else "",
    )


def _text(value: bytes | None) -> str:
    return "" if value is None else value.decode("utf-8", "replace")


def _number(text: str | None) -> int | None:
    if text is None or not text.isdigit() or len(text) > 6:
        return None
    return min(int(text), MAX_WAITING)
