"""What the client remembers between runs: the player's name, the seats they hold, and
whether a bell and the window's title tell them of their turn (`alerts`, off at first),
and the language they chose (`language`: unset follows the environment).

Beside the tokens (which stay after a game is over, for the next resume), the servers
where a seat waits for the player now (`held`, by fingerprint): the finder says
"your seat" of those.

Every secret is kept under the fingerprint of the server's TLS key (client/tls.py),
which the server proves it holds in each connection's handshake, and never under its
`server_id` or the address typed: both are public, and anyone on the LAN can run a
server that answers with another's id. A seat is remembered by that fingerprint and
the player's name: the same server is reached as `localhost`, by its IP address or by
a name, and a seat comes back whichever was used. Two people on one machine share the
file, never a seat, since the name is part of the key.

The standings know a person by a secret key this client makes, one per server (under
its fingerprint: `people`), sent in every `hello`; the server keeps only its hash.
Which key each server showed first is remembered too (`pins`: server_id ->
fingerprint), as SSH does: a welcome naming a known server over another key is
refused (app.py), unless the player accepts that the server was reinstalled
(`accept_key`, which moves what was kept under the old key). Everyone who uses this
computer account shares its keys.

Kept as JSON in the user's config directory (platformdirs: `$XDG_CONFIG_HOME/sarja` or
`~/.config/sarja` on Linux, the usual places elsewhere). A missing or broken file just
means nothing is remembered. A token is as good as the seat, a person key as the
standing: the folder is its owner's alone (0700, made so if it was not) and the file
readable by its owner only (0600). Clients on one machine take turns at it (a lock file,
client.lock, beside it), so two saving at once both keep what they saved.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from platformdirs import user_config_path

from sarja.lang import LANGUAGES

SEATS_KEPT = 50  # servers remembered; the oldest are forgotten first


def settings_path() -> Path:
    return user_config_path("sarja", appauthor=False) / "client.json"


class Settings:
    """The file, read once at start and written whenever something worth keeping
    changes. `path=None` keeps everything in memory only (tests, replays)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        data = _load(path) if path is not None else {}
        name = data.get("name")
        self.name: str = name if isinstance(name, str) else ""
        self.alerts: bool = data.get("alerts") is True
        language = data.get("language")  # "en" or "fi"; "" = as the environment says
        self.language: str = language if language in LANGUAGES else ""
        seats = data.get("seats")
        self.seats: dict[str, dict[str, str]] = {}
        if isinstance(seats, dict):
            for server, tokens in seats.items():
                if isinstance(server, str) and isinstance(tokens, dict):
                    kept = {k: v for k, v in tokens.items() if isinstance(v, str)}
                    if kept:
                        self.seats[server] = kept
        held = data.get("held")  # the fingerprints of servers where a seat waits now
        self.held: list[str] = (
            [h for h in held if isinstance(h, str)] if isinstance(held, list) else []
        )
        self.people: dict[str, str] = _strings(data.get("people"))  # fingerprint -> key
        self.pins: dict[str, str] = _strings(data.get("pins"))  # server_id -> fingerprint
        self._offered: dict[str, str] = {}  # fingerprint -> a fresh key offered this run

    def person_for(self, fingerprint: str) -> str:
        """The key to say hello with to the server holding `fingerprint`'s key: the one
        kept for it, or a fresh one (kept for this run) for a key not known yet."""
        if fingerprint in self.people:
            return self.people[fingerprint]
        if fingerprint not in self._offered:
            self._offered[fingerprint] = secrets.token_urlsafe(32)
        return self._offered[fingerprint]

    def learn(self, fingerprint: str, server_id: str, sent: str | None) -> bool:
        """A welcome from `server_id` over `fingerprint`'s key, after a hello with the
        person key `sent`: remember both. False, and nothing kept, if that server showed
        another key before (someone pretending to be it, or it was reinstalled)."""
        known = self.pins.get(server_id)
        if known is not None and known != fingerprint:
            return False
        if known is None or (sent is not None and self.people.get(fingerprint) != sent):
            self._update_people(lambda f: _learn(f, fingerprint, server_id, sent))
        return self.pins.get(server_id) == fingerprint

    def accept_key(self, server_id: str, fingerprint: str) -> None:
        """The player says `server_id` was reinstalled with `fingerprint`'s key: pin it,
        and move what was kept under its old key (tokens, person key) to the new one."""
        self._offered.pop(fingerprint, None)
        self._update_people(lambda f: _accept(f, server_id, fingerprint))

    def forget_person(self, fingerprint: str) -> None:
        """The server forgot us: drop its key; the next hello offers a fresh one."""
        self._offered.clear()
        self._update_people(lambda f: f.people.pop(fingerprint, None))

    def _update_people(self, change: Callable[[Settings], object]) -> None:
        if self.path is None:
            change(self)
            return
        with _locked(self.path):  # what others kept meanwhile stays as they kept it
            fresh = Settings(self.path)
            change(fresh)
            fresh._write()
            self.people, self.pins, self.seats = fresh.people, fresh.pins, fresh.seats

    def save(self, name: str, seats: dict[str, dict[str, str]]) -> None:
        """Remember `name`, and its tokens in `seats`. The file is read again first and
        only this name's tokens are written: another client on this machine (another
        player) may have kept its own since we started."""
        mine = {server: tokens[name] for server, tokens in seats.items() if name in tokens}
        if name == self.name and all(self.seats.get(s, {}).get(name) == t for s, t in mine.items()):
            return
        if self.path is None:
            self._merge(self, name, mine)
            return
        with _locked(self.path):  # two clients saving at once would lose one's tokens
            fresh = Settings(self.path)
            self._merge(fresh, name, mine)
            self.alerts, self.language = fresh.alerts, fresh.language
            self.people, self.pins = fresh.people, fresh.pins
            self._write()

    def save_alerts(self, on: bool) -> None:
        """Remember whether the bell and the title tell of our turn."""
        self.alerts = on
        if self.path is None:
            return
        with _locked(self.path):  # what others kept meanwhile stays as they kept it
            fresh = Settings(self.path)
            fresh.alerts = on
            fresh._write()

    def save_held(self, fingerprint: str, holding: bool) -> None:
        """Remember whether a seat at the server of `fingerprint`'s key waits for us (a
        game under way that we left, or are at), for the finder's "your seat"."""
        if (fingerprint in self.held) == holding:
            return
        change = _held(fingerprint, holding)
        if self.path is None:
            change(self)
            return
        with _locked(self.path):
            fresh = Settings(self.path)
            change(fresh)
            fresh._write()
            self.held = fresh.held

    def save_language(self, language: str) -> None:
        """Remember the language chosen (`--lang`, or the lobby's key)."""
        self.language = language
        if self.path is None:
            return
        with _locked(self.path):
            fresh = Settings(self.path)
            fresh.language = language
            fresh._write()

    def _write(self) -> None:
        assert self.path is not None
        data: dict[str, Any] = {"name": self.name, "seats": self.seats, "alerts": self.alerts}
        data.update(people=self.people, pins=self.pins, held=self.held)
        if self.language:
            data["language"] = self.language
        _save(data, self.path)

    def _merge(self, fresh: Settings, name: str, mine: dict[str, str]) -> None:
        for server, token in mine.items():
            fresh.seats.setdefault(server, {})[name] = token
        newest = list(fresh.seats.items())[-SEATS_KEPT:]
        self.name, self.seats = name, {server: dict(tokens) for server, tokens in newest}


