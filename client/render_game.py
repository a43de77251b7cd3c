"""The game screen's parts but the board, drawn: the side panel, the hand (every hand
in a replay, every hand revealed at the end), the choice of fives and the footer. Pure
functions of the model and the part's size, as render.py's are.
"""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

from sarja.protocol.cards import ONE_EYED, TWO_EYED, card_label, cell_name
from sarja.protocol.limits import MAX_NAME

from . import intents as ask
from .facts import choice_options, computer_level, final_board, hand_over_seat, is_dead
from .fit import Line, column, first_fitting, shorten, width_of, wrap
from .keybar import KeyItem, keys_line
from .model import Model, Replay
from .render import Click, banner_style, clickable
from .render_match import current_match, outcome_lines
from .render_match import panel_lines as match_panel
from .styles import card_style, side_style
from .words import coach as coach_words
from .words import common
from .words import game as words
from .words import match as match_words
from .words.bot import says_its_level
from .words.common import fives_label, side_label
from .words.connect import chat_keys, closed_keys
from .words.game import result_text
from .words.log import last_parts


def named_bot(model: Model, seat: int) -> bool:
    """A bot (sarja-bot) in its own seat whose name says it is one ("Medium bot"): a
    "(computer)" after it says nothing more, and would cut the name ("Keskita…")."""
    table = model.table
    if table is None or not 0 <= seat < len(table.seats):
        return False
    s = table.seats[seat]
    return s.remote and s.computer is not None and says_its_level(s.name or "", s.computer)


def _player_entry(model: Model, seat: int, width: int, compact: bool) -> Line:
    g = model.game
    assert g is not None
    p = g.players[seat]
    turn = seat == g.turn and g.result is None
    mark = "▶" if turn else " "
    style = "class:turn" if turn else "class:dim" if p.away else ""
    if seat == g.seat and model.replay is None:
        style += " class:you"
    cards = str(p.held)
    if not compact:
        cards += words.cards_held(p.held)
    tags = ""
    if not compact:
        if seat == g.seat and model.replay is None:
            tags = words.YOU_TAG
        elif computer_level(model, seat) is not None and not named_bot(model, seat):
            tags = words.COMPUTER_TAG  # its own seat, or an away player's it plays for
        elif p.away:
            tags = words.AWAY_TAG
    room = width - 2 - len(cards) - 1  # the mark and its space, the gap before the count
    wide, bare = get_cwidth(p.name + tags), width - 2 - len(str(p.held)) - 1
    # The name and what it is matter more than "cards": the word goes where that keeps
    # the name whole (a name cut all the same keeps it, the count lined up with the rest)
    if wide > room and (wide <= bare or tags == words.COMPUTER_TAG):
        cards = str(p.held)
        room = bare
    name = shorten(p.name, max(1, room - len(tags))) + tags
    return [(style, f"{mark} {column(name, room)} {cards}")]


def _side_header(model: Model, side: int, width: int) -> Line:
    g = model.game
    assert g is not None
    done = len(g.sequences[side]) if side < len(g.sequences) else 0
    name = side_label(side)
    long, short, least = words.side_sequences(done, g.needed)
    return first_fitting(
        [
            [(side_style(side), name), ("", long)],
            [(side_style(side), name), ("", short)],
            [(side_style(side), common.SIDE_NAMES[side]), ("", least)],
        ],
        width,
    )


def panel_lines(model: Model, width: int, height: int) -> list[Line]:
    """Beside the board: the sides and their players, the piles, the last move, a
    waiting draw. Players go two or three to a line when one each would not fit."""
    g = model.game
    assert g is not None
    tail: list[Line] = match_panel(model, width)
    top = card_label(g.discard[-1]) if g.discard else "—"
    long, short = words.piles(top, g.draw_size)
    tail.append(first_fitting([[("", long)], [("", short)]], width))
    if model.draw_waiting and model.replay is None:
        tail += wrap([("class:myturn", words.YOUR_DRAW_WAITS)], width)
    last: list[Line] = []
    if g.last is not None:
        last = wrap([("class:dim", words.LAST), *last_parts(model, g, g.last)], width, indent=2)
    away = [p.name for p in g.players if p.away]
    for columns in range(1, 5):
        body: list[Line] = []
        entry_w = (width - (columns - 1) * 2) // columns
        if columns > 1 and entry_w < 8:
            break
        for side in range(g.sides):
            body.append(_side_header(model, side, width))
            seats = [s for s, p in enumerate(g.players) if p.side == side]
            for i in range(0, len(seats), columns):
                line: Line = []
                for j, seat in enumerate(seats[i : i + columns]):
                    if j:
                        line.append(("", "  "))
                    line += _player_entry(model, seat, entry_w, columns > 1)
                body.append(line)
        if columns > 1 and away:
            body += wrap([("class:dim", words.away(away))], width, indent=2)
        for extra in (last, []):
            if len(body) + len(tail) + len(extra) <= height:
                return body + tail + extra
    return body + tail  # too many to show: the tests catch this


