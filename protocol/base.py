"""The base of every message and of the parts nested in them: a frozen dataclass that
knows its wire form.

One class per message, one way to build it. Decoded input is validated by
`__post_init__`; the sender's own trusted code (the server, building thousands of
updates) passes `_trusted=True` to the same constructor to skip the checks, as h11's
events do with `_parsed`. The receiving end validates everything whatever the sender did.

On the wire a message is a map: "t" names its type, the other keys are its fields. A
field equal to its default is left out, and a missing field takes its default.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, ClassVar, Self, TypeVar, dataclass_transform

from .change_wire import change_to_wire
from .changes import CHANGE_TYPES
from .fields import fail
from .wire import shown

W = TypeVar("W", bound="WireMap")

_MISSING: Any = dataclasses.MISSING


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class WireMap:
    """A map on the wire. `TYPE` is "" for parts nested inside messages.

    Subclasses check their fields in `validate`, which the constructor calls unless
    it is given `_trusted=True`.
    """

    _trusted: dataclasses.InitVar[bool] = False
    TYPE: ClassVar[str] = ""
    # (wire key, attribute, default or _MISSING), in field order.
    _SPEC: ClassVar[tuple[tuple[str, str, Any], ...]] = ()
    _ALLOWED: ClassVar[frozenset[str]] = frozenset()
    _REQUIRED: ClassVar[frozenset[str]] = frozenset()
    _ATTRS: ClassVar[dict[str, str]] = {}  # wire key -> attribute
    # What `to_wire` needs of each field, worked out once by `wire`: (wire key, attribute,
    # default, the default's type or None when there is none, whether `_plain` must
    # convert the value). Every move sends four messages or more to every seat.
    _SEND: ClassVar[tuple[tuple[str, str, Any, type | None, bool], ...]] = ()

    def __post_init__(self, _trusted: bool) -> None:
        if not _trusted:
            self.validate()

    def validate(self) -> None:
        """Refuse (LocalProtocolError) a field that is not as documented."""

    def to_wire(self) -> dict[str, Any]:
        """The map to pack: "t" first, then every field that differs from its default."""
        d: dict[str, Any] = {"t": self.TYPE} if self.TYPE else {}
        for key, attr, default, kind, convert in self._SEND:
            v = getattr(self, attr)
            if kind is not None and v == default and type(v) is kind:
                continue
            d[key] = _plain(v) if convert else v
        return d

    @classmethod
    def from_wire(cls, d: Any, *, open: bool = False) -> Self:
        """Check a decoded map's keys and build (and so validate) the message.

        `open`: the map came from a server, so a string key the class does not know is
        a field a newer server added and is left out (docs/protocol.md, "Versions and
        new fields"); a client's map is refused for it (`unknown_field`).
        """
        return cls(**cls.wire_fields(d, open=open))

    @classmethod
    def wire_fields(cls, d: Any, *, open: bool = False) -> dict[str, Any]:
        """The constructor arguments of a decoded map, after checking its keys."""
        if type(d) is not dict:
            fail("bad_type", f"{cls._what().capitalize()} must be a map.")
        keys = d.keys()
        if not keys <= cls._ALLOWED:
            unknown = keys - cls._ALLOWED
            # A key that is not a string is no field anyone could have added.
            refused = {k for k in unknown if type(k) is not str} if open else unknown
            if refused:
                extra = sorted(shown(k) for k in refused)
                fail("unknown_field", f"Unknown field {extra[0]} in {cls._what()}.")
            d = {k: v for k, v in d.items() if k not in unknown}
            keys = d.keys()
        if not keys >= cls._REQUIRED:
            missing = sorted(cls._REQUIRED - keys)
            fail("missing_field", f"Field '{missing[0]}' is missing from {cls._what()}.")
        names = cls._ATTRS
        return {names[k]: v for k, v in d.items() if k != "t"}

    @classmethod
    def _what(cls) -> str:
        return f"'{cls.TYPE}'" if cls.TYPE else f"a {cls.__name__.lower()}"


def _plain(v: Any) -> Any:
    """A field's value as msgpack packs it: parts and changes become maps, tuples stay
    arrays."""
    if isinstance(v, WireMap):
        return v.to_wire()
    if type(v) is tuple and v:
        if isinstance(v[0], WireMap):
            return [x.to_wire() for x in v]
        if isinstance(v[0], CHANGE_TYPES):
            return [change_to_wire(x) for x in v]
    return v


@dataclass_transform(
    frozen_default=True, kw_only_default=True, field_specifiers=(dataclasses.field,)
)
def wire(cls: type[W]) -> type[W]:
    """Make `cls` a frozen, slotted, keyword-only dataclass and record its wire keys.

    A field's wire key is its name unless `metadata={"wire": ...}` says otherwise (for
    names Python reserves, like "from"). The InitVar `_trusted` is not a field.
    """
    cls = dataclasses.dataclass(frozen=True, slots=True, kw_only=True)(cls)
    spec = tuple(
        (f.metadata.get("wire", f.name), f.name, f.default) for f in dataclasses.fields(cls)
    )
    typed = {"t"} if cls.TYPE else set()
    cls._SPEC = spec
    cls._ALLOWED = frozenset(k for k, _, _ in spec) | typed
    cls._REQUIRED = frozenset(k for k, _, d in spec if d is _MISSING) | typed
    cls._ATTRS = {key: attr for key, attr, _ in spec}
    types = {f.name: f.type for f in dataclasses.fields(cls)}
    cls._SEND = tuple(
        (key, attr, d, None if d is _MISSING else type(d), not _as_it_is(types[attr]))
        for key, attr, d in spec
    )
    return cls


# The names in a field's type when msgpack packs its value as it is (no part, no change).
_AS_IT_IS = frozenset({"int", "str", "bool", "float", "None", "tuple"})


def _as_it_is(annotation: Any) -> bool:
    """True when a field of this type needs no `_plain` (e.g. `tuple[int, ...]`,
    `str | None`); any other name (a part, a change, an alias) is converted."""
    text = annotation.__name__ if isinstance(annotation, type) else str(annotation)
    return set(re.findall(r"\w+", text)) <= _AS_IT_IS