def _held(fingerprint: str, holding: bool) -> Callable[[Settings], None]:
    def change(settings: Settings) -> None:
        rest = [h for h in settings.held if h != fingerprint]
        settings.held = ([*rest, fingerprint] if holding else rest)[-SEATS_KEPT:]

    return change


def _learn(settings: Settings, fingerprint: str, server_id: str, sent: str | None) -> None:
    if settings.pins.setdefault(server_id, fingerprint) != fingerprint:
        return  # another client here met the server first, over another key
    if sent is not None:
        settings.people.setdefault(fingerprint, sent)
    _trim(settings)


def _accept(settings: Settings, server_id: str, fingerprint: str) -> None:
    old = settings.pins.pop(server_id, None)
    settings.pins[server_id] = fingerprint  # the newest last: the oldest go first
    if old is not None and old != fingerprint:
        if old in settings.people:
            settings.people[fingerprint] = settings.people.pop(old)
        if old in settings.seats:
            settings.seats[fingerprint] = settings.seats.pop(old)
    _trim(settings)


def _trim(settings: Settings) -> None:
    settings.pins = dict(list(settings.pins.items())[-SEATS_KEPT:])
    settings.people = dict(list(settings.people.items())[-SEATS_KEPT:])


def _strings(v: object) -> dict[str, str]:
    if not isinstance(v, dict):
        return {}
    return {k: x for k, x in v.items() if isinstance(k, str) and isinstance(x, str)}


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold the file's lock (a lock file beside it) while reading and writing it, so
    other clients on this machine wait. Where there is no lock, go on without."""
    if sys.platform == "win32":
        yield
        return
    import fcntl

    try:
        _own_folder(path.parent)
        fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # and with it the lock


def _own_folder(folder: Path) -> None:
    """The settings' folder, made if missing, and the owner's alone: what it holds
    (the tokens, the person keys, the lock) is nobody else's to list or read."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if sys.platform != "win32" and folder.stat().st_mode & 0o077:
        folder.chmod(0o700)


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(data: dict[str, Any], path: Path) -> None:
    try:
        _own_folder(path.parent)
        partial = path.with_suffix(".partial")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        if sys.platform != "win32":  # a partial file left by an older client keeps its mode
            os.fchmod(fd, 0o600)
        with open(fd, "w") as f:
            f.write(json.dumps(data, ensure_ascii=False) + "\n")
        os.replace(partial, path)
    except OSError:
        pass  # not remembering is no reason to stop playing