def _card_item(model: Model, index: int, card: str) -> tuple[str, str]:
    """A card in the hand: its style, and the number key that picks it, the card and
    what it does."""
    label = card_label(card)
    dead = is_dead(model, card)
    if card in TWO_EYED:
        label += words.WILD
    elif card in ONE_EYED:
        label += words.REMOVE
    elif dead:
        label += words.DEAD
    style = "class:dead" if dead else card_style(card)
    if card == model.picked:
        style += " class:picked"
    return style, f"[{(index + 1) % 10}]{label}"


def hand_lines(model: Model, width: int, click: Click = None) -> list[Line]:
    """The hand, one item per card (the number key that picks it, the card, what it
    does), the new card marked; a waiting draw is an item too. Wrapped as needed."""
    g = model.game
    assert g is not None
    if model.replay is not None:
        return all_hands(model, width)
    if g.result is not None:
        return end_lines(model, width)
    if g.seat is None:
        return [[("class:dim", words.WATCHING_HANDS)]]
    items: list[Line] = []
    drawn_shown = False
    for i, card in enumerate(model.hand):
        item = [clickable(click, ask.Pick(i), *_card_item(model, i, card))]
        if card == g.drawn and not drawn_shown:
            drawn_shown = True
            item.append(clickable(click, ask.Pick(i), "class:new", words.NEW_CARD))
        items.append(item)
    if model.draw_waiting:
        items.insert(0, [clickable(click, ask.Draw(), "class:myturn", words.TAKE_YOUR_DRAW)])
    if g.exchanged:
        items.append([("class:dim", words.EXCHANGED)])
    lines: list[Line] = [[("class:label", words.HAND)]]
    for item in items:
        if width_of(lines[-1]) + 1 + width_of(item) > width:
            lines.append([("", "      ")])
        lines[-1] += [("", " "), *item]
    return lines


def all_hands(model: Model, width: int) -> list[Line]:
    """In a replay: every seat's hand, packed into columns."""
    r = model.replay
    g = model.game
    assert r is not None and g is not None
    step = r.step

    def hands(most: int) -> list[Line]:
        entries: list[Line] = []
        for seat, hand in enumerate(step.hands):
            p = g.players[seat]
            entry: Line = [(side_style(p.side), shorten(p.name, most)), ("", ":")]
            for card in hand:
                style = "class:dead" if card in step.dead[seat] else card_style(card)
                entry += [("", " "), (style, card_label(card))]
            if not hand:
                entry.append(("class:dim", words.NO_CARDS))
            entries.append(entry)
        return _pack(entries, width)

    # Whole names where they take no more rows than names cut to 12 characters.
    whole, cut = hands(MAX_NAME), hands(12)
    lines = whole if len(whole) <= len(cut) else cut
    if g.result is not None:
        lines.insert(0, _banner(model, width))
    return lines


