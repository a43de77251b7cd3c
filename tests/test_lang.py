"""The Finnish catalog and the choice of language.

The template (lang/sarja.pot) holds every sentence marked in the code, the Finnish
catalog translates each one (none fuzzy, every placeholder kept, Finnish plural forms),
and the shipped .mo is the .po compiled. The language comes from --lang, the settings
or the environment, and switching it puts every words/ constant into it.
"""

from __future__ import annotations

import io
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from sarja import lang
from sarja.client import cli
from sarja.client.settings import Settings
from sarja.client.words import game, help, lobby, refusals
from sarja.server.refusal import SERVER_CODES

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "lang" / "sarja.pot"
PO = ROOT / "lang" / "locale" / "fi" / "LC_MESSAGES" / "sarja.po"
MO = PO.with_suffix(".mo")
PLACE = re.compile(r"\{[^{}]*\}|%\([a-z]+\)s")
# Places the code fills that English leaves out and a language may use (words/game.py).
ADDED = {"{cell}: {card}": {"{name}"}}


@pytest.fixture(autouse=True)
def _english_after():
    yield
    lang.use("en")


def _read(path: Path) -> Catalog:
    with open(path, "rb") as f:
        return read_po(f, locale="fi" if path.suffix == ".po" else None)


def _ids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    return {m.id for m in catalog if m.id}


def test_the_template_holds_every_marked_sentence(tmp_path):
    """A sentence marked in the code but not extracted (or one extracted that the code
    no longer has) means `pybabel extract` was not run: docs/translating.md."""
    fresh = tmp_path / "sarja.pot"
    subprocess.run(
        [str(Path(sys.executable).parent / "pybabel"), "extract", "-F", "lang/babel.cfg",
         "-k", "N_", "-k", "ngettext:1,2", "-k", "pgettext:1c,2", "--no-location",
         "--sort-output", "--omit-header", "-o", str(fresh), "."],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    assert _ids(_read(fresh)) == _ids(_read(POT))


def test_every_sentence_has_a_finnish_translation_with_its_places():
    po, pot = _read(PO), _read(POT)
    assert "nplurals=2; plural=(n != 1)" in po.plural_forms
    for message in pot:
        if not message.id:
            continue
        fi = po.get(message.id, message.context)
        assert fi is not None, f"not in the Finnish catalog: {message.id!r}"
        assert not fi.fuzzy, f"fuzzy: {message.id!r}"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = fi.string if isinstance(fi.string, tuple) else (fi.string,)
        assert all(strings), f"untranslated: {message.id!r}"
        wanted = set(PLACE.findall(ids[-1]))
        extra = ADDED.get(ids[0], set())
        for text in strings:
            places = set(PLACE.findall(text))
            assert wanted <= places <= wanted | extra, f"places differ: {message.id!r} {text!r}"


def test_the_shipped_mo_is_the_po_compiled():
    """Run `pybabel compile -D sarja -d lang/locale` after editing the .po."""
    out = io.BytesIO()
    write_mo(out, _read(PO))
    assert MO.read_bytes() == out.getvalue()


def test_the_language_follows_the_environment_in_gettext_order():
    pick = lang.from_environment
    assert pick({}) == "en"
    assert pick({"LANG": "fi_FI.UTF-8"}) == "fi"
    assert pick({"LANG": "fi_FI.UTF-8", "LC_ALL": "C"}) == "en"
    assert pick({"LC_MESSAGES": "fi_FI", "LANG": "en_GB.UTF-8"}) == "fi"
    assert pick({"LANGUAGE": "sv:fi", "LANG": "en_US.UTF-8"}) == "fi"
    assert pick({"LANGUAGE": "de", "LANG": "fi_FI"}) == "en"


def test_lang_flag_wins_and_is_remembered_then_the_settings_then_the_environment(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("LANGUAGE", "fi")
    path = tmp_path / "client.json"
    assert cli.choose_language([], Settings(path)) == "fi"
    assert cli.choose_language(["--practice", "--lang", "en"], Settings(path)) == "en"
    assert Settings(path).language == "en"
    assert cli.choose_language([], Settings(path)) == "en"  # remembered over LANGUAGE
    assert cli.choose_language(["--lang=fi"], Settings(path)) == "fi"
    assert Settings(path).language == "fi"


def test_switching_puts_every_constant_into_the_language_and_back():
    assert game.PICK_FIRST.startswith("Pick a card")
    lang.use("fi")
    assert game.PICK_FIRST.startswith("Valitse ensin kortti")
    assert help.KEYS["help"] == "tämä ohje" and help.KEY_NAMES[" "] == "Välilyönti"
    assert lobby.FORM_LABELS["teams"] == "Joukkueet"  # dict keys stay as they are
    assert game.holding(1) == "Sinulla on 1 kortti." and game.holding(3).endswith("korttia.")
    lang.use("en")
    assert game.PICK_FIRST.startswith("Pick a card")
    assert help.KEYS["help"] == "this help" and help.KEY_NAMES[" "] == "Space"


def test_card_and_jack_names_in_finnish():
    from sarja.client.words.common import card_name

    lang.use("fi")
    assert [card_name(c) for c in ("7H", "TD", "AS", "KC", "QH", "JD")] == [
        "hertta 7", "ruutu 10", "pataässä", "ristikuningas", "herttarouva", "ruutujätkä",
    ]  # fmt: skip
    rules = " ".join(help.RULES)
    assert "kaksisilmäisiä jätkiä" in rules and "yksisilmäisiä" in rules
    lang.use("en")
    assert card_name("QH") == "queen of hearts"


def _rule_codes() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    text = text.split("## When a move is refused", 1)[1]
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))


