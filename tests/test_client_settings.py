"""What the client remembers between runs: the name and each server's token."""

from __future__ import annotations

import stat

from sarja.client.settings import load_name, load_resume, save_name, save_resume


def test_name_and_tokens_are_remembered_together(tmp_path):
    path = tmp_path / "sarja" / "client.json"
    assert load_name(path) == "" and load_resume("host:7474", "Aino", path) is None
    save_name("Aino", path)
    save_resume("host:7474", "Aino", "t" * 43, path)
    save_resume("other:7474", "Aino", "u" * 43, path)
    save_name("Aino K", path)
    assert load_name(path) == "Aino K"
    assert load_resume("host:7474", "Aino", path) == "t" * 43
    assert load_resume("other:7474", "Aino", path) == "u" * 43
    # Two people on one machine share the file, never a seat.
    assert load_resume("host:7474", "Bertil", path) is None
    # The token is as good as the seat: only its owner may read the file.
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_broken_file_remembers_nothing(tmp_path):
    path = tmp_path / "client.json"
    path.write_text("{not json")
    assert load_name(path) == "" and load_resume("host:1", "Aino", path) is None
    save_resume("host:1", "Aino", "x" * 43, path)
    assert load_resume("host:1", "Aino", path) == "x" * 43
