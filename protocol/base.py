"""The base of every message and nested record: a frozen dataclass with a wire form.

Subclasses validate every field in `__post_init__`, so a message that exists is valid,
whether we built it (a bad field is a LocalProtocolError) or decoded it (the codec turns
the same error into a RemoteProtocolError).
"""

import dataclasses
from operator import attrgetter
from typing import Any, ClassVar, TypeVar

from .fields import fail

R = TypeVar("R", bound="Record")


class Record:
    """A map on the wire. `TYPE` is "" for records nested inside messages."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    _KEYS: ClassVar[tuple[str, ...]]  # wire keys, in field order
    _ALLOWED: ClassVar[frozenset[str]]
    _REQUIRED: ClassVar[frozenset[str]]
    _RENAMES: ClassVar[dict[str, str]]  # wire key -> attribute, where they differ
    _values: ClassVar[Any]
    # Builds an instance from values already checked (positional, in field order), with
    # no validation: only for decoders that have checked every field exactly.
    _trusted: ClassVar[Any]
    _FIELDS: ClassVar[tuple[str, ...]]  # attribute names, in field order
    _DEFAULTS: ClassVar[dict[str, Any]]  # attribute -> default, for fields that have one

    def to_wire(self) -> dict[str, Any]:
        """The map to pack; records nested in fields are converted by the subclass.

        `record` replaces this with a generated dict display for classes that do not
        define their own; this generic form is what subclasses may build on.
        """
        if self.TYPE:
            d = {"t": self.TYPE}
            d.update(zip(self._KEYS, self._values(self), strict=True))
            return d
        return dict(zip(self._KEYS, self._values(self), strict=True))

    @classmethod
    def from_wire(cls: type[R], d: Any) -> R:
        return cls(**cls.wire_fields(d))

    @classmethod
    def unchecked(cls: type[R], **fields: Any) -> R:
        """Build without validation, for values the sender's own trusted code made
        (the server's seat states, once per seat per move). The receiving codec still
        validates every field; tests decode everything the server sends."""
        defaults = cls._DEFAULTS
        values = [fields[n] if n in fields else defaults[n] for n in cls._FIELDS]
        return cls._trusted(*values)  # type: ignore[no-any-return]

    @classmethod
    def wire_fields(cls, d: Any) -> dict[str, Any]:
        """Check the keys of a decoded map and return them as constructor arguments."""
        if type(d) is not dict:
            fail("bad_type", f"A {cls.__name__.lower()} must be a map.")
        keys = d.keys()
        if keys == cls._ALLOWED and not cls._RENAMES:  # the usual case: every field sent
            if cls.TYPE:
                kw = dict(d)
                del kw["t"]
                return kw
            return d
        if not keys <= cls._ALLOWED:
            extra = sorted(str(k)[:40] for k in keys - cls._ALLOWED)
            fail("unknown_field", f"Unknown field '{extra[0]}' in {cls._what()}.")
        if not keys >= cls._REQUIRED:
            missing = sorted(cls._REQUIRED - keys)
            fail("missing_field", f"Field '{missing[0]}' is missing from {cls._what()}.")
        kw = dict(d)
        kw.pop("t", None)
        for wire, attr in cls._RENAMES.items():
            if wire in kw:
                kw[attr] = kw.pop(wire)
        return kw

    @classmethod
    def _what(cls) -> str:
        return f"'{cls.TYPE}'" if cls.TYPE else f"a {cls.__name__.lower()}"


def record(cls: type[R]) -> type[R]:
    """Make `cls` a frozen, slotted, keyword-only dataclass and record its wire keys.

    A field's wire key is its name unless `metadata={"wire": ...}` says otherwise (for
    names Python reserves, like "from"). Fields with defaults may be left out on the wire.
    """
    cls = dataclasses.dataclass(frozen=True, slots=True, kw_only=True)(cls)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    keys = tuple(f.metadata.get("wire", f.name) for f in fields)
    cls._KEYS = keys
    cls._ALLOWED = frozenset(keys) | ({"t"} if cls.TYPE else frozenset())
    cls._REQUIRED = frozenset(
        k
        for k, f in zip(keys, fields, strict=True)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ) | ({"t"} if cls.TYPE else frozenset())
    cls._RENAMES = {k: f.name for k, f in zip(keys, fields, strict=True) if k != f.name}
    cls._values = staticmethod(_getter([f.name for f in fields]))  # type: ignore[assignment]
    cls._trusted = staticmethod(_trusted(cls, [f.name for f in fields]))
    cls._FIELDS = tuple(f.name for f in fields)
    cls._DEFAULTS = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    if "to_wire" not in cls.__dict__:
        cls.to_wire = _flat_to_wire(cls, keys, [f.name for f in fields])  # type: ignore[method-assign]
    return cls


def _compile(source: str, name: str, namespace: dict[str, Any]) -> Any:
    exec(source, namespace)  # noqa: S102 - source built here from field names only
    return namespace[name]


def _flat_to_wire(cls: type, keys: tuple[str, ...], names: list[str]) -> Any:
    """`to_wire` as one dict display, e.g. {"t": "ack", "id": self.id, ...}.

    Several times faster than zipping keys with values; the key order (and so the bytes)
    is the same: "t" first, then the fields in order.
    """
    items = ([f"'t': {cls.TYPE!r}"] if cls.TYPE else []) + [
        f"{k!r}: self.{n}" for k, n in zip(keys, names, strict=True)
    ]
    source = f"def to_wire(self):\n    return {{{', '.join(items)}}}\n"
    fn = _compile(source, "to_wire", {})
    fn.__qualname__ = f"{cls.__qualname__}.to_wire"
    fn.__doc__ = Record.to_wire.__doc__
    return fn


def _trusted(cls: type, names: list[str]) -> Any:
    """A constructor that sets each slot directly, skipping `__init__` and validation.

    A frozen dataclass's `__init__` goes through `object.__setattr__` per field; the slot
    descriptors' own `__set__` does the same store several times faster.
    """
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def trusted({', '.join(names)}):", "    self = _new(_cls)"]
    for n in names:
        namespace[f"_set_{n}"] = cls.__dict__[n].__set__
        lines.append(f"    _set_{n}(self, {n})")
    lines.append("    return self")
    return _compile("\n".join(lines) + "\n", "trusted", namespace)


def _getter(names: list[str]) -> Any:
    """All field values as a tuple, at C speed (attrgetter of one name returns no tuple)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()
