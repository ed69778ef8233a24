"""Tests of fivecrowns.words: the sentences about the game."""
