"""Errors of the export: each message is a sentence a person can hear as it is."""

from __future__ import annotations

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

__all__ = ["INSTALL_LIBLOUIS", "ExportError", "LiblouisMissingError"]

# why: no reinstall step: the game finds the system's louis module or lou_translate program
# however it was installed (fivecrowns.system_modules), so this holds for pipx, pip and the
# repository alike.
INSTALL_LIBLOUIS = N_(
    "On Debian or Ubuntu: sudo apt-get install liblouis-bin liblouis-data python3-louis, "
    "and the game finds it at its next start. On other systems, install liblouis and its "
    "tables with your package manager. The text format works without it."
)


class ExportError(FiveCrownsError, ValueError):
    """An export that cannot be made as asked: a width out of range, an unknown format."""


class LiblouisMissingError(ExportError):
    """Braille formats need liblouis; the message says how to install it."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what} {_(INSTALL_LIBLOUIS)}")  # two whole sentences
