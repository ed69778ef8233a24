"""The sound items of the Settings menu (F2): the sound pack, and a list to learn each cue.

Also "Sounds: on" (mute all) and each kind of cue's volume, stepped by Enter.
"Hear the sounds" (and the end of the help list, F1) lists every cue with what it means;
choosing one plays it with its meaning and the list stays open, so a player learns them one
after another. "Sound pack" lists the
default pack and the player's own (DATA/sounds/, docs/accessibility.md); choosing one loads
it at once and keeps it in settings.json. A bad pack says its one sentence, and the default
plays.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.output.packs import pack_names
from fivecrowns.output.sounds import DEFAULT_PACK, SOUNDS

__all__ = ["CUES_TITLE", "SoundMenus", "cue_words"]

SETTINGS_CUES = N_("Hear the sounds")
CUES_TITLE = N_("Sounds")
CUE_ITEM = N_("{sound}: {meaning}")
SETTINGS_PACK = N_("Sound pack: {pack}")
PACKS_TITLE = N_("Sound pack")
PACK_CHOSEN = N_("Sound pack: {pack}. Saved for the next games too.")
PACK_NOT_SAVED = N_("Sound pack: {pack}, for this game only: {why}")
#: The default pack's name as a player hears it (its folder is "default").
DEFAULT_NAME = N_("default")
NO_SOUNDS = N_("Sounds are off, so no pack can be chosen now.")
NO_DEVICE = N_("No sound can play here, so there is nothing to change.")
SETTINGS_MUTE_ON = N_("Sounds: on")
SETTINGS_MUTE_OFF = N_("Sounds: muted")
SOUNDS_ON = N_("Sounds on")
SOUNDS_MUTED = N_("Sounds muted")
SETTING_NOT_SAVED = N_("{setting}, for this game only: {why}")
#: Each kind of cue's volume (fivecrowns.output.sounds.KINDS); Enter steps it down by a
#: quarter, from none back to full.
VOLUME_ITEMS = {
    "own": N_("Volume of your moves: {percent} percent"),
    "others": N_("Volume of others' moves: {percent} percent"),
    "alerts": N_("Volume of alerts: {percent} percent"),
}
SETTING_SAVED = N_("{setting}. Saved for the next games too.")
#: A cue of each kind, played at the new volume so the player hears the change.
_SAMPLE = {"own": "discard", "others": "other_discard", "alerts": "your_turn"}
_STEPS = (1.0, 0.75, 0.5, 0.25, 0.0)


def cue_words(name: str) -> str:
    """A cue's label and meaning, e.g. "your turn: It is your turn." (help, the list)."""
    sound = SOUNDS[name]
    return _(CUE_ITEM).format(sound=_(sound.label), meaning=_(sound.meaning))


def _pack_words(pack: str) -> str:
    return _(DEFAULT_NAME) if pack == DEFAULT_PACK else pack


class _Menus(Protocol):
    output: Any
    list_state: Any

    def _open_list(
        self,
        kind: str,
        title: str,
        items: list[tuple[str, Callable[[], None] | None]],
        selected: int = 0,
    ) -> None: ...
    def say(self, text: str, interrupt: bool = False, sound: str | None = None) -> None: ...
    def answer(self, text: str, sound: str | None = None) -> None: ...
    def refuse(self, text: str) -> None: ...


