"""Atomic file writes: a crash at any moment leaves the old file or the new one, whole.

Standard library only, so the core (game, solitaire) may use it as well as the front ends.
"""

from __future__ import annotations

import contextlib
import os
import tempfile

__all__ = ["atomic_write_text"]


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8): a temporary file, flushed to disk, then renamed.

    The temporary file sits in the same folder (a rename across file systems is
    not atomic); the folder must exist. Raises :class:`OSError` and leaves no
    temporary file behind.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write_text(folder / "a.txt", "old")
    >>> atomic_write_text(folder / "a.txt", "new")
    >>> (folder / "a.txt").read_text(encoding="utf-8"), [p.name for p in folder.iterdir()]
    ('new', ['a.txt'])
    """
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    handle, temporary = tempfile.mkstemp(
        prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
