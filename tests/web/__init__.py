"""Tests of fivecrowns.web: the web page in a real browser against a real server."""
