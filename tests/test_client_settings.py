"""What the client remembers between runs: the name, and each server's seats by the
server's identity and the player's name."""

from __future__ import annotations

import multiprocessing
import stat
from pathlib import Path

from sarja.client.model import Model
from sarja.client.settings import Settings, settings_path
from sarja.protocol.messages import Error, Resume

from .client_helpers import KEY, WELCOME, Headless


def test_name_and_seats_are_remembered_together(tmp_path):
    path = tmp_path / "sarja" / "client.json"
    first = Settings(path)
    assert first.name == "" and first.seats == {}
    first.save("Aino", {"srv1": {"Aino": "t" * 43}, "srv2": {"Aino": "u" * 43}})
    again = Settings(path)
    assert again.name == "Aino"
    assert again.seats == {"srv1": {"Aino": "t" * 43}, "srv2": {"Aino": "u" * 43}}
    # The token is as good as the seat: only its owner may read the file.
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_two_people_on_one_machine_keep_their_own_tokens(tmp_path):
    path = tmp_path / "client.json"
    Settings(path).save("Aino", {"srv1": {"Aino": "a" * 43}})
    bertil = Settings(path)
    bertil.save("Bertil", {**bertil.seats, "srv1": {**bertil.seats["srv1"], "Bertil": "b" * 43}})
    assert Settings(path).seats == {"srv1": {"Aino": "a" * 43, "Bertil": "b" * 43}}


def test_a_broken_file_remembers_nothing(tmp_path):
    path = tmp_path / "client.json"
    path.write_text("{not json")
    assert Settings(path).name == "" and Settings(path).seats == {}
    path.write_text('{"name": 3, "seats": {"srv1": "oops", "srv2": {"Aino": 5}}}')
    assert Settings(path).name == "" and Settings(path).seats == {}
    Settings(path).save("Aino", {"srv1": {"Aino": "x" * 43}})
    assert Settings(path).seats == {"srv1": {"Aino": "x" * 43}}


def test_the_file_lives_in_the_users_config_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert settings_path() == tmp_path / "sarja" / "client.json"


def test_in_memory_settings_write_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    Settings(None).save("Aino", {"srv1": {"Aino": "x" * 43}})
    assert not any(tmp_path.iterdir())


def test_two_clients_at_once_do_not_forget_each_others_seats(tmp_path):
    """Both started before either kept a token: each writes only its own."""
    path = tmp_path / "client.json"
    aino, bertil = Settings(path), Settings(path)
    aino.save("Aino", {"srv1": {"Aino": "a" * 43}})
    bertil.save("Bertil", {"srv1": {"Bertil": "b" * 43}})
    aino.save("Aino", {"srv1": {"Aino": "c" * 43, "Bertil": "stale" * 9}})
    assert Settings(path).seats == {"srv1": {"Aino": "c" * 43, "Bertil": "b" * 43}}


def _token(name: str, n: int) -> str:
    return f"{name}{n}".ljust(43, "x")


SERVERS = 20


def _keep_tokens(path: str, name: str, rounds: int) -> None:
    settings = Settings(Path(path))
    for n in range(rounds):
        settings.save(name, {f"srv{n % SERVERS}": {name: _token(name, n)}})


def test_clients_saving_at_the_same_moment_lose_nothing(tmp_path):
    """Two client processes saving over and over at once (two people on one machine
    joining tables together): the last token of each for every server is in the file."""
    path = tmp_path / "client.json"
    rounds = 400
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_keep_tokens, args=(str(path), name, rounds))
        for name in ("Aino", "Bertil")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    seats = Settings(path).seats
    for name in ("Aino", "Bertil"):
        last = {f"srv{n % SERVERS}": _token(name, n) for n in range(rounds)}
        assert {server: tokens.get(name) for server, tokens in seats.items()} == last, name


def test_the_token_a_refused_resume_leaves_us_is_remembered(tmp_path):
    # A resume refused (`unknown_resume`) makes the welcome's own token ours, and no
    # welcome follows: the file kept the refused one, so the next run of the client
    # asked for its seat with a token the server never heard of, and lost the seat.
    path = tmp_path / "client.json"
    Settings(path).save("Aino", {KEY: {"Aino": "old" * 11}})
    h = Headless(Model(address="h:1", name="Aino", named=True, link="online",
                       seats=Settings(path).seats))  # fmt: skip
    h.client.settings = Settings(path)
    h.feed(WELCOME)
    assert h.sent == [Resume(token="old" * 11)]
    h.feed(Error(code="unknown_resume", message="That resume token is not known here."))
    assert Settings(path).seats == {KEY: {"Aino": WELCOME.resume}}


def test_the_folder_is_its_owners_alone(tmp_path):
    """The tokens and person keys are as good as the seats and standings: nobody else
    lists the folder or reads the file, also where an older client left them open."""
    folder = tmp_path / "sarja"
    Settings(folder / "client.json").save("Aino", {"srv1": {"Aino": "t" * 43}})
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "client.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((folder / "client.lock").stat().st_mode) == 0o600
    folder.chmod(0o755)
    (folder / "client.partial").write_text("{}")
    (folder / "client.partial").chmod(0o644)
    Settings(folder / "client.json").save("Bertil", {})
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "client.json").stat().st_mode) == 0o600
