"""Your turn, noticed: a bell and the window's title when it becomes your turn or your
draw waits, for a player who has turned them on (`b`; off at first, remembered in the
settings). Only a change rings: the bell goes once per turn, not at every redraw."""

from __future__ import annotations

from prompt_toolkit.output import Output

from sarja.lang import N_, _

from .model import Model

TITLES = {"turn": N_("Sarja: your turn"), "draw": N_("Sarja: your draw waits"), None: "Sarja"}


def waiting_on_us(model: Model) -> str | None:
    """ "turn" when it is our turn, "draw" when our manual draw waits, else None."""
    if model.replay is not None or not model.online:
        return None
    if model.my_turn:
        return "turn"
    return "draw" if model.draw_waiting else None


class Attention:
    """What was last told, so that only a change rings or retitles."""

    def __init__(self) -> None:
        self.told: str | None = None
        self.on = False

    def check(self, model: Model, output: Output) -> bool:
        """Ring and retitle if the state changed; True if it did anything."""
        now = waiting_on_us(model)
        if now == self.told and model.alerts == self.on:
            return False
        switched_off = self.on and not model.alerts
        rang = model.alerts and now is not None and now != self.told
        self.told, self.on = now, model.alerts
        if not model.alerts and not switched_off:
            return False
        if rang:
            output.bell()
        output.set_title(_(TITLES[now if model.alerts else None]))
        output.flush()
        return True
