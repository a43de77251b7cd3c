"""The screen as prompt_toolkit containers that size themselves, the way ptpython's do:
one window per part (parts.py), the screen on show chosen by a `DynamicContainer`, the
overlays switched by `ConditionalContainer`s under `Condition` filters, text typed into
`TextArea`s.

Every part says how tall it is: a part as tall as its lines, a list that scrolls as
few as two rows when short of room, a fixed bar one row, the log whatever the others
leave (it would like LOG_ROWS). `HSplit` and `VSplit` share the rows and columns out by
those `Dimension`s; nothing here counts the terminal's rows. Everything the layout
shows is read from the model when it is drawn: the layout keeps no state of its own
but the text being typed (a name, a chat line, a table's name), and that goes to the
model through intents.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    DynamicContainer,
    HorizontalAlign,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.utils import get_cwidth
from prompt_toolkit.widgets import TextArea

from sarja.protocol.limits import MAX_NAME, MAX_TABLE_NAME, MAX_TEXT

from . import intents as ask
from . import render as r
from . import render_board as rb
from . import render_clock as rc
from . import render_game as rg
from . import render_lobby as rl
from . import render_standings as rs
from .fit import Line, width_of
from .keybar import KeyItem, keys_lines
from .model import Model, screen
from .offered import offered_bindings
from .parts import Draw, Part, Region, rows
from .typed import typed
from .words import connect as connect_words
from .words import lobby as lobby_words
from .words import standings as standing_words
from .words import table as table_words

LOG_ROWS = 5  # the log's share before a long list of tables takes more
SHARE = 10  # the weight of what takes the room left: the log
LIST_LEAST = 2  # the lobby's list, when short of rows: its header and the chosen table
NAME_NOTE_ROWS = 3  # under the name's box: a blank line, whether we are connected, a gap

Keys = Callable[[], list[KeyItem]]


class Rest(Window):
    """The window of a row's last part, given the columns the others leave at once:
    prompt_toolkit would otherwise hand them out to it one by one on every redraw."""

    def __init__(self, region: Region, least: int, taken: Callable[[int], int]) -> None:
        self.least, self.taken = least, taken
        super().__init__(region, wrap_lines=False)

    def preferred_width(self, max_available_width: int) -> Dimension:
        left = max_available_width - self.taken(max_available_width)
        return Dimension.exact(max(self.least, left))


class ScreenLayout:
    """Every screen's containers, and the text boxes, for one model."""

    def __init__(
        self, model: Model, do: Callable[[ask.Intent], None], size: Callable[[], Size]
    ) -> None:
        """`size()` is the terminal's size (asked of the app's own output, never of
        whichever app prompt_toolkit thinks is current): too small a terminal gets a
        message instead of the screen."""
        self.model = model
        self.do = do
        m = model
        self.regions: list[Region] = []
        self.named: dict[str, Region] = {}  # a few parts by name, for tests and the bench
        self._windows: dict[Region, Window] = {}  # each region's window, for the focus
        self._text_boxes()

        # ----- conditions ------------------------------------------------------------
        def big() -> bool:
            now = size()
            return now.columns >= r.MIN_WIDTH and now.rows >= r.MIN_HEIGHT

        self.big = Condition(big)
        self.typing = Condition(lambda: isinstance(self.layout.current_control, BufferControl))

        # ----- help, a terminal too small, and every screen under the title ----------
        self.title = self._region(lambda w, h: [r.title(m, w)], focusable=True)
        self.help = self._region(lambda w, h: r.help_lines(m, w, h), focusable=True)
        self.small = self._region(lambda w, h: r.too_small(w, h), focusable=True)
        # Each screen is one HSplit, the title its first row; the help or the screen on
        # show is the one container under the root, so no other is weighed up at all.
        title = self._window(self.title, 1)
        screens = {
            name: HSplit([title, *rows()])
            for name, rows in (("connect", self._connect), ("name", self._name),
                               ("lobby", self._lobby), ("table", self._table),
                               ("game", self._game))
        }  # fmt: skip
        shown_help = self._window(self.help)
        shown = DynamicContainer(lambda: shown_help if m.overlay == "help" else screens[screen(m)])
        self.root = HSplit([
            ConditionalContainer(self._window(self.small), filter=~self.big),
            ConditionalContainer(shown, filter=self.big),
        ])  # fmt: skip
        self.layout = Layout(self.root, focused_element=self.title_window())

    def title_window(self) -> Window:
        return self._windows[self.title]

    # ----- building blocks ------------------------------------------------------------

    def _region(
        self,
        draw: Draw,
        focusable: bool = False,
        name: str = "",
        width: Callable[[int], int] | None = None,
    ) -> Region:
        made = Region(draw, focusable, width, ticks=name == "clock")
        self.regions.append(made)
        if name:
            self.named[name] = made
        return made

    def _part(self, part: Draw | Region, least: int | None = None) -> Part:
        """A part as tall as its lines (a list: at least `least` rows)."""
        made = part if isinstance(part, Region) else self._region(part)
        built = self._windows[made] = Part(made, least)
        return built

    def _window(
        self,
        part: Draw | Region,
        height: int | Dimension | None = None,
        width: int | Dimension | None = None,
    ) -> Window:
        """A part of a fixed size, or as big as its container makes it."""
        made = part if isinstance(part, Region) else self._region(part)
        built = self._windows[made] = rows(made, height, width)
        return built

    def _rest(self, draw: Draw, least: int, taken: Callable[[int], int]) -> Window:
        """A row's last part: as wide as the parts before it leave (`taken` of the width
        the row has), at least `least`."""
        made = self._region(draw)
        built = self._windows[made] = Rest(made, least, taken)
        return built

    def _text(self, style: str, text: Callable[[], str]) -> Window:
        """A label on one row, as wide as its text, read as it is drawn: F in the lobby
        switches the language after the layout is built."""
        made = self._region(lambda w, h: [[(style, text())]], width=lambda _: get_cwidth(text()))
        return self._window(made, 1)

    def _status(self) -> HSplit:
        """The status line above the keys, or the chat box in its place."""
        m = self.model
        chatting = Condition(lambda: m.overlay == "chat")
        say = VSplit([
            self._text("class:prompt", lambda: connect_words.SAY_PROMPT),
            self.chat_box,
            self._window(self._chat_count, 1, 10),
        ], height=1)  # fmt: skip
        return HSplit([
            ConditionalContainer(say, filter=chatting),
            ConditionalContainer(self._part(lambda w, h: r.status_lines(m, w)), filter=~chatting),
        ])  # fmt: skip

    def _footer(self, keys: Keys, most: int = 1) -> Window:
        """The keys on one line, or on as many as `most` when one does not hold them."""
        m = self.model

        def draw(w: int, h: int) -> list[Line]:
            # A connection closed for good leaves one thing to do; a chat line being
            # written has the keys.
            shown = (connect_words.closed_keys() if m.link == "closed"
                     else connect_words.chat_keys() if m.overlay == "chat" else keys())  # fmt: skip
            return keys_lines(shown, w, most)

        return self._window(draw, 1) if most == 1 else self._part(draw)

    def _bottom(self, keys: Keys, most: int = 1) -> list[AnyContainer]:
        """What the screens but the game's end with: the status line above the keys."""
        return [self._status(), self._footer(keys, most)]

    def _log(self) -> Window:
        """The log, in the rows the other parts leave."""
        m = self.model
        # Its weight has it served first, up to LOG_ROWS, before a list that scrolls;
        # the others have no room to give or take.
        share = Dimension(min=0, preferred=LOG_ROWS, weight=SHARE)
        return self._window(lambda w, h: r.log_lines(m, w, h), share)

    # ----- the screens -----------------------------------------------------------------

    def _connect(self) -> list[AnyContainer]:
        m = self.model
        return [
            self._window(lambda w, h: r.connect_lines(m, w, h)),
            self._footer(connect_words.connect_keys),
        ]  # fmt: skip

    def _name(self) -> list[AnyContainer]:
        """The question and the name's box, in the middle of what the status leaves."""
        m = self.model
        box = VSplit(
            [self._text("class:prompt", lambda: connect_words.NAME_PROMPT), self.name_box],
            height=1,
            align=HorizontalAlign.CENTER,
        )
        return [
            Window(),
            self._part(lambda w, h: r.name_top(m, w, h)),
            box,
            self._window(lambda w, h: r.name_bottom(m, w, h), NAME_NOTE_ROWS),
            Window(),
            *self._bottom(connect_words.name_keys),
        ]  # fmt: skip

    def _lobby(self) -> list[AnyContainer]:
        m = self.model
        creating = Condition(lambda: m.overlay == "create")
        label = self._region(lambda w, h: [[("class:selected" if m.form.field == 0 else "",
                                             rl.form_label(m))]],
                             width=lambda _: len(rl.form_label(m)))  # fmt: skip
        form = HSplit([
            Window(height=1),
            self._text("class:label", lambda: lobby_words.NEW_TABLE),
            VSplit([self._window(label, 1), self.form_box, Window()], height=1),
            self._part(lambda w, h: rl.form_lines(m, w)),
        ])  # fmt: skip
        tables = self._region(lambda w, h: rl.lobby_list(m, w, h, self.do))
        ranking = Condition(lambda: m.overlay == "standings")
        standings = self._region(lambda w, h: rs.standings_lines(m, w, h), name="standings")
        return [
            Window(height=1),
            ConditionalContainer(self._window(standings), filter=ranking),
            ConditionalContainer(HSplit([
                self._part(tables, least=LIST_LEAST),
                self._part(lambda w, h: rl.lobby_details(m, w)),
                ConditionalContainer(form, filter=creating),
                Window(height=1),
                self._log(),
            ]), filter=~ranking),
            *self._bottom(lambda: lobby_words.lobby_keys(m.overlay == "create", m.form.field == 0)
                          if m.overlay != "standings" else standing_words.standings_keys()
                          if not m.forget_asked else standing_words.asked_keys(), most=2),
        ]  # fmt: skip

    def _table(self) -> list[AnyContainer]:
        m = self.model
        return [
            self._part(lambda w, h: rl.table_lines(m, w, h, self.do)),
            Window(height=1),
            self._log(),
            *self._bottom(lambda: table_words.table_keys(rl.computer_key(m), rl.seated(m))),
        ]  # fmt: skip

    def _game(self) -> list[AnyContainer]:
        m = self.model
        choosing = Condition(lambda: m.overlay == "fives")
        board = self._region(lambda w, h: rb.board_lines(m, w, self.do, tall=self._tall()),
                             name="board", width=rb.board_width)  # fmt: skip
        hand = self._region(lambda w, h: rg.hand_lines(m, w, self.do), name="hand")
        clock = self._region(lambda w, h: rc.clock_lines(m, w), name="clock")
        rule: Line = [("class:rule", " │ ")]
        top = VSplit([
            HSplit([self._part(board), self._part(lambda w, h: [rb.cursor_line(m, w)])]),
            self._window(lambda w, h: [rule] * h, width=width_of(rule)),
            self._rest(lambda w, h: rg.panel_lines(m, w, h), rb.PANEL_MIN,
                       taken=lambda width: rb.board_width(width) + width_of(rule)),
        ])  # fmt: skip
        return [
            top,
            self._part(clock),  # no row while no clock runs
            self._part(hand),
            ConditionalContainer(self._part(lambda w, h: rg.fives_lines(m, w, self.do)),
                                 filter=choosing),  # fmt: skip
            self._log(),
            self._status(),
            self._window(lambda w, h: [rg.game_footer(m, w)], 1),
        ]  # fmt: skip

    def _tall(self) -> bool:
        """The terminal is high enough for the tall board (render_board.py)."""
        return get_app().output.get_size().rows >= rb.TALL_FROM

    # ----- the text boxes and the model ---------------------------------------------

    def _text_boxes(self) -> None:
        m = self.model
        self.name_box = TextArea(
            multiline=False, height=1, width=MAX_NAME + 2, style="class:input",
            accept_handler=self._accept(ask.Name),
        )  # fmt: skip
        self.name_box.buffer.set_document(Document(m.name, len(m.name)))
        # The remembered name is offered as it is: Enter keeps it, typing replaces it
        # (it may be the last person's on this machine), any other key edits it.
        self.name_offered = bool(m.name)
        self.chat_box = TextArea(
            multiline=False, height=1, style="class:input",
            accept_handler=self._accept(ask.Say),
        )  # fmt: skip
        self.form_box = TextArea(
            multiline=False, height=1, width=MAX_TABLE_NAME + 2, style="class:input",
            accept_handler=self._accept(lambda text: ask.Create()),
        )  # fmt: skip
        self.form_box.control.key_bindings = offered_bindings(
            lambda: m.form.offered, lambda: setattr(m.form, "offered", False)
        )
        self.form_box.buffer.on_text_changed += self._form_typed
        self.name_box.buffer.on_text_changed += lambda _buffer: self.do(ask.NameTyped())
        self.chat_box.buffer.on_text_changed += self._chat_typed

    def _accept(self, intent: Callable[[str], ask.Intent]) -> Callable[[Buffer], bool]:
        def accept(buffer: Buffer) -> bool:
            self.do(intent(buffer.text))
            return True  # keep the text: sync() clears what the model says is done

        return accept

    def _form_typed(self, buffer: Buffer) -> None:
        if self.model.overlay == "create" and buffer.text != self.model.form.name:
            self.do(ask.FormName(buffer.text))

    def _chat_typed(self, buffer: Buffer) -> None:
        """Keep the box to what can be sent: printable, at most MAX_TEXT characters."""
        text = typed(buffer.text)[:MAX_TEXT]
        if text != buffer.text:
            buffer.set_document(Document(text, min(buffer.cursor_position, len(text))))

    def _chat_count(self, width: int, height: int) -> list[Line]:
        n = len(self.chat_box.text)
        return [[("class:dim", f" {n}/{MAX_TEXT}" if n > MAX_TEXT - 40 else "")]]

    def tick(self) -> None:
        """The next redraw is for the clocks alone: every other part keeps its lines,
        but one whose change is not drawn yet (the redraw a message asked for comes
        after this tick)."""
        for region in self.regions:
            region.keep = not region.ticks and not region.stale

    def changed(self) -> None:
        """The model changed: the next redraw draws every part."""
        for region in self.regions:
            region.keep = False
            region.stale = True

    def sync(self) -> None:
        """Bring the text boxes and the focus in line with the model: after every intent
        and every message, so keys typed in one burst go where the screen says."""
        m = self.model
        if m.overlay != "create" and self.form_box.text:
            self.form_box.text = ""
        if m.overlay == "create" and self.form_box.text != m.form.name:
            self.form_box.buffer.set_document(Document(m.form.name, len(m.form.name)))
        if m.overlay != "chat" and self.chat_box.text:
            self.chat_box.text = ""
        target: Window | TextArea
        if not self.big():
            target = self._windows[self.small]
        elif m.overlay == "help":
            target = self._windows[self.help]
        elif screen(m) == "name":
            target = self.name_box
        elif m.overlay == "chat":
            target = self.chat_box
        elif m.overlay == "create" and m.form.field == 0:
            target = self.form_box
        else:
            target = self._windows[self.title]
        if not self.layout.has_focus(target):
            self.layout.focus(target)
