"""The server's own TLS key and certificate, made at its first start and kept.

Clients do not check the certificate against any authority (there is none on a LAN):
they remember the fingerprint of its key the first time, as SSH does, and refuse a
server that shows another one later (docs/protocol.md, "TLS and the server's key").
So the key is the server's identity as much as `server-id` is: it lives in the data
directory (KEY_FILE: the private key and the self-signed certificate, one PEM file,
0600) and is reused on every start. A server without a data directory (--ephemeral, a
practice game) makes a new one each run.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sarja.lang import _
from sarja.protocol.codec import ServerCodec
from sarja.protocol.fingerprint import of_public_key, short_code
from sarja.protocol.messages import Error

from .private import narrow_if_there, private_directory, private_file

log = logging.getLogger("sarja.server")

KEY_FILE = "server-key.pem"
TLS_HANDSHAKE = 0x16  # the first byte of a TLS record that opens a handshake
# What a client that speaks without TLS (protocol 2) gets, in the clear: an error it
# can read and show, and that stops it from trying again.
OLDER_CLIENT_REFUSAL = ServerCodec().encode(
    Error(
        code="incompatible_version",
        message="This server speaks protocol version 3, over TLS; update the client to connect.",
        fatal=True,
        _trusted=True,
    )
)
# The certificate is never checked for dates (pinning replaces that): made to outlast
# any install, so no client ever sees an expired one.
VALID_FOR = datetime.timedelta(days=365 * 100)


@dataclass(frozen=True)
class ServerKey:
    """What serving TLS takes: the context, and the fingerprint people compare."""

    context: ssl.SSLContext
    fingerprint: str  # hex SHA-256 of the public key (protocol/fingerprint.py)

    @property
    def code(self) -> str:
        return short_code(self.fingerprint)


class KeyFileError(Exception):
    """The kept key cannot be read: the host's to fix (the message says how)."""


def server_key(data_dir: Path | None) -> ServerKey:
    """This server's key: the one kept in `data_dir`, or a new one (kept there if it
    can be). A kept file that cannot be read is not replaced: the server stops with
    the reason (KeyFileError), since a new key would make every client warn that
    someone pretends to be this server."""
    if data_dir is None:
        return _in_memory(_make_pem())
    path = Path(data_dir) / KEY_FILE
    if path.exists():
        try:
            narrow_if_there(path)  # made by hand, or copied with wider modes
            return _load(path)
        except (OSError, ValueError) as err:
            raise KeyFileError(
                _(
                    "cannot read the server's key in {path} ({why}); restore it from a copy,"
                    " or delete it to make a new key (clients will then warn that the key"
                    " changed: docs/hosting.md)"
                ).format(path=path, why=err)
            ) from err
    pem = _make_pem()
    try:
        private_directory(path.parent)
        partial = path.with_suffix(".partial")
        private_file(partial)
        partial.write_bytes(pem)
        os.replace(partial, path)
    except OSError as err:
        log.warning("could not keep the server's key in %s: %s", path, err.strerror)
        return _in_memory(pem)
    return _load(path)


def _make_pem() -> bytes:
    """A new P-256 key and a self-signed certificate for it, as PEM (key first)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Sarja server")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + VALID_FOR)
        .sign(key, hashes.SHA256())
    )
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ) + certificate.public_bytes(serialization.Encoding.PEM)


def _load(path: Path) -> ServerKey:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    # Clients make a full handshake each time (a connection lasts the evening): tickets
    # for resuming sessions would only be made, kept and never used.
    context.num_tickets = 0
    context.load_cert_chain(path)
    public = x509.load_pem_x509_certificate(path.read_bytes()).public_key()
    spki = public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return ServerKey(context, of_public_key(spki))


def _in_memory(pem: bytes) -> ServerKey:
    """`ssl` loads keys from files only: this one goes through a private temporary
    file, gone once loaded."""
    with tempfile.TemporaryDirectory(prefix="sarja-key-") as folder:
        path = Path(folder) / KEY_FILE
        private_file(path)
        path.write_bytes(pem)
        try:
            return _load(path)
        finally:
            with contextlib.suppress(OSError):
                path.unlink()
