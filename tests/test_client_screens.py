"""Every screen of whole recorded games, at 80×24: nothing is ever cut.

Games of 2, 3, 4 (2×2) and 12 (3×4) players are played by the rules engine, with long
names, and turned into each seat's and a spectator's protocol 2 messages by the server's
own presenter, then fed to the real client app (layout, key bindings, text boxes; no
terminal). After every move the screen is drawn at 80×24, and every part of it must
fit its window: a line wider than its window, or more lines than it has rows, would be
cut at the edge, so the test fails. Around the games: the lobby listing those tables,
each waiting room, the new-table form, the help pages, chat, questions, the connection's
troubles, and a replay of each game's record.

Each test runs in English and in Finnish. In Finnish, no screen may show a word of
English (`ENGLISH`): a sentence shown to a person but not marked for translation
would show one. The data (table names, chat) is in the screen's language for that.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import random
import re

import pytest

from sarja import lang
from sarja.client import model as m
from sarja.client import receive
from sarja.client.fit import text_of
from sarja.client.form import CreateForm
from sarja.client.record import load
from sarja.client.words import connect, lobby, refusals
from sarja.client.words import game as game_words
from sarja.client.words import standings as standing_words
from sarja.protocol.cards import LAYOUT_CODES
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import (
    Hint,
    MatchScore,
    Notice,
    Rules,
    Seat,
    ServerMessage,
    Standings,
    TableList,
    TableSummary,
    TableView,
    Welcome,
)
from sarja.protocol.standing import Pair, Standing
from sarja.server.engine import Arrangement, Game, record_json
from sarja.server.present import (
    hand_message,
    hand_part,
    legal_message,
    rules_of,
    snapshot,
    table_shapes,
    update,
)

from .client_helpers import STARTED, Headless, headless, line_score
from .client_helpers import snapshot as aino_snapshot

# Words of the client's English that must never reach a Finnish screen (key names such
# as Enter, Tab, Esc, PgUp, Home and End, and "in English" after F, are the same in both).
ENGLISH = frozenset(
    [
        "the",
        "you",
        "your",
        "press",
        "card",
        "cards",
        "seat",
        "seats",
        "turn",
        "game",
        "played",
        "plays",
        "chip",
        "chips",
        "quit",
        "help",
        "ready",
        "waiting",
        "watching",
        "watch",
        "sequence",
        "sequences",
        "draw",
        "pass",
        "free",
        "hand",
        "join",
        "leave",
        "rules",
        "players",
        "table",
        "tables",
        "is",
        "and",
        "of",
        "to",
        "with",
        "not",
        "wins",
        "move",
        "moves",
        "away",
        "computer",
        "spades",
        "hearts",
        "diamonds",
        "clubs",
        "ace",
        "king",
        "queen",
        "jack",
        "back",
        "new",
        "choose",
        "pick",
        "play",
        "cancel",
        "sides",
        "level",
        "discard",
        "dead",
        "wild",
        "remove",
        "held",
        "page",
        "keys",
        "lobby",
        "room",
        "rematch",
        "chat",
        # the match, the turn clocks, the coach and the standings
        "match",
        "clock",
        "hint",
        "coach",
        "standings",
        "games",
        "won",
        "lost",
        "teammates",
        "forget",
        "evening",
    ]
)
# The data shown, in the language of the screen.
DATA = {
    "en": {
        "server": "Sarja at the cottage",
        "table": "Midsummer at the lake house",
        "chat": "A long line of chat to see it wrap in the log ",
        "tables": "Table {i} of the long summer eve",
        "status": " A very long refusal from the server that goes on",
    },
    "fi": {
        "server": "Sarja mökillä",
        "table": "Juhannus järven rannalla",
        "chat": "Pitkä rivi viestiä, jotta näkyy miten se rivittyy lokissa ",
        "tables": "Pöytä {i} pitkänä kesäiltana",
        "status": " Hyvin pitkä kieltäytyminen palvelimelta joka jatkuu",
    },
}


@pytest.fixture(params=["en", "fi"], autouse=True)
def language(request):
    lang.use(request.param)
    yield request.param
    lang.use("en")


def data(key: str) -> str:
    return DATA[lang.language()][key]


def english_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH}


def game_over() -> str:
    return lang._(" Game over: {result}. ").split(":")[0].strip()


NAMES = [
    "Aino Aleksandra Karlsson", "Bertil", "Cecilia Wihuri-Lindqvist", "Daniel", "Eeva",
    "Fredrik Johannes Nyström", "Greta", "Hannu", "Iida-Maria", "Jussi", "Kaisa", "Lauri",
]  # fmt: skip
SHAPES = [(2, 2), (3, 3), (4, 2), (12, 3)]


def welcome() -> Welcome:
    return Welcome(
        version=PROTOCOL_VERSION, session="s1", resume="r" * 43, server_id="srv1",
        layout=LAYOUT_CODES, server=data("server"), shapes=table_shapes(),
    )  # fmt: skip


def choose(game: Game, rng: random.Random) -> object:
    """A sensible move, so games end: the placement building the longest line."""
    legal = game.legal_actions(game.turn)
    board = "".join(".bgr*"[v] if v < 5 else "*" for v in game.chips)
    mine = "bgr"[game.side_of(game.turn)]
    placements = [a for a in legal if str(a)[2] == "@"]
    if not placements or rng.random() < 0.15:
        return rng.choice(legal)
    return max(placements, key=lambda a: (line_score(board, a.cell, mine), rng.random()))


def play_game(players: int, teams: int, seed: int) -> tuple[Game, list[list[tuple[int, object]]]]:
    """A finished game, and per move the engine's events (to make the messages from)."""
    rng = random.Random(seed)
    game = Game.new(Arrangement.of(players, teams if players > 3 else None), rng)
    moves = []
    while game.outcome is None and len(moves) < 600:
        seat = game.turn
        events = game.apply(seat, choose(game, rng))
        moves.append(events)
    assert game.outcome is not None
    return game, moves