def test_every_refusal_a_player_can_meet_has_finnish_words():
    codes = set(SERVER_CODES) | _rule_codes() | {"bad_card", "bad_cell", "bad_five"}
    assert codes - set(refusals.BY_CODE) == set()
    lang.use("fi")
    assert refusals.said("space_taken", "That space is taken.") == "Kohta on varattu."
    assert refusals.said("a_new_code", "Something new.") == "Something new."  # the fallback
    lang.use("en")
    said = "The 7♥ goes on I5 or D6, not there."
    assert refusals.said("wrong_space", said) == said  # in English, the server's own words


def test_each_refusal_shows_in_finnish_on_the_game_screen():
    """Every refusal by its code, as the player sees it on the game screen's status line:
    in Finnish, with no English word (the server's sentence stays English on the wire)."""
    from sarja.protocol.messages import Error

    from .client_helpers import SNAPSHOT, STARTED, WELCOME, Headless, render
    from .test_client_screens import english_words

    lang.use("fi")
    h = Headless()
    h.feed(WELCOME, STARTED, SNAPSHOT)
    for code, english in SERVER_CODES.items():
        h.feed(Error(code=code, message=english))
        screen, _ = render(h.client, 120, 40)
        finnish = refusals.BY_CODE[code]
        assert h.model.status == finnish and finnish[:30] in screen
        assert not english_words(h.model.status), (code, h.model.status)


def test_f_in_the_lobby_switches_the_language_redraws_and_is_remembered(tmp_path):
    from sarja.protocol.messages import TableList

    from .client_helpers import WELCOME, Headless, render

    h = Headless()
    h.client.settings = Settings(tmp_path / "client.json")
    h.feed(WELCOME, TableList(tables=()))
    assert "No tables yet" in render(h.client)[0]
    h.press("F")
    screen = render(h.client)[0]
    assert lang.language() == "fi" and h.model.language == "fi"
    assert "Ei vielä pöytiä" in screen and "Nyt suomeksi" in screen
    assert "F in English" in screen  # the footer says how to go back
    assert Settings(tmp_path / "client.json").language == "fi"
    h.press("F")
    assert "No tables yet" in render(h.client)[0]
    assert Settings(tmp_path / "client.json").language == "en"
    h.press("n", "F")  # in the new-table form's name, F is a letter
    assert lang.language() == "en" and h.model.overlay == "create"


