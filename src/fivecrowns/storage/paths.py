"""Where the game keeps its files: the config folder (``settings.json``), the data folder
(autosave, history, seats, the server's database) and the exports folder.

``FIVECROWNS_CONFIG_DIR`` and ``FIVECROWNS_DATA_DIR`` move the folders (tests and portable
copies use them); otherwise platformdirs says where each platform keeps them.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["config_dir", "data_dir", "documents_dir", "settings_path"]


def config_dir() -> Path:
    """The user's config directory; ``FIVECROWNS_CONFIG_DIR`` overrides it (tests, portable use)."""
    override = os.environ.get("FIVECROWNS_CONFIG_DIR")
    if override:
        return Path(override)
    import platformdirs

    # why: one function for every reader and writer of settings.json, so there is one file.
    return Path(platformdirs.user_config_dir("fivecrowns"))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def data_dir() -> Path:
    override = os.environ.get("FIVECROWNS_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("fivecrowns"))


def documents_dir() -> Path:
    """Where exports go: the user's documents folder when it exists, else the data folder."""
    if os.environ.get("FIVECROWNS_DATA_DIR"):
        return data_dir() / "exports"
    import platformdirs

    documents = Path(platformdirs.user_documents_dir())
    return documents / "Five Crowns" if documents.is_dir() else data_dir() / "exports"