def seat_stream(players: int, teams: int, seed: int, seat: int | None) -> list[list[ServerMessage]]:
    """What `seat` (None: a spectator) receives over the game, grouped by move."""
    rng = random.Random(seed)
    game = Game.new(Arrangement.of(players, teams if players > 3 else None), rng)
    names = NAMES[:players]
    away = [False] * players
    table = TableView(
        id="t1", name=data("table"), players=players, teams=teams,
        seats=tuple(Seat(name=n, ready=True, away=False) for n in names), spectators=1,
        started=True, rules=rules_of(game.arrangement), computer_takeover="medium", seat=seat,
    )  # fmt: skip
    groups: list[list[ServerMessage]] = [[table, snapshot("t1", 0, game, seat, names, away, None)]]
    held = hand_part(game, seat) if seat is not None else None
    version = 0
    while game.outcome is None:
        events = game.apply(game.turn, choose(game, rng))
        version += 1
        group: list[ServerMessage] = [update(version, game, tuple(events))]
        if game.outcome is None and seat is not None:
            part = hand_part(game, seat)
            if part != held:
                group.append(hand_message(version, part, None))
                held = part
            legal = legal_message(version, game, seat)
            if legal is not None:
                group.append(legal)
        groups.append(group)
    return groups


def fits(h: Headless, what: str) -> str:
    text, unfit = _render(h)
    assert not unfit, f"{what}: a part does not fit:\n{text}\n" + "\n".join(
        f"  {r.size}: {[''.join(f[1] for f in line) for line in r.lines]}" for r in unfit
    )
    assert all(len(line) <= 80 for line in text.splitlines())
    if lang.language() != "en":
        found = english_words(text)
        assert not found, f"{what}: English on a Finnish screen: {sorted(found)}\n{text}"
    return text


def _render(h: Headless) -> tuple[str, list]:
    from .client_helpers import render

    return render(h.client, 80, 24)


@pytest.mark.parametrize(("players", "teams"), SHAPES)
def test_every_screen_of_a_game_fits_80_by_24(players, teams):
    seed = 11 + players
    seats: list[int | None] = [0, None, players - 1]
    for seat in seats:
        h = Headless(m.Model(address="192.168.100.200:7474", name=NAMES[seat or 0], named=True,
                             link="online"))  # fmt: skip
        h.feed(welcome())
        every = 1 if seat in (0, None) else 3
        for i, group in enumerate(seat_stream(players, teams, seed, seat)):
            h.feed(*group)
            if i % every == 0 or h.model.game.result is not None:
                if h.model.hand:
                    h.press("tab")  # a card picked, its spaces marked
                fits(h, f"seat {seat}, move {i}")
        assert h.model.game.result is not None
        screen = fits(h, "the end")
        assert game_over() in screen
        for overlay in ("help", "quit", "leave"):
            h.model.overlay = overlay
            fits(h, overlay)
            if overlay == "help":
                h.press("tab")
                fits(h, "help, page 2")
        h.model.overlay = None
        h.press("c", *data("chat") * 3, "enter")
        h.feed(*[Notice(kind=k, name=NAMES[1], seat=1) for k in ("rematch", "takeover")])
        fits(h, "chat")


