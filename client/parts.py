"""A part of the screen: a control that draws a pure function of render*.py at the size
its window gets, and the window that sizes itself to it.

prompt_toolkit's containers share the rows out by each child's `Dimension`, the way
ptpython's layout does: a part as tall as its lines says so (`Part`), a list that can
scroll says how few rows it can live with (`Part(least=...)`), and the log takes what
is left (a plain `Window` with a weight). Nothing here knows the terminal's size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.layout import Dimension, Window
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.mouse_events import MouseEvent
from prompt_toolkit.utils import get_cwidth

from .fit import Line, width_of

Draw = Callable[[int, int], list[Line]]
BIG = 10_000  # the height a region is drawn at to learn how many lines it wants


class Region(UIControl):
    """A part of the screen drawn by `draw(width, height)`, at the size it is given.

    `width(available)`, if given, is the width the part wants of what is available (the
    board's, say, or a label's own); otherwise its window takes the width its container
    gives it. `fits`
    says whether the last drawing fitted (tests check every region of every screen, so
    nothing is ever cut at the edge).

    `ticks`: a part that changes with time alone (the turn clocks). When the app redraws
    for a tick, nothing else having changed (`keep`), every other part shows the lines
    it drew last at the same size, without drawing them again."""

    def __init__(
        self,
        draw: Draw,
        focusable: bool = False,
        width: Callable[[int], int] | None = None,
        ticks: bool = False,
    ) -> None:
        self.draw = draw
        self.focusable = focusable
        self.width = width
        self.ticks = ticks
        self.keep = False  # a tick's redraw: the last lines still hold (see above)
        # The model changed since these lines were drawn: a tick that comes before the
        # redraw the change asked for must not keep them.
        self.stale = True
        self.lines: list[Line] = []
        self.size = (0, 0)
        self._cache: tuple[int, int, list[Line]] | None = None

    def wanted(self, width: int) -> int:
        """How many lines this region would draw at `width` (once per redraw)."""
        counter = get_app().render_counter
        if self.keep and self._cache is not None and self._cache[1] == width:
            return len(self._cache[2])
        if self._cache is None or self._cache[:2] != (counter, width):
            self._cache = (counter, width, self.draw(width, BIG))
        return len(self._cache[2])

    def preferred_width(self, max_available_width: int) -> int | None:
        return None if self.width is None else self.width(max_available_width)

    def create_content(self, width: int, height: int) -> UIContent:
        counter = get_app().render_counter
        cached = self._cache
        if self.keep and self.size == (width, height):
            lines = self.lines
        elif cached is not None and cached[:2] == (counter, width) and len(cached[2]) <= height:
            lines = cached[2]
        else:
            lines = self.draw(width, height)
        if not self.keep:
            self.stale = False
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


class Part(Window):
    """A region's window, as tall as the region's lines at the width it gets.

    With `least`, a part that can scroll (a list) gives up rows down to that many when
    the screen is short of them; without, it is never squeezed, so a part that does
    not fit shows up in the tests rather than as a cut line."""

    def __init__(self, region: Region, least: int | None = None) -> None:
        self.region = region
        self.least = least
        super().__init__(region, wrap_lines=False)

    def preferred_width(self, max_available_width: int) -> Dimension:
        """A region that wants a width of what is available (the board) gets exactly
        that, and the rest goes to its neighbours."""
        if self.region.width is None:
            return super().preferred_width(max_available_width)
        return Dimension.exact(self.region.width(max_available_width))

    def preferred_height(self, width: int, max_available_height: int) -> Dimension:
        lines = self.region.wanted(width)
        if self.least is None:
            return Dimension.exact(lines)
        return Dimension(min=min(self.least, lines), preferred=lines, max=lines)


def rows(
    region: Region, height: int | Dimension | None = None, width: int | Dimension | None = None
) -> Window:
    """A region's window of a given height (an exact number, or a share of what is left:
    a `Dimension`), or, without one, as tall as its container makes it."""
    return Window(
        region,
        height=height,
        width=width,
        wrap_lines=False,
        dont_extend_width=region.width is not None,
    )