def _pack(entries: list[Line], width: int) -> list[Line]:
    """Entries side by side in as many columns as fit, one per line if need be."""
    widest = max((width_of(e) for e in entries), default=0) + 3
    columns = max(1, (width - 1) // widest)
    lines: list[Line] = []
    for i in range(0, len(entries), columns):
        line: Line = [("", " ")]
        for j, entry in enumerate(entries[i : i + columns]):
            line += entry
            if j < columns - 1:
                line.append(("", " " * (widest - width_of(entry))))
        if width_of(line) > width:
            line = wrap(line, width)[0]
        lines.append(line)
    return lines


def _banner(model: Model, width: int) -> Line:
    g = model.game
    assert g is not None and g.result is not None
    return wrap(
        [(banner_style(g.result.side), words.GAME_OVER.format(result=result_text(g)))], width
    )[0]


def end_lines(model: Model, width: int) -> list[Line]:
    """Every hand revealed, and the sequences that won."""
    g = model.game
    assert g is not None and g.result is not None
    out = g.result
    lines: list[Line] = [_banner(model, width)]
    if out.side is not None:
        spans = fives_label(g.sequences[out.side])
        lines += wrap([("", words.WINNING.format(spans=spans))], width, 3)
    lines += outcome_lines(model, width)

    def hands(most: int) -> list[Line]:
        entries: list[Line] = []
        for seat, hand in enumerate(out.hands):
            p = g.players[seat] if seat < len(g.players) else None
            name = p.name if p is not None else words.seat_name(seat)
            style = side_style(p.side) if p is not None else ""
            entry: Line = [(style, shorten(name, most)), ("", words.HELD)]
            for card in hand:
                entry += [("", " "), (card_style(card), card_label(card))]
            if not hand:
                entry.append(("class:dim", words.NO_CARDS))
            entries.append(entry)
        return _pack(entries, width)

    # Whole names where they take no more rows than names cut to 16 characters.
    whole, cut = hands(MAX_NAME), hands(16)
    return lines + (whole if len(whole) <= len(cut) else cut)


def fives_lines(model: Model, width: int, click: Click = None) -> list[Line]:
    cell = model.fives_cell
    if cell is None:
        return []
    options = choice_options(model, cell)
    lines = wrap([("class:ask", words.WHICH_FIVE.format(cell=cell_name(cell)))], width)
    for i, option in enumerate(options):
        spans = fives_label(option)
        mark = "▶" if i == model.fives_index else " "
        style = "class:selected" if i == model.fives_index else ""
        lines.append([clickable(click, ask.FivesPick(i), style, f"  {mark} {i + 1}) {spans}")])
    return lines


def game_footer(model: Model, width: int) -> Line:
    """The game's footer: its keys, led by a waiting draw in the turn's colours (a draw
    waits only so long once the next player may move: docs/rules.md)."""
    if model.link == "closed":  # a connection closed for good leaves one thing to do
        return keys_line(closed_keys(), width)
    if model.overlay == "chat":  # the chat line being written has the keys
        return keys_line(chat_keys(), width)
    if model.overlay in ("quit", "leave"):  # so has the question asked
        return keys_line(words.question_keys(model.overlay == "leave"), width)
    keys = game_keys(model)
    if not (model.draw_waiting and model.replay is None and model.overlay != "fives"):
        return keys_line(keys, width)
    banner: Line = [("class:myturn", words.DRAW_BANNER)]
    rest = [k for k in keys if k != words.DRAW_KEY]
    return banner + keys_line(rest, max(1, width - width_of(banner)))


def _coach_keys(replay: Replay) -> list[KeyItem]:
    """The replay's coach on the bar: `a` while there is a record to analyse, `m M` once
    the analysis found mistakes to step to, nothing while it runs or found none."""
    analysis = replay.analysis
    if analysis is None:
        return [coach_words.ANALYSE_KEY] if replay.record is not None else []
    if analysis.finished and analysis.marks:
        return [coach_words.MISTAKE_KEYS]
    return []


def game_keys(model: Model) -> list[KeyItem]:
    g = model.game
    assert g is not None
    if model.replay is not None:
        replay_keys = list(words.REPLAY_KEYS)
        return [*replay_keys[:3], *_coach_keys(model.replay), *replay_keys[3:]]
    if model.overlay == "fives":
        return words.FIVES_KEYS
    if final_board(model):  # a spectator's too: Enter shows the waiting room
        return words.FINAL_KEYS
    if g.seat is None:
        return words.WATCHING_KEYS
    if g.result is not None:
        match = current_match(model)
        if match is not None:  # `r`: ready for the match's next game, or a new match
            key = match_words.MATCH_KEY if match.over else match_words.NEXT_KEY
            return [key, *words.ENDED_KEYS[1:]]
        return words.ENDED_KEYS
    keys = list(words.PLAY_KEYS)
    if model.draw_waiting:
        keys.append(words.DRAW_KEY)
    if g.dead:
        keys.append(words.DEAD_KEY)
    if g.legal == ("pass",):
        keys.append(words.PASS_KEY)
    stands_in = model.table is not None and model.table.computer_takeover
    if hand_over_seat(model) is not None and not stands_in:  # it would take the seat itself
        keys.append(words.HAND_OVER_KEY)
    hints = model.practice is not None or (model.table is not None and model.table.hints)
    if hints and model.my_turn:
        keys.append(coach_words.HINT_KEY)
    return [*keys, *words.LAST_KEYS]
