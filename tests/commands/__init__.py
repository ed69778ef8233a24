"""Tests of fivecrowns.commands: each command of the command line."""
