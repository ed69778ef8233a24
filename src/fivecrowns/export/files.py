"""Export files for the in-game export key: the score sheet and the player's hand.

The front end chooses the folder (the user's documents or data folder) and
speaks :attr:`WrittenExports.message`. Braille files need liblouis; without it
the text files are still written and the message says why braille is missing.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fivecrowns.core.views import PlayerView
from fivecrowns.export.content import hand_document, scores_document
from fivecrowns.export.errors import ExportError, LiblouisMissingError
from fivecrowns.export.layout import DEFAULT_WIDTH, to_ascii
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import ngettext

__all__ = ["SUFFIXES", "WrittenExports", "write_game_exports"]

SUFFIXES = {"text": ".txt", "brf": ".brf", "unicode": ".braille.txt"}


@dataclass(frozen=True)
class WrittenExports:
    """The files written, and a sentence that says where (and what was left out)."""

    folder: Path
    paths: tuple[Path, ...]
    skipped: str | None = None

    @property
    def message(self) -> str:
        count = len(self.paths)
        text = ngettext(
            "Exported the score sheet and your hand to {folder}: {count} file.",
            "Exported the score sheet and your hand to {folder}: {count} files.",
            count,
        ).format(folder=self.folder, count=count)
        if self.skipped:
            text += f" {self.skipped}"  # two whole sentences
        return text


def _slug(text: str) -> str:
    """A file-name-safe ASCII word: "Zoë B." -> "zoe-b"."""
    return re.sub(r"[^a-z0-9]+", "-", to_ascii(text).lower()).strip("-") or "player"


def write_game_exports(
    view: PlayerView,
    folder: Path,
    formats: Sequence[str] = ("text", "brf"),
    width: int = DEFAULT_WIDTH,
    grade: int = 1,
    stamp: str | None = None,
) -> WrittenExports:
    """Write the score sheet and ``view``'s hand in each format to ``folder``.

    Files are named ``fivecrowns-STAMP-scores.txt``, ``fivecrowns-STAMP-hand-NAME.brf``
    and so on (``stamp`` defaults to the local date and time), so earlier
    exports are kept. Raises :class:`ExportError` if the folder cannot be written.
    """
    from fivecrowns.export import render

    unknown = [fmt for fmt in formats if fmt not in SUFFIXES]
    if unknown:
        raise ExportError(
            _("There is no export format '{format}': choose text, brf or unicode.").format(
                format=unknown[0]
            )
        )
    stamp = stamp or time.strftime("%Y%m%d-%H%M%S")
    documents = {
        "scores": scores_document(view),
        f"hand-{_slug(view.name)}": hand_document(view),
    }
    paths: list[Path] = []
    skipped: str | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for fmt in formats:
            for name, document in documents.items():
                try:
                    out = render(document, fmt, min(width, 40) if fmt == "brf" else width, grade)
                except LiblouisMissingError:
                    skipped = _("No braille files: liblouis is not installed.")
                    break
                path = folder / f"fivecrowns-{stamp}-{name}{SUFFIXES[fmt]}"
                path.write_bytes(out.encode("utf-8"))
                paths.append(path)
    except OSError as error:
        raise ExportError(
            _("Could not write exports to {folder}: {reason}.").format(
                folder=folder, reason=error.strerror or error
            )
        ) from error
    return WrittenExports(folder, tuple(paths), skipped)
