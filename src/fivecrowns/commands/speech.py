"""``fivecrowns speech``: check the speech, braille and sound set-up.

fivecrowns speech --list                     every backend: available here, or why not
fivecrowns speech --test [--backend NAME] [TEXT]
fivecrowns speech --test --backend tts --wav FILE [TEXT]
fivecrowns speech --sounds                   play every earcon and say what it means
fivecrowns speech --backend tts --rate 220 --save   keep choices in the settings file
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

if TYPE_CHECKING:
    from fivecrowns.storage.settings import OutputSettings

__all__ = ["DEFAULT_TEXT", "configure", "run"]

DEFAULT_TEXT = N_("Five Crowns is ready. The 7 of hearts is wild.")
BRAILLE_AVAILABLE = N_("Braille export: available. {detail}.")
BRAILLE_NOT_AVAILABLE = N_("Braille export: not available. {detail}.")
BACKEND_AVAILABLE = N_("{name}: available. {detail}")
BACKEND_NOT_AVAILABLE = N_("{name}: not available. {detail}")
_CHOICES = ("auto", "screenreader", "tts", "print", "none")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "text",
        nargs="?",
        default=None,
        metavar=_("text"),
        help=_('what to say (default "{text}")').format(text=_(DEFAULT_TEXT)),
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument(
        "--list", action="store_true", help=_("show every backend and whether it works here")
    )
    action.add_argument("--test", action="store_true", help=_("speak a test sentence"))
    action.add_argument(
        "--sounds", action="store_true", help=_("play every sound and say what it means")
    )
    action.add_argument("--voices", action="store_true", help=_("list the built-in voice's voices"))
    parser.add_argument(
        "--backend",
        choices=_CHOICES,
        help=_("speech backend (default: the settings file, else auto)"),
    )
    parser.add_argument(
        "--wav", metavar=_("FILE"), help=_("with tts: write the speech to this WAV file instead")
    )
    parser.add_argument(
        "--rate", type=int, metavar=_("WPM"), help=_("built-in voice rate, words a minute")
    )
    parser.add_argument("--volume", type=float, metavar="0-1", help=_("built-in voice volume"))
    parser.add_argument("--voice", metavar="ID", help=_("built-in voice id (see --voices)"))
    parser.add_argument("--sound-volume", type=float, metavar="0-1", help=_("volume of the sounds"))
    mute = parser.add_mutually_exclusive_group()
    mute.add_argument("--mute", action="store_true", default=None, help=_("turn the sounds off"))
    mute.add_argument("--unmute", dest="mute", action="store_false", help=_("turn the sounds on"))
    parser.add_argument(
        "--save",
        action="store_true",
        help=_("keep --backend and the voice and sound choices in the settings file"),
    )
    parser.add_argument(
        "--transcript", metavar=_("FILE"), help=_("also append what is said to FILE")
    )


WAV_TOO_LONG = N_("--wav takes a text of at most {limit} characters, not {count}.")
NOT_CHANGED = N_("Not changed: {reason}.")


def run(args: argparse.Namespace) -> int:
    from fivecrowns.output import OutputError, load_settings
    from fivecrowns.storage.paths import settings_path
    from fivecrowns.storage.settings import SettingsFileError, update_settings

    settings, problem = load_settings()
    if problem:
        print(problem, file=sys.stderr)
    changes = {
        "speech": args.backend,
        "tts_rate": args.rate,
        "tts_volume": args.volume,
        "tts_voice": args.voice,
        "sound_volume": args.sound_volume,
        "sound_muted": args.mute,
    }
    try:
        settings = replace(settings, **{k: v for k, v in changes.items() if v is not None}).check()
    except ValueError as error:
        print(_(NOT_CHANGED).format(reason=error), file=sys.stderr)
        return 2
    if args.voice is not None:
        problem = _unknown_voice(args.voice)
        if problem:
            reason = (problem[:1].lower() + problem[1:]).rstrip(".")
            print(_(NOT_CHANGED).format(reason=reason), file=sys.stderr)
            return 2
    if args.wav and not (args.test and args.backend == "tts"):
        print(_("--wav works only with --test --backend tts."), file=sys.stderr)
        return 2
    from fivecrowns.output.tts import SPEECH_PIECE

    if args.wav and len(args.text or "") > SPEECH_PIECE:
        # why: one engine call with tens of thousands of characters can crash the engine
        print(_(WAV_TOO_LONG).format(limit=SPEECH_PIECE, count=len(args.text)), file=sys.stderr)
        return 2
    if args.save:
        try:
            # why only the changes: another copy may have saved other settings meanwhile
            path = update_settings({k: v for k, v in changes.items() if v is not None})
        except SettingsFileError as error:
            print(error, file=sys.stderr)
            return 1
        except OSError as error:
            problem = _("Cannot save the settings to {path}: {reason}.")
            print(problem.format(path=settings_path(), reason=error.strerror), file=sys.stderr)
            return 1
        print(_("Saved to {path}.").format(path=path))
    try:
        if args.list:
            return _list(settings)
        if args.voices:
            return _voices(settings)
        if args.sounds:
            return _sounds(settings, args.transcript)
        if args.test or args.text is not None:
            if args.wav:
                return _wav(settings, args.text or _(DEFAULT_TEXT), Path(args.wav))
            return _test(settings, args.backend, args.text or _(DEFAULT_TEXT), args.transcript)
    except OutputError as error:
        print(str(error), file=sys.stderr)
        return 1
    if not args.save:
        return _list(settings)
    return 0


def _list(settings: OutputSettings) -> int:
    from fivecrowns.export.braille import liblouis_status
    from fivecrowns.output import backend_statuses
    from fivecrowns.output.sounds import sound_files_status
    from fivecrowns.storage.paths import settings_path

    for status in backend_statuses(settings):
        line = _(BACKEND_AVAILABLE) if status.available else _(BACKEND_NOT_AVAILABLE)
        print(line.format(name=status.name, detail=status.detail))
    print(sound_files_status())
    braille_ok, braille_detail = liblouis_status()
    braille_line = _(BRAILLE_AVAILABLE) if braille_ok else _(BRAILLE_NOT_AVAILABLE)
    print(braille_line.format(detail=braille_detail))
    settings_line = _("Settings file: {path} (speech: {speech}).")
    print(settings_line.format(path=settings_path(), speech=settings.speech))
    return 0


def _unknown_voice(voice: str) -> str | None:
    """A sentence if the built-in voice has no voice ``voice``; None if it has, or cannot tell."""
    from fivecrowns.output import OutputError
    from fivecrowns.output.tts import Pyttsx3Renderer

    try:
        renderer = Pyttsx3Renderer(voice=voice)
    except OutputError as error:
        return str(error) if getattr(error, "unknown_voice", False) else None
    renderer.close()
    return None


def _voices(settings: OutputSettings) -> int:
    from fivecrowns.output.tts import Pyttsx3Renderer

    renderer = Pyttsx3Renderer()
    try:
        for voice_id, name in renderer.voices():
            print(f"{voice_id}: {name}")
    finally:
        renderer.close()
    return 0


def _wav(settings: OutputSettings, text: str, path: Path) -> int:
    from fivecrowns.output.tts import render_to_wav

    how = render_to_wav(text, path, settings.tts_rate, settings.tts_volume, settings.tts_voice)
    print(_("Wrote {path} with {how}.").format(path=path, how=how))
    return 0


def _wait(output: object) -> None:
    wait_idle = getattr(getattr(output, "backend", None), "wait_idle", None)
    if wait_idle is not None:
        wait_idle()


def _test(settings: OutputSettings, backend: str | None, text: str, transcript: str | None) -> int:
    from fivecrowns.output import create_output

    output, reason = create_output(
        backend, transcript, settings=settings, sounds=False, fallback=backend is None
    )
    with output:
        print(reason, file=sys.stderr)
        output.speak(text)
        _wait(output)
    return 0


def _sounds(settings: OutputSettings, transcript: str | None) -> int:
    from fivecrowns.output import SOUNDS, create_output

    output, reason = create_output(None, transcript, settings=settings)
    with output:
        print(reason, file=sys.stderr)
        for sound in SOUNDS.values():
            words = _("{sound}: {meaning}").format(sound=_(sound.label), meaning=_(sound.meaning))
            output.speak(words)
            _wait(output)
            output.play(sound.name)
            time.sleep(1.2)
    return 0
