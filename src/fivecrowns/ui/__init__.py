"""The keyboard and speech front end: one command layer, two presentations.

- :mod:`fivecrowns.ui.keymap`: the keymap tables (action -> keys -> help text) of
  both games; help, the Escape menu, docs/keys.md and rebinding all read them.
- :mod:`fivecrowns.ui.commands`: what both games' command layers share (key
  dispatch, speech, the action menu and help list, messages, quitting).
- :mod:`fivecrowns.ui.session`: the main game's command layer (keys -> actions ->
  moves -> events -> announcements), hot seat, autosave; a package of parts, with one
  mode for local play, a network seat and watching.
- :mod:`fivecrowns.ui.solitaire`: Five Crowns Solitaire's command layer and screen.
- :mod:`fivecrowns.words.announce`: the words for the game's events.
- :mod:`fivecrowns.ui.app`: the prompt_toolkit presentations, full screen and line mode.
- :mod:`fivecrowns.ui.screen`: the full-screen table.
- :mod:`fivecrowns.storage.autosave` and :mod:`fivecrowns.ui.settings`: files in the
  user's folders (autosave, history, settings).

Nothing here is imported by the core; ``fivecrowns play`` imports it when it runs.
"""

from __future__ import annotations

__all__: list[str] = []
