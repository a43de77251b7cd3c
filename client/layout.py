"""The screen as prompt_toolkit containers: one `Window` per part, screens switched by
`ConditionalContainer`s, text typed into `TextArea`s.

Each part is a `Region`: a control that draws a pure function of render.py at the size
its window gets, and passes a click to the mouse handler on the fragment under it.
Everything the layout shows is read from the model when it is drawn, through
`Condition`s and the regions' functions: the layout keeps no state of its own but the
text being typed (a name, a chat line, a table's name), and that goes to the model
through intents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.layout.controls import BufferControl, UIContent, UIControl
from prompt_toolkit.mouse_events import MouseEvent
from prompt_toolkit.utils import get_cwidth
from prompt_toolkit.widgets import TextArea

from sarja.protocol.limits import MAX_NAME, MAX_TABLE_NAME, MAX_TEXT

from . import intents as ask
from . import render as r
from . import render_board as rb
from . import render_game as rg
from . import render_lobby as rl
from .fit import Line, width_of
from .model import Model, screen
from .typed import typed
from .words import connect as connect_words
from .words import lobby as lobby_words
from .words import table as table_words

Draw = Callable[[int, int], list[Line]]
BIG = 10_000  # the height a region is drawn at to learn how many lines it wants
FORM_ROWS = 10  # the new-table form: a blank line, its title, the name, seven fields


class Region(UIControl):
    """A part of the screen drawn by `draw(width, height)`, at the size it is given.

    `fits` says whether the last drawing fitted (tests check every region of every
    screen, so nothing is ever cut at the edge)."""

    def __init__(self, draw: Draw, focusable: bool = False) -> None:
        self.draw = draw
        self.focusable = focusable
        self.lines: list[Line] = []
        self.size = (0, 0)
        self._cache: tuple[int, int, list[Line]] | None = None

    def wanted(self, width: int) -> int:
        """How many lines this region would draw at `width` (once per redraw)."""
        counter = get_app().render_counter
        if self._cache is None or self._cache[:2] != (counter, width):
            self._cache = (counter, width, self.draw(width, BIG))
        return len(self._cache[2])

    def create_content(self, width: int, height: int) -> UIContent:
        counter = get_app().render_counter
        cached = self._cache
        if cached is not None and cached[:2] == (counter, width) and len(cached[2]) <= height:
            lines = cached[2]
        else:
            lines = self.draw(width, height)
        self.lines, self.size = lines, (width, height)
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    @property
    def fits(self) -> bool:
        """Whether the last drawing fitted its window (worked out only when asked)."""
        width, height = self.size
        lines = self.lines
        return len(lines) <= height and all(width_of(line) <= width for line in lines)

    def mouse_handler(self, mouse_event: MouseEvent) -> Any:
        """Hand the click to the mouse handler on the fragment under it, if any."""
        x, y = mouse_event.position.x, mouse_event.position.y
        if not 0 <= y < len(self.lines):
            return NotImplemented
        column = 0
        for fragment in self.lines[y]:
            width = get_cwidth(fragment[1])
            if column <= x < column + width:
                return fragment[2](mouse_event) if len(fragment) > 2 else NotImplemented
            column += width
        return NotImplemented

    def is_focusable(self) -> bool:
        return self.focusable


class ScreenLayout:
    """Every screen's containers, and the text boxes, for one model.

    Every part has an exact height, and the log takes the rows that are left: the
    layout then has no space to share out (which would cost time on each redraw), and
    nothing is ever squeezed or cut."""

    def __init__(
        self, model: Model, do: Callable[[ask.Intent], None], size: Callable[[], Size]
    ) -> None:
        """`size()` is the terminal's size (asked of the app's own output, never of
        whichever app prompt_toolkit thinks is current)."""
        self.model = model
        self.do = do
        m = model
        self.regions: list[Region] = []
        self.named: dict[str, Region] = {}  # a few parts by name, for tests and the bench
        self._windows: dict[Region, Window] = {}  # each region's window, for the focus

        def columns() -> int:
            return size().columns

        def rows() -> int:
            return size().rows

        def region(draw: Draw, focusable: bool = False, name: str = "") -> Region:
            made = Region(draw, focusable)
            self.regions.append(made)
            if name:
                self.named[name] = made
            return made

        def window(
            part: Draw | Region,
            height: Callable[[], int] | int,
            width: Callable[[], int] | int | None = None,
        ) -> Window:
            made = part if isinstance(part, Region) else region(part)
            built = self._windows[made] = Window(
                made,
                height=_exact(height),
                width=None if width is None else _exact(width),
                wrap_lines=False,
            )
            return built

        def lines_of(made: Region, most: Callable[[], int]) -> Callable[[], int]:
            """As many rows as the region's lines, at most `most()`."""
            return lambda: max(0, min(made.wanted(columns()), most()))

        # ----- the text boxes --------------------------------------------------------
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
        self.form_box.buffer.on_text_changed += self._form_typed
        self.chat_box.buffer.on_text_changed += self._chat_typed

        # ----- conditions ------------------------------------------------------------
        self.big = Condition(lambda: columns() >= r.MIN_WIDTH and rows() >= r.MIN_HEIGHT)
        self.helping = Condition(lambda: m.overlay == "help")

        def on(name: str) -> Filter:
            return Condition(lambda: screen(m) == name) & ~self.helping

        chatting = Condition(lambda: m.overlay == "chat")
        creating = Condition(lambda: m.overlay == "create")
        choosing = Condition(lambda: m.overlay == "fives")
        self.typing = Condition(lambda: isinstance(self.layout.current_control, BufferControl))

        # ----- the parts every screen has --------------------------------------------
        self.title = region(lambda w, h: [r.title(m, w)], focusable=True)
        status = region(lambda w, h: r.status_lines(m, w))
        status_rows = lines_of(status, lambda: r.STATUS_ROWS)

        def status_height() -> int:
            return 1 if m.overlay == "chat" else status_rows()

        say = VSplit(
            [window(lambda w, h: [[("class:prompt", connect_words.SAY_PROMPT)]], 1, 6),
             self.chat_box,
             window(self._chat_count, 1, 10)],
            height=1,
        )  # fmt: skip
        status_row = HSplit([
            ConditionalContainer(say, filter=chatting),
            ConditionalContainer(window(status, status_rows), filter=~chatting),
        ], height=_exact(status_height))  # fmt: skip

        def footer(keys: Callable[[], list[tuple[str, str]]]) -> Window:
            # A connection closed for good leaves one thing to do.
            return window(lambda w, h: [r.keys_line(
                connect_words.closed_keys() if m.link == "closed" else keys(), w)], 1)  # fmt: skip

        def log(*others: Callable[[], int]) -> Window:
            """The log, in the rows the title, the `others`, the status and the keys
            leave."""

            def rest() -> int:
                return rows() - 2 - status_height() - sum(o() for o in others)

            return window(lambda w, h: r.log_lines(m, w, h), rest)

        # ----- connecting and the name -----------------------------------------------
        connect = HSplit([
            window(lambda w, h: r.connect_lines(m, w, h), lambda: rows() - 2),
            footer(lambda: connect_words.connect_keys()),
        ])  # fmt: skip
        name_row = VSplit([
            Window(width=_exact(lambda: (columns() - 32) // 2)),
            window(lambda w, h: [[("class:prompt", connect_words.NAME_PROMPT)]], 1, 6),
            self.name_box,
            Window(),
        ], height=1)  # fmt: skip

        def name_top_rows() -> int:
            return (rows() - 6 - status_height()) // 2 + 2

        name = HSplit([
            window(lambda w, h: r.name_top(m, w, h), name_top_rows),
            name_row,
            window(lambda w, h: r.name_bottom(m, w, h), 3),
            Window(height=_exact(lambda: rows() - 6 - status_height() - name_top_rows())),
            status_row,
            footer(lambda: connect_words.name_keys()),
        ])  # fmt: skip

        # ----- the lobby ---------------------------------------------------------------
        tables = region(lambda w, h: rl.lobby_list(m, w, h, self.do))
        tables_rows = lines_of(tables, lambda: max(2, rows() - 13 - form_rows()))

        def form_rows() -> int:
            return FORM_ROWS if m.overlay == "create" else 0

        details = region(lambda w, h: rl.lobby_details(m, w))
        details_rows = lines_of(details, lambda: rl.DETAIL_ROWS)

        form_label = region(lambda w, h: [[("class:selected" if m.form.field == 0 else "",
                                            rl.form_label(m))]])  # fmt: skip
        form = HSplit([
            Window(height=1),
            window(lambda w, h: [[("class:label", lobby_words.NEW_TABLE)]], 1),
            VSplit([window(form_label, 1, len(rl.form_label(m))), self.form_box, Window()],
                   height=1),
            window(lambda w, h: rl.form_lines(m, w), FORM_ROWS - 3),
        ], height=FORM_ROWS)  # fmt: skip
        lobby = HSplit([
            Window(height=1),
            window(tables, tables_rows),
            window(details, details_rows),
            ConditionalContainer(form, filter=creating),
            Window(height=1),
            log(lambda: 2, tables_rows, details_rows, form_rows),
            status_row,
            footer(lambda: lobby_words.lobby_keys(m.overlay == "create")),
        ])  # fmt: skip

        # ----- the waiting room ----------------------------------------------------------
        seats = region(lambda w, h: rl.table_lines(m, w, h, self.do))
        seats_rows = lines_of(seats, lambda: rows() - 6)
        table = HSplit([
            window(seats, seats_rows),
            Window(height=1),
            log(seats_rows, lambda: 1),
            status_row,
            footer(lambda: table_words.table_keys()),
        ])  # fmt: skip

        # ----- the game -------------------------------------------------------------------
        def board_w() -> int:
            return rb.board_width(columns())

        board = region(lambda w, h: rb.board_lines(m, columns(), self.do), name="board")
        top = VSplit([
            HSplit([
                window(board, rb.BOARD_ROWS, board_w),
                window(lambda w, h: [rb.cursor_line(m, w)], 1, board_w),
            ]),
            window(lambda w, h: [[("class:rule", " │ ")] for _ in range(h)], rb.BOARD_ROWS + 1, 3),
            window(lambda w, h: rg.panel_lines(m, w, h), rb.BOARD_ROWS + 1,
                   lambda: columns() - board_w() - 3),
        ], height=rb.BOARD_ROWS + 1)  # fmt: skip
        hand = region(lambda w, h: rg.hand_lines(m, w, self.do), name="hand")
        hand_rows = lines_of(hand, lambda: rows() - 16)
        fives = region(lambda w, h: rg.fives_lines(m, w, self.do))
        fives_shown = lines_of(fives, lambda: rows() - 16 - hand_rows())

        def fives_rows() -> int:
            return fives_shown() if m.overlay == "fives" else 0

        game = HSplit([
            top,
            window(hand, hand_rows),
            ConditionalContainer(window(fives, fives_rows), filter=choosing),
            log(lambda: rb.BOARD_ROWS + 1, hand_rows, fives_rows),
            status_row,
            window(lambda w, h: [rg.game_footer(m, w)], 1),
        ])  # fmt: skip

        # ----- help, and a terminal too small ------------------------------------------
        self.help = region(lambda w, h: r.help_lines(m, w, h), focusable=True)
        self.small = region(lambda w, h: r.too_small(w, h), focusable=True)
        body: list[AnyContainer] = [
            ConditionalContainer(window(self.help, rows), filter=self.helping),
            ConditionalContainer(window(self.title, 1), filter=~self.helping),
            ConditionalContainer(connect, filter=on("connect")),
            ConditionalContainer(name, filter=on("name")),
            ConditionalContainer(lobby, filter=on("lobby")),
            ConditionalContainer(table, filter=on("table")),
            ConditionalContainer(game, filter=on("game")),
        ]
        self.root = HSplit([
            ConditionalContainer(window(self.small, rows), filter=~self.big),
            ConditionalContainer(HSplit(body), filter=self.big),
        ])  # fmt: skip
        self.layout = Layout(self.root, focused_element=self.title_window())

    def title_window(self) -> Window:
        return self._windows[self.title]

    # ----- the text boxes and the model ---------------------------------------------

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


def _exact(size: Callable[[], int] | int) -> Callable[[], Dimension]:
    if isinstance(size, int):
        return lambda: Dimension.exact(size)
    return lambda: Dimension.exact(max(0, size()))
