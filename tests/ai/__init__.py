"""Tests of fivecrowns.ai: the computer players."""
