"""The screens of a recorded 2×2 evening, in English and in Finnish: the lobby, the
new-table form, the waiting room, a game of a match with a turn clock, a clock that
runs out for a player who is there, the computer standing in for one who is not, the
match's end, the standings and the help. None may say what an evening's play found
wrong on them: a board space called "ruutu" (the suit ♦), a name glued to "pelaajan",
chips lettered from the English colours, words cut short, two colons in the game's end,
a present player told "until they return", a bot named twice, a bot partner left out of
the match's winners, a standings head no one explains.

The games are the rules engine's, turned into each seat's messages by the server's own
presenter (as tests/test_client_screens.py does), fed to the real client app.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from sarja import lang
from sarja.client import model as m
from sarja.client.words import standings as standing_words
from sarja.protocol.changes import Away
from sarja.protocol.messages import (
    MatchScore,
    Notice,
    Rules,
    Seat,
    ServerMessage,
    Standings,
    TableList,
    TableSummary,
    TableView,
    Update,
)
from sarja.protocol.standing import Standing
from sarja.server.engine import Arrangement, Game
from sarja.server.present import hand_message, hand_part, legal_message, snapshot, update

from .client_helpers import Headless
from .test_client_screens import choose, english_words, welcome

# Aino (us) and her sarja-bot partner sit Blue, Bertil and Daniel Green.
NAMES = ["Aino", "Bertil", "Medium bot", "Daniel"]
BOT_NAMES = {"en": "Medium bot", "fi": "Keskitasoinen botti"}  # sarja-bot's own, by language

# What the evening found on the screens, quoted from it: none may come back, in either
# language (a pattern: the words around the phrase that make it wrong).
NEVER = [
    r"[Pp]elaajan [A-ZÅÄÖ]",  # a name glued to "pelaajan"
    r"\b[A-ZÅÄÖ][a-zåäö]* kädessä:",  # a name left uninflected before "kädessä": "Aino kädessä"
    r"\b[A-ZÅÄÖ][a-zåäö]+n pöytä\b",  # a name inflected: "Ainon pöytä"
    r"\bruu(tuun|tua|tuja|dusta|dut|dun|duista)\b",  # "ruutu" for a board space
    r"\b(Kuol|Sarj|Häv|Voit|Taso)\b",  # standings heads cut or meaning the level
    r"\w…\s*\(",  # "Keskita… (": a word cut before its bracket
    r"\bPoisto \S",  # the discard pile reading as a jack's removal
    r"päiväkirja",
    r"oletus: medium\)",
    r"tietokoneet ovat aina\)",  # the word missing: "valmiita"
    r"(voitti|wins): ",  # "Peli päättyi: Sininen voitti: Aino": two colons
    r"\b(botti|bot) \((botti|bot)\b",  # "Keskitasoinen botti (botti, keskitasoinen)"
    r"No games in teams yet",  # team figures leaving out bots without saying so
    r"Ei vielä joukkuepelejä",
]
# Finnish screens letter the chips from the Finnish colours (Sininen S, Vihreä V,
# Punainen P): the English letters may not show there.
NEVER_FI = [r"[([][BGR][)\]]", r"\(B\)|\(G\)|\(R\)"]
# Said of a player whose clock ran out while they are at the table.
NOT_OF_ONE_HERE = ["until they return", "kunnes hän palaa"]


def said_wrong(text: str) -> list[str]:
    found = [p for p in NEVER if re.search(p, text)]
    # No word cut short below the title bar (whose items give way as designed): every
    # name this evening is short enough to be shown whole.
    body = "\n".join(text.splitlines()[1:])
    found += [f"cut: {m}" for m in re.findall(r"\S*[^\W\d_]…", body)]
    if lang.language() == "fi":
        found += [p for p in NEVER_FI if re.search(p, text)]
        found += [f"English: {w}" for w in sorted(english_words(text))]
    return found


class Evening:
    """One player's screens through the evening, each checked as it is drawn."""

    def __init__(self) -> None:
        self.h = Headless(m.Model(address="192.168.1.20:7474", name="Aino", named=True,
                                  link="online"))  # fmt: skip
        self.h.feed(welcome())
        self.screens: dict[str, str] = {}

    def look(self, what: str, columns: int = 80, rows: int = 24) -> str:
        text = self.h.screen(columns, rows)
        assert not self.h.unfit(columns, rows), f"{what}: a part does not fit\n{text}"
        wrong = said_wrong(text)
        assert not wrong, f"{what}: {wrong}\n{text}"
        self.screens[what] = text
        return text


def bot_name() -> str:
    return BOT_NAMES[lang.language()]


def table_view(started: bool, match: MatchScore, seats: tuple[Seat, ...]) -> TableView:
    return TableView(
        id="t1", name="Perjantai", players=4, teams=2, seats=seats, spectators=1,
        started=started, rules=Rules(hand_size=6, manual_draw=False), computer_takeover="medium",
        seat=0, hints=True, match=match, turn_clock=30, creator=True,
    )  # fmt: skip


def seats(bot: str | None, daniel_away: bool = False) -> tuple[Seat, ...]:
    return (
        Seat(name="Aino", ready=True, away=False),
        Seat(name="Bertil", ready=True, away=False),
        Seat(name=bot, ready=bot is not None, away=False, computer="medium" if bot else None,
             remote=bot is not None),
        Seat(name="Daniel", ready=True, away=daniel_away,
             computer="medium" if daniel_away else None),
    )  # fmt: skip


