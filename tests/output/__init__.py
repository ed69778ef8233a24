"""Tests of fivecrowns.output: speech, braille, sounds and the transcript."""