@pytest.mark.parametrize(("players", "teams"), SHAPES)
def test_every_replayed_position_fits_80_by_24(players, teams, tmp_path):
    game, _ = play_game(players, teams, 5 + players)
    path = tmp_path / "sarja-1.json"
    path.write_text(record_json(game, NAMES[:players]), encoding="utf-8")
    h = Headless(load(path))
    steps = len(h.model.replay.steps)
    for i in range(steps):
        screen = fits(h, f"replay step {i}")
        if i == steps - 1:
            assert game_over() in screen
        h.press("right")
    assert h.model.replay.at == steps - 1
    assert json.loads(path.read_text())["names"][0] == NAMES[0]


def test_the_lobby_the_waiting_rooms_and_the_form_fit_80_by_24():
    rules = Rules(hand_size=3, manual_draw=True)
    tables = tuple(
        TableSummary(
            id=f"t{i}", name=data("tables").format(i=i), players=p, teams=t,
            seated=tuple(NAMES[j] if j % 3 else None for j in range(p)) if i % 3 else
            tuple(f"{NAMES[j][:16]} {'Ö' * 7}" for j in range(p)),
            spectators=i * 40, started=i % 2 == 1, rules=rules, computer_takeover="medium",
        )
        for i, (p, t) in enumerate(SHAPES * 5)
    )  # fmt: skip
    h = Headless(m.Model(address="my-very-long-hostname.example.lan:7474", name=NAMES[0],
                         named=True, link="online"))  # fmt: skip
    h.feed(welcome(), TableList(tables=tables))
    assert data("tables").format(i=0)[:12] in fits(h, "the lobby")
    for row in range(len(tables)):
        screen = fits(h, f"lobby row {row}")
        h.press("down")
    # scrolled to keep the chosen in view
    assert "▶ " + data("tables").format(i=len(tables) - 1)[:8] in screen
    h.press("n")
    for field in range(len(CreateForm.FIELDS) - 1):
        for _ in range(4):
            fits(h, f"form field {field}")
            h.press("right")
        h.press("down")
    h.press("escape")
    for players, teams in SHAPES:
        seats = tuple(
            Seat(name=NAMES[j] if j % 2 == 0 else None, ready=j % 4 == 0, away=j == 2)
            for j in range(players)
        )
        view = TableView(
            id="t9", name=data("table") + " 2026", players=players, teams=teams,
            seats=seats, spectators=999, started=False, rules=rules, computer_takeover="medium",
            seat=0,
        )  # fmt: skip
        h.feed(view, *[Notice(kind="joined", name=NAMES[j], seat=j) for j in range(players)])
        fits(h, f"waiting room of {players}")
        h.feed(TableList(tables=tables))


def test_the_connection_screens_fit_80_by_24():
    h = Headless(m.Model(address="192.168.100.200:7474", name="", link="connecting"))
    fits(h, "name, connecting")
    where = "192.168.100.200:7474"
    refused = connect.os_reason(errno.ECONNREFUSED)
    receive.set_link(h.model, "unreachable", connect.waiting(where, refused, "", False, 8))
    fits(h, "name, unreachable")
    h.model.named, h.model.name = True, NAMES[0]
    answer = "HTTP/1.0 400 Bad request version ('\\x00\\x00\\x00\\x1c')"
    receive.set_link(h.model, "stopped", connect.not_sarja(where, answer))
    fits(h, "not a Sarja server")
    h.feed(welcome())
    said = refusals.said("shutdown", "The server is shutting down.")
    receive.set_link(h.model, "reconnecting", connect.waiting(where, "", said, True, 8))
    fits(h, "reconnecting")
    h.model.status = "x" * 5 + data("status") * 4
    fits(h, "a long status")


def test_a_choice_of_fives_fits_80_by_24():
    from .client_helpers import SNAPSHOT, STARTED, WELCOME

    h = Headless()
    h.feed(WELCOME, STARTED, dataclasses.replace(SNAPSHOT))
    h.press("2", "enter")
    assert h.model.overlay == "fives"
    assert lang._(" Which five make the sequence at {cell}? ↑↓ and Enter, or the number;"
                  " Esc: not now ")[:12] in fits(h, "fives")  # fmt: skip


