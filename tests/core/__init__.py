"""Tests of fivecrowns.core: cards, melds, moves, the game, views, codec, solitaire."""
