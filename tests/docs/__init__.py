"""Tests that the pages in docs/ stay true to the code."""