def test_the_lobby_details_end_at_a_word_and_keep_their_rows():
    # "… Enter takes a free seat, s" used to be cut off at the window's third row.
    table = TableSummary(
        id="t2", name="Perjantai-ilta", players=4, teams=2,
        seated=("Äijä Lahtinen", None, "Öljy", None), spectators=2, started=False,
        rules=Rules(hand_size=5, manual_draw=True), computer_takeover="hard",
        computers=(None, "hard", None, "medium"),
    )  # fmt: skip
    h = Headless()
    h.feed(welcome(), TableList(tables=(table,)))
    screen = fits(h, "the lobby")
    details = screen.splitlines()[4:7]
    watching = lobby.watching(2) + "."
    assert details[2].rstrip().endswith((watching, lang._(". {doing}, s watches.")[-10:])), screen
    assert lobby.seat_about("", "medium")[2:] + ")" in details[1]


def test_the_lobby_says_once_that_enter_and_s_watch_a_game_under_way():
    table = TableSummary(
        id="t2", name="Perjantai-ilta", players=2, teams=2, seated=("Cecilia", "Daniel"),
        spectators=0, started=True, rules=Rules(hand_size=7, manual_draw=False),
        computer_takeover=False,
    )  # fmt: skip
    h = Headless()
    h.feed(welcome(), TableList(tables=(table,)))
    details = " ".join(" ".join(fits(h, "the lobby").splitlines()[4:7]).split())
    assert details.endswith(lang._(". Enter or s watches the game.")), details


def test_a_match_tables_rules_fit_the_lobbys_column():
    # In Finnish the match's score alone was wider than the column, and ran off the edge.
    table = TableSummary(
        id="t2", name="Perjantai", players=3, teams=3, seated=("Aino", None, None),
        spectators=0, started=False, rules=Rules(hand_size=6, manual_draw=True),
        computer_takeover="medium", match=MatchScore(to=3, games=()), turn_clock=30,
    )  # fmt: skip
    h = Headless(m.Model(address="127.0.0.1:7474", name="Aino", named=True, link="online"))
    h.feed(welcome(), TableList(tables=(table,)))
    row = fits(h, "a match in the lobby").splitlines()[3]
    assert row.rstrip().endswith("…"), row


def test_a_match_its_clocks_the_coach_and_the_standings_fit_80_by_24():
    """The screens of the match, the turn clock, the coach's hint and the standings, in
    each language: they fit, and a Finnish one has no English left."""
    players = teams = 2
    stream = seat_stream(players, teams, 13, 0)
    table, snap = stream[0]
    match = MatchScore(to=3, games=(0, None))
    table = dataclasses.replace(table, match=match)
    snap = dataclasses.replace(snap, clocks=((snap.turn, 23_000),))
    h = Headless(m.Model(address="192.168.100.200:7474", name=NAMES[0], named=True,
                         link="online"))  # fmt: skip
    h.feed(welcome(), table, snap)
    fits(h, "a clock running, a match's score")
    legal = h.model.game.legal
    if legal:
        h.feed(Hint(version=h.model.game.version, action=legal[0], reason="blocks"))
        fits(h, "a hint")
    for group in stream[1:]:
        h.feed(*group)
    h.feed(dataclasses.replace(table, started=True, match=MatchScore(to=3, games=(0, None, 0))))
    fits(h, "the match's next game")
    row = Standing(name=NAMES[0], games=120, wins=61, losses=50, draws=9, sequences=140,
                   removed=75, exchanged=12, move_ms=8_400, rating=215)  # fmt: skip
    # The server names a computer's line in English ("Computer (hard)"), as here.
    computer = dataclasses.replace(row, name="Computer (hard)", computer="hard")
    h = Headless(m.Model(address="192.168.100.200:7474", name=NAMES[0], named=True,
                         link="online"))  # fmt: skip
    h.feed(welcome(), TableList(tables=()))
    h.press("t")
    fits(h, "asking for the standings")
    pair = Pair(first=NAMES[0], second=NAMES[2], games=14, wins=9)
    h.feed(Standings(hours=6, evening=(row, computer), all_time=(computer, row) * 3,
                     pairs=(pair,), you=row))  # fmt: skip
    screen = fits(h, "the standings")
    assert f"1. {NAMES[0][:12]}" in screen and standing_words.ASKING not in screen
    assert standing_words.computer("hard") in screen  # whole, in the screen's language
    h.feed(Standings(hours=6, evening=(), all_time=()))
    fits(h, "no standings yet")


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_person_named_like_a_computers_line_is_told_apart_from_it(language):
    """A person who calls themselves "Computer (hard)" (or "Tietokone (vaikea)") had a
    line just like the computer's: the computer's is drawn in a style no name has."""
    from sarja.client.render_standings import standings_lines

    lang.use(language)
    try:
        row = Standing(name="x", games=3, wins=1, losses=2, draws=0, sequences=1,
                       removed=0, exchanged=0, move_ms=900, rating=5)  # fmt: skip
        computer = dataclasses.replace(row, name="Computer (hard)", computer="hard")
        person = dataclasses.replace(row, name=standing_words.computer("hard"))
        model = m.Model(address="host:7474", name="Aino", named=True, link="online")
        model.standings = Standings(hours=6, evening=(computer, person), all_time=())
        lines = standings_lines(model, 80, 24)
        rows = [line for line in lines if standing_words.computer("hard") in text_of(line)]
        assert len(rows) == 2, lines
        (mine, theirs) = [[style for style, _ in line] for line in rows]
        assert mine == ["class:computer"] and theirs == [""], rows
        # the same words otherwise: only the style tells them apart
        assert text_of(rows[0])[4:] == text_of(rows[1])[4:]
    finally:
        lang.use("en")


