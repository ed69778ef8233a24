"""Tests of fivecrowns.storage: saves, autosave, history, settings, seats, locks, the error log."""