class SoundMenus:
    """Mixed into the command layer: its Settings menu's sound items."""

    list_state: Any  # the command layer's open list (fivecrowns.ui.commands.ListState)

    def sound_settings_items(self: _Menus) -> list[tuple[str, Callable[[], None] | None]]:
        player = getattr(self.output, "sounds", None)
        pack = getattr(player, "pack", DEFAULT_PACK)
        items: list[tuple[str, Callable[[], None] | None]] = [
            (_(SETTINGS_CUES), functools.partial(SoundMenus._open_cues, self)),
            (
                _(SETTINGS_PACK).format(pack=_pack_words(pack)),
                functools.partial(SoundMenus._open_packs, self),
            ),
        ]
        muted = bool(getattr(player, "muted", False))
        mute = _(SETTINGS_MUTE_OFF) if muted else _(SETTINGS_MUTE_ON)
        items.append((mute, functools.partial(SoundMenus._toggle_mute, self)))
        volumes = getattr(player, "volumes", dict.fromkeys(VOLUME_ITEMS, 1.0))
        for kind, template in VOLUME_ITEMS.items():
            label = _(template).format(percent=round(volumes[kind] * 100))
            items.append((label, functools.partial(SoundMenus._step_volume, self, kind)))
        return items

    def _toggle_mute(self: _Menus) -> None:
        player = getattr(self.output, "sounds", None)
        if player is None:
            self.refuse(_(NO_DEVICE))
            return
        player.muted = not player.muted
        if not player.muted:
            self.output.play("your_turn")  # why: the player hears that sounds are back
        setting = _(SOUNDS_MUTED) if player.muted else _(SOUNDS_ON)
        SoundMenus._save(self, {"sound_muted": player.muted}, setting)

    def _step_volume(self: _Menus, kind: str) -> None:
        player = getattr(self.output, "sounds", None)
        if player is None:
            self.refuse(_(NO_DEVICE))
            return
        now = player.volumes[kind]
        lower = [step for step in _STEPS if step < now - 0.01]
        player.volumes[kind] = lower[0] if lower else _STEPS[0]
        setting = _(VOLUME_ITEMS[kind]).format(percent=round(player.volumes[kind] * 100))
        self.output.play(_SAMPLE[kind])
        SoundMenus._save(self, {f"sound_volume_{kind}": player.volumes[kind]}, setting)

    def _save(self: _Menus, changes: dict[str, Any], setting: str) -> None:
        """Keep ``changes`` in settings.json and say ``setting`` (e.g. "Sounds muted") with
        whether it was saved."""
        from fivecrowns.storage.settings import SettingsFileError, update_settings

        try:
            update_settings(changes)
        except (OSError, ValueError, SettingsFileError) as error:
            self.answer(_(SETTING_NOT_SAVED).format(setting=setting, why=error))
        else:
            self.answer(_(SETTING_SAVED).format(setting=setting))

    def open_with_cues(
        self: _Menus, kind: str, title: str, lead: list[tuple[str, Callable[[], None] | None]]
    ) -> None:
        """Open a list of ``lead`` then every cue's words; choosing a cue plays it with its
        words and the list stays open on it, to learn them one after another."""
        opened: list[Any] = []
        items = lead + [
            (cue_words(name), functools.partial(SoundMenus._play_cue, self, opened, index, name))
            for index, name in enumerate(SOUNDS, start=len(lead))
        ]
        self._open_list(kind, title, items, 0)
        opened.append(self.list_state)

    def _open_cues(self: _Menus) -> None:
        SoundMenus.open_with_cues(self, "settings", _(CUES_TITLE), [])

    def _play_cue(self: _Menus, opened: list[Any], index: int, name: str) -> None:
        state = opened[0]
        state.selected = index
        self.list_state = state  # why: choosing closed it; a player tries the next one too
        self.say(cue_words(name), interrupt=True, sound=name)

    def _open_packs(self: _Menus) -> None:
        player = getattr(self.output, "sounds", None)
        if player is None:
            self.refuse(_(NO_SOUNDS))
            return
        packs = pack_names()
        items: list[tuple[str, Callable[[], None] | None]] = [
            (_pack_words(pack), functools.partial(SoundMenus.choose_pack, self, pack))
            for pack in packs
        ]
        now = packs.index(player.pack) if player.pack in packs else 0
        self._open_list("settings", _(PACKS_TITLE), items, now)

    def choose_pack(self: _Menus, pack: str) -> None:
        """Load ``pack`` now and keep it in settings.json; a bad pack says why (the default)."""
        from fivecrowns.storage.settings import SettingsFileError, update_settings

        player = getattr(self.output, "sounds", None)
        if player is None:
            self.refuse(_(NO_SOUNDS))
            return
        problem = player.choose_pack(pack)
        if problem:
            self.refuse(problem)
            return
        try:
            update_settings({"sound_pack": pack})
        except (OSError, ValueError, SettingsFileError) as error:
            self.answer(_(PACK_NOT_SAVED).format(pack=_pack_words(pack), why=error))
        else:
            self.answer(_(PACK_CHOSEN).format(pack=_pack_words(pack)), sound="your_turn")
