"""The terminal front end, keyboard and speech: one command layer, two presentations.

- :mod:`fivecrowns.ui.keymap`: the keymap tables (action -> keys -> help text) of
  both games and the lobby; help, the Escape menu, docs/keys.md and rebinding all read them.
- :mod:`fivecrowns.ui.commands`: what every command layer shares (key dispatch, speech,
  the action menu and help list, messages, quitting).
- :mod:`fivecrowns.ui.session`: the main game's command layer (keys -> actions ->
  moves -> events -> announcements), hot seat, autosave; a package of parts, with one
  mode for local play, a network seat and watching.
- :mod:`fivecrowns.ui.solitaire`: Five Crowns Solitaire's command layer and screen.
- :mod:`fivecrowns.ui.app`, :mod:`fivecrowns.ui.screen`, :mod:`fivecrowns.ui.model`: the
  prompt_toolkit presentations (full screen and line mode) and the full-screen table.
- :mod:`fivecrowns.ui.launch`: starting a local game (speech, the autosave, resuming).
- :mod:`fivecrowns.ui.lobby`, :mod:`fivecrowns.ui.join_keys`: ``fivecrowns join --keys``,
  its lobby and the session at a network table; :mod:`fivecrowns.ui.join_line`: the
  line-by-line ``fivecrowns join``.
- :mod:`fivecrowns.ui.settings`: the game's sections of the settings file.

The words they speak about the game are in :mod:`fivecrowns.words`, the files they keep in
:mod:`fivecrowns.storage`. Nothing below this layer imports it (docs/design.md).
"""

from __future__ import annotations

__all__: list[str] = []
