"""msgpack with hard limits, and the first shape check of every decoded frame.

Bin and ext are refused outright: no message uses them, and ext would let a peer make us
build objects (timestamps) we never asked for. Arrays decode as tuples, which is what the
frozen messages hold, so the common path copies nothing.
"""

from typing import Any, NoReturn

import msgpack

from .errors import RemoteProtocolError

_CONTAINER_TYPES = frozenset({tuple, dict})


def _refuse_ext(code: int, data: bytes) -> NoReturn:
    raise ValueError("exceeds max_ext_len: extension types are refused")


def pack(obj: Any) -> bytes:
    packed: bytes = msgpack.packb(obj, use_bin_type=True)
    return packed


def unpack_options(
    *, max_str_len: int, max_array_len: int, max_map_len: int, **_: Any
) -> dict[str, Any]:
    """The `msgpack.unpackb` keywords for one direction's limits (a `limits.*_DECODE`)."""
    return {
        "raw": False,
        "use_list": False,
        "strict_map_key": False,  # keys are checked after decoding: not_a_message
        "max_str_len": max_str_len,
        "max_bin_len": 0,
        "max_ext_len": 0,
        "max_array_len": max_array_len,
        "max_map_len": max_map_len,
        "ext_hook": _refuse_ext,
    }


def loads(body: bytes, options: dict[str, Any]) -> Any:
    """One msgpack value, decoded under `options` (see `unpack_options`), or a refusal."""
    try:
        return msgpack.unpackb(body, **options)
    except TypeError:  # a map key that is a map: Python cannot hash it, and no key may be one
        raise RemoteProtocolError(
            "not_a_message", "Every key in a message must be a string."
        ) from None
    except ValueError as exc:  # msgpack reports limits, bad bytes and extra data this way
        text = str(exc)
        if "max_bin_len" in text or "max_ext_len" in text:
            raise RemoteProtocolError(
                "unsupported_type", "Binary and extension values are not used by this protocol."
            ) from None
        if "exceeds max_" in text:
            raise RemoteProtocolError(
                "value_too_large", "A string, array or map in the frame is over the limit."
            ) from None
        raise RemoteProtocolError(
            "malformed_msgpack", "The frame is not exactly one valid msgpack value."
        ) from None
    except Exception:  # anything else msgpack may raise is still the peer's bad bytes
        raise RemoteProtocolError(
            "malformed_msgpack", "The frame is not exactly one valid msgpack value."
        ) from None


def shown(value: object, limit: int = 40) -> str:
    """A peer's string as an error sentence may repeat it: escaped (no control
    character reaches a screen or a log) and cut short, whatever it held."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_shape(obj: Any, max_depth: int) -> dict[str, Any]:
    """Refuse a decoded value that is not a map with string keys and a string "t", or
    that nests deeper than `max_depth`; return it as the message map."""
    if type(obj) is not dict or type(obj.get("t")) is not str:
        raise RemoteProtocolError(
            "not_a_message", 'A message must be a map with a string "t" naming its type.'
        )
    for key in obj:
        if type(key) is not str:
            raise RemoteProtocolError("not_a_message", "Every key in a message must be a string.")
    check_depth(obj, max_depth)
    return obj


def unpack(
    body: bytes, *, max_str_len: int, max_array_len: int, max_map_len: int, max_depth: int
) -> dict[str, Any]:
    """Decode one frame body into a map with string keys and a string "t", or refuse it."""
    options = unpack_options(
        max_str_len=max_str_len, max_array_len=max_array_len, max_map_len=max_map_len
    )
    return check_shape(loads(body, options), max_depth)


def check_depth(obj: dict[str, Any], max_depth: int) -> None:
    """Refuse nesting deeper than `max_depth` (the top map is depth 1)."""
    if not _below(obj.values(), max_depth - 1):
        raise RemoteProtocolError(
            "too_deep", f"Arrays and maps nest deeper than {max_depth} levels."
        )


def _below(items: Any, budget: int) -> bool:
    """True if no container in `items` nests more than `budget` levels further.

    `isdisjoint(map(type, ...))` scans a level at C speed, so the long lists of strings
    (legal actions, discards) cost almost nothing; only containers recurse.
    """
    if _CONTAINER_TYPES.isdisjoint(map(type, items)):
        return True
    if budget == 0:
        return False
    for v in items:
        t = type(v)
        if (t is tuple and not _below(v, budget - 1)) or (
            t is dict and not _below(v.values(), budget - 1)
        ):
            return False
    return True
