"""What the client remembers between runs: the player's name, the seats they hold, and
whether a bell and the window's title tell them of their turn (`alerts`, off at first),
and the language they chose (`language`: unset follows the environment).

Beside the tokens (which stay after a game is over, for the next resume), the servers
where a seat waits for the player now (`held`): the finder says "your seat" of those.

A seat is remembered by the server's lasting identity (`welcome.server_id`) and the
player's name, never by the address typed: the same server is reached as `localhost`,
by its IP address or by a name, and a seat must come back whichever was used. Two
people on one machine share the file, never a seat, since the name is part of the key.

The standings know a person by a secret key this client makes, one per server (by
`server_id`: `people`), sent in every `hello`; the server keeps only its hash. A hello
goes before the welcome names the server, so the client remembers which server each
address led to (`servers`), and offers a fresh key to an address it does not know: if
the welcome shows a server that has a key here already, the app connects again with
that one (app.py). Everyone who uses this computer account shares its keys.

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
        held = data.get("held")  # the servers where this machine's player holds a seat
        self.held: list[str] = (
            [h for h in held if isinstance(h, str)] if isinstance(held, list) else []
        )
        self.people: dict[str, str] = _strings(data.get("people"))  # server_id -> key
        self.servers: dict[str, str] = _strings(data.get("servers"))  # address -> server_id
        self._offered: dict[str, str] = {}  # address -> a fresh key offered this run

    def person_for(self, address: str) -> str:
        """The key to say hello with at `address`: the key of the server it led to
        last, or a fresh one (kept for this run) for an address not known yet."""
        server = self.servers.get(address)
        if server is not None and server in self.people:
            return self.people[server]
        if address not in self._offered:
            self._offered[address] = secrets.token_urlsafe(32)
        return self._offered[address]

    def learn(self, address: str, server_id: str, sent: str | None) -> bool:
        """The welcome at `address` named `server_id`: remember it, and the key `sent`
        if that server had none here. False if the server has another key here (it was
        reached by another address before): then the hello should go again with it."""
        if self.servers.get(address) == server_id and self.people.get(server_id) == sent:
            return True
        self._update_people(lambda f: _learn(f, address, server_id, sent))
        return sent is None or self.people.get(server_id) == sent

    def forget_person(self, server_id: str) -> None:
        """The server forgot us: drop its key; the next hello offers a fresh one."""
        self._offered.clear()
        self._update_people(lambda f: f.people.pop(server_id, None))

    def _update_people(self, change: Callable[[Settings], object]) -> None:
        if self.path is None:
            change(self)
            return
        with _locked(self.path):  # what others kept meanwhile stays as they kept it
            fresh = Settings(self.path)
            change(fresh)
            fresh._write()
            self.people, self.servers = fresh.people, fresh.servers

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
            self.people, self.servers = fresh.people, fresh.servers
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

    def save_held(self, server_id: str, holding: bool) -> None:
        """Remember whether a seat at `server_id` waits for us (a game under way that
        we left, or are at), for the finder's "your seat"."""
        if (server_id in self.held) == holding:
            return
        change = _held(server_id, holding)
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
        data.update(people=self.people, servers=self.servers, held=self.held)
        if self.language:
            data["language"] = self.language
        _save(data, self.path)

    def _merge(self, fresh: Settings, name: str, mine: dict[str, str]) -> None:
        for server, token in mine.items():
            fresh.seats.setdefault(server, {})[name] = token
        newest = list(fresh.seats.items())[-SEATS_KEPT:]
        self.name, self.seats = name, {server: dict(tokens) for server, tokens in newest}


def _held(server_id: str, holding: bool) -> Callable[[Settings], None]:
    def change(settings: Settings) -> None:
        rest = [h for h in settings.held if h != server_id]
        settings.held = ([*rest, server_id] if holding else rest)[-SEATS_KEPT:]

    return change


def _learn(settings: Settings, address: str, server_id: str, sent: str | None) -> None:
    settings.servers.pop(address, None)  # the newest last: the oldest go first
    settings.servers[address] = server_id
    if sent is not None:
        settings.people.setdefault(server_id, sent)
    settings.servers = dict(list(settings.servers.items())[-SEATS_KEPT:])
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
