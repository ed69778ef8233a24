"""Shared helpers for the export tests: liblouis requirement, BRF parsing, normalising."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from fivecrowns.export import liblouis_status

BRF_ALLOWED = {chr(code) for code in range(0x20, 0x60)} | {"\r", "\n", "\f"}


def require_liblouis() -> None:
    """Skip without liblouis, except under CI=true where a missing liblouis fails the test."""
    ok, why = liblouis_status()
    if ok:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"liblouis must be installed in CI: {why}")
    pytest.skip(f"liblouis is not installed: {why}")


def hide_liblouis(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Make liblouis look absent: no louis module and no lou_translate program on PATH."""
    monkeypatch.setitem(sys.modules, "louis", None)  # what an absent module looks like to import
    monkeypatch.setenv("PATH", str(tmp_path))


def hide_louis_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make only the louis module look absent, so the export uses the lou_translate program."""
    monkeypatch.setitem(sys.modules, "louis", None)


def brf_pages(data: str) -> list[list[str]]:
    """The lines of each page of a BRF file (form feeds between pages, CR LF after each line)."""
    pages = []
    for page in data.split("\f"):
        assert page.endswith("\r\n"), "every BRF line ends in CR LF"
        lines = page[: -len("\r\n")].split("\r\n")
        assert all("\r" not in line and "\n" not in line for line in lines)
        pages.append(lines)
    return pages


def words(text: str) -> list[str]:
    """Words and numbers for comparing print with back-translated braille: case and spacing go."""
    return re.findall(r"[a-z0-9]+", text.lower())