def test_after_f_the_forms_title_and_the_chat_prompt_are_in_the_new_language(tmp_path):
    # " New table" and "Say: " were drawn as they were when the screen was built.
    from sarja.protocol.messages import TableList

    from .client_helpers import STARTED, WELCOME, Headless, render

    h = Headless()
    h.client.settings = Settings(tmp_path / "client.json")
    h.feed(WELCOME, TableList(tables=()))
    try:
        h.press("F", "n")
        screen = render(h.client)[0]
        assert "New table" not in screen and "Uusi pöytä" in screen, screen
        h.press("escape")
        h.feed(STARTED)
        h.press("c")
        screen = render(h.client)[0]
        assert "Say:" not in screen, screen
    finally:
        lang.use("en")


def _bot(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """sarja-bot, the real command (a port nothing listens on: it only complains)."""
    import os

    from .test_remote_bot import command

    environ = {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", **(env or {})}
    return subprocess.run(
        [*command("sarja-bot"), *args], capture_output=True, text=True, env=environ, timeout=60
    )


def test_sarja_bot_speaks_finnish_its_help_its_complaints_and_its_lines(tmp_path):
    """Its --help, an argument refused and a server it cannot reach, as the client
    chooses: --lang, else the environment (no client settings here: a fresh config
    home)."""
    home = {"XDG_CONFIG_HOME": str(tmp_path), "HOME": str(tmp_path)}
    shown = _bot("--help", env={"LANG": "fi_FI.UTF-8", **home}).stdout
    assert "Tietokonepelaaja" in shown and "kuinka hyvin se pelaa" in shown
    assert "how well it plays" not in shown
    refused = _bot("127.0.0.1:9", "--games", "0", "--lang", "fi", env=home).stderr
    assert "--games on vähintään 1" in refused
    with socket.socket() as s:  # a port just freed: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    unreachable = _bot(f"127.0.0.1:{port}", "--lang", "fi", env=home)
    assert unreachable.returncode == 1
    assert f"ei yhteyttä osoitteeseen 127.0.0.1:{port}" in unreachable.stderr
    assert "cannot reach" in _bot(f"127.0.0.1:{port}", env={"LANG": "C", **home}).stderr
    # --lang is not remembered: the settings are the player's, not the bot's.
    assert not list(tmp_path.rglob("client.json"))
    from sarja.client.bot import RemoteBot
    from sarja.client.words import bot as words

    lang.use("fi")
    bot = RemoteBot("127.0.0.1", port, "easy", "Easy bot")
    bot.played, bot.results["won"], bot.results["lost"] = 2, 1, 1
    assert bot.summary() == "pelattu 2: voittoja 1, tappioita 1, tasapelejä 0"
    assert words.game_result(1, "draw") == "peli 1: tasapeli"


def test_a_command_line_asks_for_its_language_before_it_is_parsed():
    assert lang.asked(["--practice", "--lang", "fi"]) == "fi"
    assert lang.asked(["--lang=en", "--lang", "fi"]) == "fi"  # the last one given
    assert lang.asked(["--lang", "sv"]) is None
    assert lang.asked(["--lang"]) is None


def test_each_finnish_word_of_the_glossary_is_the_catalogs():
    """docs/translating.md's Finnish words are the catalog's: each word in bold there is
    in a translation (inflected, as Finnish does: its stem), each example is said (a
    name standing for the place a name fills, a card as card_name says it), and the
    catalog says no other word for a glossary's."""
    text = (ROOT / "docs" / "translating.md").read_text(encoding="utf-8")
    section = text.split("## Finnish words", 1)[1].split("\n## ", 1)[0]
    finnish = " ".join(
        " ".join(m.string) if isinstance(m.string, tuple) else m.string for m in _read(PO) if m.id
    ).lower()
    words = re.findall(r"\*\*([^*]+)\*\*", " ".join(section.split()))
    assert len(words) > 40, words
    # A word of the glossary is written in its base form; the catalog may inflect it
    # ("merkkiä", "jätkiä"), so its stem, all but its last letter or two, must be there.
    missing = [w for w in words if not all(part[: max(3, len(part) - 2)] in finnish
                                           for part in w.lower().split())]  # fmt: skip
    assert not missing, f"words of the glossary not in the catalog: {missing}"
    examples = re.findall(r'"([^"]+)"', " ".join(section.split()))
    from sarja.client.words.common import card_name
    from sarja.protocol.cards import CARD_CODES

    lang.use("fi")
    said = re.sub(r"\{\w+\}", "aino", finnish) + " ".join(map(card_name, CARD_CODES))
    strays = [e for e in examples if e.lower() not in said]
    assert not strays, f"examples of the glossary the catalog does not say: {strays}"
    # Nor does the catalog say another word for one of the glossary's: a side was once
    # "puoli" in one sentence, where every other says "joukkue" (a team too, never "tiimi").
    for other in ("puoli", "tiimi"):
        assert not re.search(rf"\b{other}", finnish), other
    # The rules for players say it as the client does (they once said "tiimi" throughout).
    rules = (ROOT / "docs" / "rules.fi.md").read_text(encoding="utf-8").lower()
    assert "tiimi" not in rules


@pytest.mark.parametrize(
    ("english", "not_said", "said"),
    [
        # "uudelleen liittyäksesi" is "to join again", not "again, to join it"
        ("click a table to choose it, again to join it", "uudelleen", "toisen kerran"),
        # a usage error states what must be, as the catalog's others do ("on oltava")
        ("--hours must be from 1 to {most}, and --top at least 1", "on 1", "on oltava 1"),
        # --help's description speaks to the host in the imperative, both sentences
        ("Write a finished game the server keeps as a JSON game record (docs/records.md)."
         " With no table, list the games kept.", "luettelee", "luettele"),
    ],
)  # fmt: skip
def test_finnish_says_what_the_english_does(english, not_said, said):
    catalog = read_po(PO.open(encoding="utf-8"))
    finnish = catalog[english].string
    assert not_said not in finnish and said in finnish, finnish


def test_the_standings_heads_and_teammates_read_right_in_finnish():
    """The host's table's heads are lowercase, the client's capitalised: the one head
    they share ("s/move") was "Aika" in both. And a count of wins was "{wins} voitettu"
    (no partitive after 0 or 2…): "voittoja {wins}" reads right for every count."""
    from sarja.client.words import standings as standing_words
    from sarja.protocol.standing import Standing
    from sarja.server.standings_cli import format_lines
    from sarja.server.standings_read import Line

    lang.use("fi")
    s = Standing(name="Aino", games=2, wins=1, losses=1, draws=0, sequences=1,
                 removed=0, exchanged=0, move_ms=900, rating=5)  # fmt: skip
    head = format_lines([Line("ab" * 20, s, 0.5)])[0]
    # lowercase words, but for the wins, losses and draws' letters the legend explains
    assert all(h == h.lower() or h in "VHT" for h in head.split()) and " aika " in head, head
    assert all(h[0].isupper() for h in standing_words.HEAD), standing_words.HEAD
    assert "Aika" in standing_words.HEAD
    host = lang.ngettext("{first} & {second}: {n} game, {wins} won",
                         "{first} & {second}: {n} games, {wins} won", 1)  # fmt: skip
    for wins in (0, 1, 2):
        line = standing_words.pair("Aino", "Bertil", 3, wins)
        assert line == f"Aino & Bertil: 3 peliä yhdessä, voittoja {wins}", line
        line = host.format(first="A", second="B", n=1, wins=wins)
        assert line == f"A & B: 1 peli, voittoja {wins}", line
