"""Output settings kept in the user's config directory (``settings.json``).

Only the ``"output"`` section of the file belongs to this module; other sections
are kept untouched when saving, so other parts of the game can share the file.
A missing or damaged file gives the defaults and a sentence saying why.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, cast

from fivecrowns.i18n import LANGUAGES, N_
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.atomic import atomic_write_text
from fivecrowns.storage.paths import settings_path

__all__ = [
    "SPEECH_CHOICES",
    "OutputSettings",
    "SettingsFileError",
    "load_settings",
    "save_settings",
    "update_settings",
]

SPEECH_CHOICES = ("auto", "screenreader", "tts", "print", "none")


@dataclass(frozen=True)
class OutputSettings:
    """What the player chose for speech and sound.

    ``tts_rate`` is in words per minute (``None``: the engine's default), volumes
    run from 0.0 to 1.0, ``tts_voice`` is an engine voice id (``None``: default).
    """

    speech: str = "auto"
    tts_rate: int | None = None
    tts_volume: float = 1.0
    tts_voice: str | None = None
    sound_volume: float = 0.8
    sound_muted: bool = False
    #: the sound pack: "default" or a folder in DATA/sounds (fivecrowns.output.packs)
    sound_pack: str = "default"
    #: each kind of cue's volume, times sound_volume: your moves, others' moves, alerts
    sound_volume_own: float = 1.0
    sound_volume_others: float = 1.0
    sound_volume_alerts: float = 1.0
    braille_follows_speech: bool = True
    #: "en" or "es"; None: the system's language (fivecrowns.language decides)
    language: str | None = None

    def check(self) -> OutputSettings:
        """Return a copy with every value in range; raise ValueError saying what is wrong."""
        # why ", ".join: the choices are settings-file values (data), not words
        if self.speech not in SPEECH_CHOICES:
            raise ValueError(
                _("speech '{value}' is not one of: {choices}").format(
                    value=self.speech, choices=", ".join(SPEECH_CHOICES)
                )
            )
        if self.tts_rate is not None and not 50 <= self.tts_rate <= 600:
            raise ValueError(
                _("tts_rate {value} is not between 50 and 600 words a minute").format(
                    value=self.tts_rate
                )
            )
        for name in (
            "tts_volume",
            "sound_volume",
            "sound_volume_own",
            "sound_volume_others",
            "sound_volume_alerts",
        ):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(
                    _("{name} {value} is not between 0.0 and 1.0").format(name=name, value=value)
                )
        if self.language is not None and self.language not in LANGUAGES:
            raise ValueError(
                _("language '{value}' is not one of: {choices}").format(
                    value=self.language, choices=", ".join(LANGUAGES)
                )
            )
        return self


_TYPES: dict[str, tuple[type, ...]] = {
    "speech": (str,),
    "tts_rate": (int, type(None)),
    "tts_volume": (int, float),
    "tts_voice": (str, type(None)),
    "sound_volume": (int, float),
    "sound_muted": (bool,),
    "sound_pack": (str,),
    "sound_volume_own": (int, float),
    "sound_volume_others": (int, float),
    "sound_volume_alerts": (int, float),
    "braille_follows_speech": (bool,),
    "language": (str, type(None)),
}


def _from_dict(data: dict[str, Any]) -> OutputSettings:
    values: dict[str, Any] = {}
    for field in fields(OutputSettings):
        if field.name not in data:
            continue
        value: Any = data[field.name]
        allowed = _TYPES[field.name]
        if isinstance(value, bool) and bool not in allowed:
            raise ValueError(_("{name} must not be true or false").format(name=field.name))
        if not isinstance(value, allowed):
            raise ValueError(
                _("{name} has the wrong type ({type})").format(
                    name=field.name, type=type(value).__name__
                )
            )
        values[field.name] = float(cast(float, value)) if field.name.endswith("_volume") else value
    return replace(OutputSettings(), **values).check()


def load_settings(path: Path | None = None) -> tuple[OutputSettings, str | None]:
    """Read the settings; returns (settings, problem sentence or None). Never raises."""
    from fivecrowns.core.errors import SaveFileError
    from fivecrowns.storage.saves import read_bounded

    path = path or settings_path()
    try:
        text = read_bounded(path, "settings file", limit=1_000_000).decode("utf-8")
    except FileNotFoundError:
        return OutputSettings(), None
    except SaveFileError as error:  # not a plain file (a FIFO would block), too big, unreadable
        return OutputSettings(), _("{problem} Using default settings.").format(problem=error)
    except UnicodeDecodeError:
        return OutputSettings(), _damaged(path, _(NOT_TEXT))
    try:
        data = json.loads(text)
        section = data.get("output", {}) if isinstance(data, dict) else None
        if not isinstance(section, dict):
            raise ValueError(_("the output section is not an object"))
        return _from_dict(section), None
    except ValueError as error:
        # why str(error): json's own words (line and column) or ours from _from_dict
        return OutputSettings(), _damaged(path, str(error))
    except RecursionError:
        # why: json.loads raises RecursionError, not a ValueError, on deeply nested arrays.
        return OutputSettings(), _damaged(path, _("nested too deeply"))


NOT_TEXT = N_("it is not text")


def _damaged(path: Path, why: str) -> str:
    return _("Settings file {path} is damaged ({why}). Using defaults.").format(path=path, why=why)


class SettingsFileError(OSError):
    """The settings file exists but cannot be read as settings: it is never overwritten."""


NOT_OVERWRITTEN = N_(
    "The settings file {path} was not changed, because it cannot be read ({why}) and "
    "saving would lose what is in it. Fix it or move it away, then save again."
)


def save_settings(settings: OutputSettings, path: Path | None = None) -> Path:
    """Write the ``output`` section, keeping the file's other sections.

    A file that exists but cannot be read or is not a JSON object is never replaced
    (a trailing comma must not cost the player every key binding): that raises
    :class:`SettingsFileError` with a sentence naming the file and the problem.
    Two saves at once are taken one after the other (a lock beside the file), so
    neither change is lost. Raises OSError when the file cannot be written.
    """
    path = path or settings_path()
    settings.check()
    path.parent.mkdir(parents=True, exist_ok=True)
    # why a lock: read, change one section, write back; two at once would lose a change
    with _settings_lock(path):
        data = _current_settings(path)
        data["output"] = asdict(settings)
        atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")
    return path


def update_settings(changes: dict[str, Any], path: Path | None = None) -> Path:
    """Change some ``output`` settings in the file, keeping every other value as the file
    has it now: read, change and write under one lock, so two copies saving different
    settings at once both keep their change. Raises ValueError for a value out of
    range, :class:`SettingsFileError` for a file it cannot read, OSError otherwise."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with _settings_lock(path):
        data = _current_settings(path)
        section = data.get("output", {})
        try:
            current = _from_dict(section if isinstance(section, dict) else {})
        except ValueError as error:
            why = str(error)
            raise SettingsFileError(_(NOT_OVERWRITTEN).format(path=path, why=why)) from None
        updated = replace(current, **changes).check()
        data["output"] = asdict(updated)
        atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")
    return path


def _settings_lock(path: Path) -> Any:
    import filelock

    # why a lock: read, change one section, write back; two at once would lose a change
    return filelock.FileLock(path.with_name(f".{path.name}.lock"), timeout=10, is_singleton=False)


def _current_settings(path: Path) -> dict[str, Any]:
    """The settings file as it is, or {} when there is none; refuses a file it cannot read."""
    from fivecrowns.storage.saves import read_bounded

    try:
        raw = read_bounded(path, "settings file", limit=1_000_000)
    except FileNotFoundError:
        return {}
    except Exception as error:  # SaveFileError: not a plain file, too big, unreadable
        why = str(error).rstrip(".")
        raise SettingsFileError(_(NOT_OVERWRITTEN).format(path=path, why=why)) from None
    try:
        loaded = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SettingsFileError(_(NOT_OVERWRITTEN).format(path=path, why=_(NOT_TEXT))) from None
    except ValueError as error:
        raise SettingsFileError(_(NOT_OVERWRITTEN).format(path=path, why=str(error))) from None
    except RecursionError:
        why = _("it is nested too deeply")
        raise SettingsFileError(_(NOT_OVERWRITTEN).format(path=path, why=why)) from None
    if not isinstance(loaded, dict):
        why = _("it is not a JSON object")
        raise SettingsFileError(_(NOT_OVERWRITTEN).format(path=path, why=why)) from None
    return loaded
