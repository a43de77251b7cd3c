"""The changes of an update on the wire: each a map of its `kind` and its fields.

The classes are the vocabulary's (changes.py); this is the protocol's side of them: the
map it writes for one, and the checks a map from the peer passes before it becomes one.
A field a kind does not carry is left out (nil is taken as left out).
"""

import dataclasses
from typing import Any

from .changes import CHANGE_TYPES, Change
from .fields import card, cell, choice_of, fail, fives, integer, sequence
from .limits import MAX_FIVES, MAX_SEATS, MAX_TEAMS
from .wire import shown

# The fields each kind carries, in wire order (the order of the map's keys).
_FIELDS: dict[type[Change], tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in CHANGE_TYPES
}
CHANGE_BY_KIND: dict[str, type[Change]] = {cls.kind: cls for cls in CHANGE_TYPES}
CHANGE_KINDS = tuple(CHANGE_BY_KIND)
# Every kind of change an update reports, with the fields it carries (all others nil).
CHANGE_FIELDS: dict[str, frozenset[str]] = {
    cls.kind: frozenset(names) for cls, names in _FIELDS.items()
}
# Every key a change may have, in the order they are written.
CHANGE_KEYS = ("kind", "seat", "card", "cell", "side", "fives")
_OPTIONAL = CHANGE_KEYS[1:]
_ALLOWED = frozenset(CHANGE_KEYS)


def _check_keys() -> None:
    # A kind with a field the wire does not know would need a check here and a key.
    for names in _FIELDS.values():
        assert set(names) <= set(_OPTIONAL) and list(names) == sorted(names, key=_OPTIONAL.index)


_check_keys()


def change_to_wire(change: Change) -> dict[str, Any]:
    """The map to pack for `change`: its kind, then its fields."""
    d: dict[str, Any] = {"kind": change.kind}
    for name in _FIELDS[type(change)]:
        d[name] = getattr(change, name)
    return d


def change_from_wire(d: Any) -> Change:
    """The change a decoded map describes, checked (LocalProtocolError otherwise)."""
    cls = _class_of(d)
    wanted = _FIELDS[cls]
    for name in _OPTIONAL:
        given = d.get(name) is not None
        if given != (name in wanted):
            needs = "needs" if name in wanted else "has no"
            fail("bad_format", f"A '{cls.kind}' change {needs} field '{name}'.")
    return cls(**_checked({name: d[name] for name in wanted}))


def _class_of(d: Any) -> type[Change]:
    """The class of change a map names, once its keys are ones a change may have."""
    if type(d) is not dict:
        fail("bad_type", "A change must be a map.")
    # Changes travel only in server messages: a string key a change may not have is a
    # field a newer server added, left out (docs/protocol.md, "Versions and new fields").
    keys = d.keys()
    if not keys <= _ALLOWED:
        refused = [k for k in keys - _ALLOWED if type(k) is not str]
        if refused:
            extra = sorted(shown(k) for k in refused)
            fail("unknown_field", f"Unknown field {extra[0]} in a change.")
    if "kind" not in keys:
        fail("missing_field", "Field 'kind' is missing from a change.")
    kind = d["kind"]
    cls = CHANGE_BY_KIND.get(kind) if type(kind) is str else None
    if cls is None:
        choice_of(kind, "kind", CHANGE_KINDS)
        raise AssertionError("unreachable: choice_of refused the kind")
    return cls


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """The fields' values, each checked for its range (fives made a tuple)."""
    if "seat" in values:
        integer(values["seat"], "seat", 0, MAX_SEATS - 1)
    if "side" in values:
        integer(values["side"], "side", 0, MAX_TEAMS - 1)
    if "card" in values:
        card(values["card"], "card")
    if "cell" in values:
        cell(values["cell"], "cell")
    if "fives" in values:
        values["fives"] = fives(values["fives"], "fives", MAX_FIVES)
        if not values["fives"]:
            fail("out_of_range", "A sequence change holds from 1 to 4 fives.")
    return values


def change_of(v: Any, name: str) -> Change:
    """A change given as one (built here: checked as if it came from the wire) or as a
    decoded map."""
    if type(v) in _FIELDS:
        return change_from_wire(change_to_wire(v))
    if type(v) is not dict:
        fail("bad_type", f"Field '{name}' must hold change maps.")
    return change_from_wire(v)


def changes_of(v: Any, name: str, lo: int, hi: int) -> tuple[Change, ...]:
    """lo..hi changes, less those of a kind this end does not know: a newer server's,
    which a client ignores (docs/protocol.md), so the result may hold fewer than lo."""
    return tuple(change_of(x, name) for x in sequence(v, name, lo, hi) if not _newer(x))


def _newer(v: Any) -> bool:
    """True for a change map whose kind is a string this end does not know."""
    if type(v) is not dict:
        return False
    kind = v.get("kind")
    return type(kind) is str and kind not in CHANGE_BY_KIND
