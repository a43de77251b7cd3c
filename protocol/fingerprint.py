"""A server's key, as clients remember it and people compare it (docs/protocol.md,
"TLS and the server's key").

The fingerprint is the SHA-256 of the certificate's public key (its DER
SubjectPublicKeyInfo), in lowercase hex: the key, not the certificate, so a server that
renews its certificate with the same key keeps its fingerprint. People compare the
short code: the fingerprint's first CODE_BITS bits in base 32 (Crockford's alphabet,
with no I, L, O or U to misread), in groups of four, such as `3F7A-91C2-KQ8M-ZX4D`.

Pure: no sockets; `of_certificate` reads a DER certificate with `cryptography`.
"""

from __future__ import annotations

import hashlib
import re

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# 80 bits: a key whose code matches another's takes about 2**80 tries to find, far out
# of anyone's reach; sixteen characters are still read and compared in one look.
CODE_BITS = 80
GROUP = 4
FINGERPRINT_RE = re.compile(r"[0-9a-f]{64}")


def of_public_key(spki_der: bytes) -> str:
    """The fingerprint of a public key given as DER SubjectPublicKeyInfo."""
    return hashlib.sha256(spki_der).hexdigest()


def of_certificate(der: bytes) -> str:
    """The fingerprint of the public key in a DER certificate; ValueError if it is not one."""
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = x509.load_der_x509_certificate(der).public_key()
    return of_public_key(key.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo))


def short_code(fingerprint: str) -> str:
    """The code people compare by eye: "3F7A-91C2-KQ8M-ZX4D"."""
    bits = int(fingerprint, 16) >> (len(fingerprint) * 4 - CODE_BITS)
    chars = [ALPHABET[(bits >> shift) & 31] for shift in range(CODE_BITS - 5, -1, -5)]
    return "-".join("".join(chars[i : i + GROUP]) for i in range(0, len(chars), GROUP))