def test_every_key_of_the_lobby_footer_shows_at_80_columns():
    """The lobby's keys take two lines when one will not hold them: in Finnish, one
    line left off `t tilastot` (the standings) and more."""
    h = Headless(m.Model(address="127.0.0.1:7474", name=NAMES[0], named=True, link="online"))
    h.feed(welcome(), TableList(tables=()))
    screen = fits(h, "the lobby")
    foot = " ".join(screen.splitlines()[-2:])
    for key, what, _ in lobby.lobby_keys(False):
        assert f"{key} {what}" in foot, (key, what, screen)


@pytest.mark.parametrize(("language", "bot"), [("en", "Keskitasoinen botti"), ("fi", "Medium bot")])
def test_a_bot_named_in_the_other_language_is_not_tagged_a_computer(language, bot):
    """sarja-bot names itself in its own language: started with --lang fi it is
    "Keskitasoinen botti", which an English player reads too. Its name says what it is,
    so no "(computer)" goes after it (which cut the cards' count short)."""
    lang.use(language)
    try:
        seats = (STARTED.seats[0], Seat(name=bot, ready=True, away=False, computer="medium",
                                        remote=True))  # fmt: skip
        snap = aino_snapshot()
        players = (snap.players[0], dataclasses.replace(snap.players[1], name=bot))
        h = headless(
            dataclasses.replace(STARTED, seats=seats),
            dataclasses.replace(snap, players=players),
            columns=100,
            rows=30,
        )
        screen = h.screen()
        row = next(line for line in screen.splitlines() if bot in line)
        assert game_words.COMPUTER_TAG not in row, row
        assert row.rstrip().endswith("7" + game_words.cards_held(7)), row
    finally:
        lang.use("en")


def test_the_lobby_shows_a_bots_name_whole_and_not_as_the_servers_computer():
    """The lobby read "Keskita… (Vihreä, tietokone)" for sarja-bot's seat: its name was cut
    to make room for a tag that called it the server's computer."""
    lang.use("fi")
    try:
        friday = TableSummary(
            id="t1", name="Perjantai", players=4, teams=2, spectators=1, started=True,
            seated=("Aino", "Keskitasoinen botti", "Cecilia", "David"),
            computers=(None, "medium", None, "medium"),
            rules=Rules(hand_size=6, manual_draw=False), computer_takeover="medium",
            match=MatchScore(to=2, games=(1,)), turn_clock=30, hints=True,
        )  # fmt: skip
        h = headless(TableList(tables=(friday,)), columns=100, rows=30)
        screen = h.screen()
        assert "Keskitasoinen botti (Vihreä)" in screen, screen
        assert "David (Vihreä, tietokone" in screen, screen
    finally:
        lang.use("en")


def test_a_replays_hands_keep_a_long_name_whole_where_it_takes_no_more_rows(tmp_path):
    """The replay cut every name to 12 characters: "Keskitasoin…: 2♥ 5♠ …" at 100 columns."""
    game, _ = play_game(4, 2, 9)
    names = ["Aino", "Keskitasoinen botti", "Cecilia", "David"]
    path = tmp_path / "sarja-1.json"
    path.write_text(record_json(game, names), encoding="utf-8")
    h = Headless(load(path), 100, 30)
    screen = h.screen()
    assert "Keskitasoinen botti:" in screen and "…" not in screen, screen
    assert not h.unfit(100, 30) and not h.unfit(80, 24)
