"""Tests of fivecrowns.export: text and braille exports."""
