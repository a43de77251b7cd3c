"""The host's offline commands (`sarja-server export`, `standings`, `forget`) and the
journal's and the data directory's errors speak the host's language, as the server's
other lines do: the real `sarja-server`, its environment asking for Finnish. The
commands run at once (each process spends most of its time importing)."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from sarja import lang
from sarja.server.datalock import DataDirLock
from sarja.server.journal import FILE_NAME, Journal

SERVER = str(Path(sys.executable).parent / "sarja-server")
FINNISH = {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "fi_FI.UTF-8"}


def run_all(*commands: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """Each command's exit status, stdout and stderr, the commands run side by side."""
    running = [
        subprocess.Popen(
            [SERVER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=FINNISH
        )  # fmt: skip
        for args in commands
    ]
    done = []
    for process in running:
        # The timeout only ends a server that failed to exit; nothing is timed.
        out, err = process.communicate(timeout=120)
        done.append((process.returncode, out, err))
    return done


def test_the_hosts_commands_and_the_journals_errors_speak_finnish(tmp_path):
    kept, damaged, held = tmp_path / "kept", tmp_path / "damaged", tmp_path / "held"
    kept.mkdir()
    Journal(kept / FILE_NAME).close()  # an empty journal: no games yet
    damaged.mkdir()
    (damaged / FILE_NAME).write_bytes(b"this is not a database" * 100)
    lock = DataDirLock.take(held)  # as a server running on it holds it
    try:
        standings, forget, broken, second = run_all(
            ("standings", "--data-dir", str(kept)),
            ("forget", "ab12", "--data-dir", str(kept)),
            ("export", "--data-dir", str(damaged)),
            ("--host", "127.0.0.1", "--port", "0", "--no-discovery", "--data-dir", str(held)),
        )
    finally:
        lock.release()
    status, out, err = standings
    assert status == 0, err
    assert "Ilta (viimeisten 12 tunnin aikana päättyneet pelit)" in out, out
    assert "Kaikkien aikojen" in out and "(ei pelejä)" in out and "(ei joukkuepelejä)" in out
    assert "games" not in out and "All time" not in out
    status, _, err = forget
    assert status == 1 and "sarja-server forget: anna koko tunnus (12 merkkiä)" in err, err
    status, _, err = broken
    assert status == 1, err
    assert f"sarja-server export: tallenne {damaged / FILE_NAME} on vioittunut" in err, err
    status, _, err = second
    assert status == 1 and f"hakemisto {held} on toisen sarja-serverin käytössä" in err, err


async def test_the_journals_failure_in_a_game_is_one_finnish_line(tmp_path, caplog):
    """The critical line when a commit fails was a Finnish sentence followed by English
    ("; stopping, so that no move is lost"): the whole line comes from the catalog."""
    journal = Journal(tmp_path / FILE_NAME)
    # Another program makes the journal refuse the next table: its commit fails.
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON tables"
        " BEGIN SELECT RAISE(ABORT, 'no more tables'); END"
    )
    db.commit()
    db.close()
    journal.table_opened("t1", 1, "Doomed", 2, 2, 7, False, None)
    lang.use("fi")
    try:
        with caplog.at_level(logging.CRITICAL):
            assert not await journal.commit()
    finally:
        lang.use("en")
        journal.close()
    (line,) = [r.getMessage() for r in caplog.records if r.levelno == logging.CRITICAL]
    assert line.startswith(f"tallenteeseen {tmp_path / FILE_NAME} ei voi kirjoittaa"), line
    assert "stopping" not in line and "lost" not in line, line


def test_the_hosts_standings_name_a_computer_in_finnish():
    # The journal keeps a level's line as "Computer (hard)": printed as it was, in
    # English among the Finnish heads.
    from sarja import lang
    from sarja.protocol.standing import Standing
    from sarja.server.standings_cli import format_lines
    from sarja.server.standings_read import Line

    figures = dict(games=1, wins=1, losses=0, draws=0, sequences=2, removed=0, exchanged=0)
    hard = Standing(name="Computer (hard)", computer="hard", move_ms=300, rating=10, **figures)
    aino = Standing(name="Aino", move_ms=900, rating=5, **figures)
    lines = [Line("computer:hard", hard, 1.0), Line("ab" * 32, aino, 0.5)]
    try:
        lang.use("fi")
        printed = format_lines(lines)
    finally:
        lang.use("en")
    assert "Tietokone (vaikea)" in printed[1]
    assert "Aino" in printed[2]
    assert "Computer (hard)" in format_lines(lines)[1]