GOES_AWAY = 12  # the version after which Daniel (seat 3) drops


def game_stream(seed: int, names: list[str]) -> tuple[Game, list[list[ServerMessage]]]:
    """Seat 0's messages over a whole 2×2 game, grouped by move; Daniel (seat 3) goes
    away after GOES_AWAY."""
    rng = random.Random(seed)
    game = Game.new(Arrangement.of(4, 2), rng)
    away = [False] * 4
    groups: list[list[ServerMessage]] = [[snapshot("t1", 0, game, 0, names, away, None)]]
    held = hand_part(game, 0)
    version = 0
    while game.outcome is None:
        if version == GOES_AWAY:
            version += 1
            groups.append([update(version, game, (Away(seat=3),))])
        events = game.apply(game.turn, choose(game, rng))
        version += 1
        group: list[ServerMessage] = [update(version, game, tuple(events))]
        if game.outcome is None:
            part = hand_part(game, 0)
            if part != held:
                group.append(hand_message(version, part, None))
                held = part
            legal = legal_message(version, game, 0)
            if legal is not None:
                group.append(legal)
        groups.append(group)
    return game, groups


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_screens_of_a_2x2_evening_say_none_of_what_the_evening_found(language):
    lang.use(language)
    try:
        evening = Evening()
        h = evening.h
        bot = bot_name()
        names = ["Aino", "Bertil", bot, "Daniel"]
        # The match's second game: the side that wins it won the first too.
        game, groups = game_stream(21, names)
        assert game.outcome is not None and game.outcome.side is not None
        winner = game.outcome.side
        match = MatchScore(to=2, games=(winner,))

        # The lobby: the table's rules say hints are allowed, as its waiting room does.
        summary = TableSummary(
            id="t1", name="Perjantai", players=4, teams=2, seated=(None, "Bertil", bot, None),
            spectators=0, started=False, rules=Rules(hand_size=6, manual_draw=False),
            computer_takeover="medium", computers=(None, None, "medium", None), match=match,
            turn_clock=30, hints=True,
        )  # fmt: skip
        h.feed(TableList(tables=(summary,)))
        lobby = " ".join(evening.look("the lobby").split())
        assert lang._("hints on") in lobby

        # The form: it offers a name for the table, which typing replaces.
        h.press("n")
        offered = evening.look("the form")
        assert lang._("{player}'s table").format(player="Aino") in offered
        h.press(*"Perjantai")
        assert h.model.form.name == "Perjantai"
        h.press("f1")
        evening.look("the form's help")
        h.press("escape", "escape")

        # The waiting room: the bot's seat, named by its level, is not named twice.
        h.feed(table_view(False, match, seats(bot)))
        room = evening.look("the waiting room")
        assert bot in room

        # A game of the match, as Aino sees it; Daniel goes away a third of the way in.
        h.feed(table_view(True, match, seats(bot)))
        for i, group in enumerate(groups):
            h.feed(*group)
            if i == 2:
                evening.look("the game")
                # Bertil's clock runs out while he is at the table.
                h.feed(Notice(kind="takeover", name="Bertil", seat=1))
                clock = evening.look("a clock run out")
                for said in NOT_OF_ONE_HERE:
                    assert said not in clock, clock
                h.press("?")
                evening.look("the help, its rules")
                h.press("tab")
                evening.look("the help, its keys")
                h.press("escape")
            if isinstance(group[0], Update) and any(isinstance(c, Away) for c in group[0].changes):
                # Daniel drops: the computer stands in for him until he is back.
                h.feed(table_view(True, match, seats(bot, daniel_away=True)))
                h.feed(Notice(kind="takeover", name="Daniel", seat=3))
                away = evening.look("a stand-in")
                assert "Daniel" in away
        over = evening.look("the game's end")

        # The match's end: the bot leaves its seat as soon as the match is won; it is one
        # of the winners all the same.
        done = MatchScore(to=2, games=(winner, winner))
        h.feed(table_view(False, done, seats(None)))
        end = " ".join(evening.look("the match's end").split())
        for seat, name in enumerate(names):
            if seat % 2 == winner:
                assert name in end, (name, end)
        assert over

        # The standings: each head whole, what the short ones mean said, and that the
        # teammates' figures count people only.
        h.press("enter")  # to the waiting room
        h.feed(TableList(tables=(summary,)))
        row = Standing(name="Aino", games=3, wins=2, losses=1, draws=0, sequences=5,
                       removed=2, exchanged=1, move_ms=8_400, rating=215)  # fmt: skip
        computer = dataclasses.replace(row, name="Computer (medium)", computer="medium")
        standings = Standings(hours=12, evening=(row, computer), all_time=(row, computer),
                              pairs=(), you=row)  # fmt: skip
        h.model.table = None
        h.model.game = None
        h.press("t")
        h.feed(standings)
        shown = evening.look("the standings")
        legend = " ".join(shown.split())
        assert " ".join(standing_words.LEGEND.split())[:30] in legend, shown
        assert standing_words.NO_PAIRS in legend
        assert standing_words.computer("medium") in shown
        h.press("escape")
        evening.look("the lobby again")
        assert {"the game", "a clock run out", "a stand-in", "the standings"} <= set(
            evening.screens
        )
    finally:
        lang.use("en")
