"""The test suite. Its folders mirror the package's (tests/core tests fivecrowns.core, and so on).

Each folder is a package (this file and one in each folder) so that two folders may hold test
files of the same name (tests/ui/test_settings.py, tests/storage/test_settings.py) under pytest's
default import mode; the helpers every folder shares are in tests/support/, which pyproject.toml
puts on sys.path (``from ui_support import table``).
"""
