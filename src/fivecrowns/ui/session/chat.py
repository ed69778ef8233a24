"""Chat at a network table: the slash key opens a line, typed and echoed key by key."""

from __future__ import annotations

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.ui.model import ListScreen
from fivecrowns.ui.session.base import SessionBase

__all__ = ["Chat"]

CHAT_OPEN = N_("Say to the table: type your line, then Enter to send or Escape to cancel.")
CHAT_PROMPT = N_("Say to the table: {text}")
CHAT_CANCELLED = N_("Nothing sent.")
CHAT_LOCAL = N_("Chat is for network tables: everyone here shares this keyboard.")
CHAT_EMPTY = N_("There is nothing to send: type a line first, or Escape to cancel.")
CHAT_LONGEST = 300


class Chat(SessionBase):
    """Typing a line to the table; the link sends it (a local table has no chat)."""

    def _do_chat(self, key: str) -> None:
        if getattr(self.link, "chat", None) is None:
            raise FiveCrownsError(_(CHAT_LOCAL))
        self.chat_line = ""
        self.list_state = None
        self.answer(_(CHAT_OPEN))

    def _chat_key(self, key: str) -> None:
        """A key while typing a chat line: characters, Backspace, Enter sends, Escape cancels."""
        assert self.chat_line is not None
        if key == "escape":
            self.chat_line = None
            self.answer(_(CHAT_CANCELLED))
        elif key == "c-m":
            text = " ".join(self.chat_line.split())
            if not text:
                self.refuse(_(CHAT_EMPTY))
                return
            self.chat_line = None
            send = getattr(self.link, "chat", None)
            if send is not None:
                send(text)  # everyone there, you too, hears it as "NAME says: ..."
        elif key in ("c-h", "backspace"):
            before, self.chat_line = self.chat_line, self.chat_line[:-1]
            self.echo_typing(before, self.chat_line)  # said and, in line mode, printed
        elif len(key) == 1 and key.isprintable() and len(self.chat_line) < CHAT_LONGEST:
            self.chat_line += key
            self.echo_typing(self.chat_line[:-1], self.chat_line)

    def overlay(self) -> ListScreen | None:
        if self.chat_line is not None:
            return ListScreen(_(CHAT_PROMPT).format(text=self.chat_line), (), 0)
        return super().overlay()
