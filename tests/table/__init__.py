"""Tests of fivecrowns.table: one table, its seats, its event log and its answers."""
