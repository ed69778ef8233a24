"""Tests of fivecrowns.ui: the terminal front ends (play, solitaire, join)."""
