"""Illegal moves: every kind is refused with its sentence and changes nothing.

A Hypothesis state machine plays legal moves and, between them, tries every
kind of illegal move that the current phase allows it to try.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from fivecrowns.core.cards import JOKER, card_from_code, spoken_name
from fivecrowns.core.errors import IllegalMoveError, MeldError
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds.solver import check_meld, going_out_discards
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, Move, TakeDiscard
from gamehelpers import check_invariants, random_move, snapshot

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve"]
DRAWING = (Phase.DRAW, Phase.LAST_DRAW)
DRAWN = (Phase.DISCARD, Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD)


class IllegalMoves(RuleBasedStateMachine):
    game: Game
    rng: random.Random

    @initialize(seed=st.integers(0, 10_000), players=st.integers(2, 5))
    def start(self, seed: int, players: int) -> None:
        self.game = Game(NAMES[:players], seed=seed)
        self.rng = random.Random(seed)

    # --- helpers ------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self.game.current_player

    @property
    def hand(self) -> tuple[Any, ...]:
        return self.game.hand(self.seat)

    def refused(self, player: int, move: Any, sentence: str, *, exact: bool = True) -> None:
        before = snapshot(self.game)
        with pytest.raises(IllegalMoveError) as info:
            self.game.apply(player, move)
        message = str(info.value)
        assert message == sentence if exact else message.startswith(sentence), message
        assert not self.game.can(player, move)
        with pytest.raises(IllegalMoveError, match=r"."):
            self.game.check(player, move)
        assert move not in self.game.legal_moves(player)
        assert snapshot(self.game) == before

    def phase_in(*phases: Phase) -> Any:  # type: ignore[misc]
        return precondition(
            lambda self: hasattr(self, "game") and self.game.phase in phases  # type: ignore[attr-defined]
        )

    # --- legal play, to move the game along ----------------------------------------

    @precondition(lambda self: not self.game.is_over)
    @rule()
    def play_a_legal_move(self) -> None:
        move = random_move(self.game, self.rng)
        assert move in self.game.legal_moves(self.seat) or isinstance(move, LayDown)
        self.game.apply(self.seat, move)

    @precondition(lambda self: not self.game.is_over)
    @rule()
    def play_a_whole_turn(self) -> None:
        seat = self.seat
        while not self.game.is_over and self.seat == seat:
            self.game.apply(seat, random_move(self.game, self.rng))

    # --- every kind of illegal move -------------------------------------------------

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def wrong_player(self, data: st.DataObject) -> None:
        others = [seat for seat in range(len(self.game.players)) if seat != self.seat]
        other = data.draw(st.sampled_from(others))
        move = data.draw(st.sampled_from(self.game.legal_moves(self.seat)))
        turn = f"It is {NAMES[self.seat]}'s turn, not yours."
        self.refused(other, move, turn)

    @phase_in(*DRAWING)
    @rule(data=st.data())
    def discard_before_drawing(self, data: st.DataObject) -> None:
        card = data.draw(st.sampled_from(self.hand))
        self.refused(self.seat, Discard(card), "You must draw before you discard.")

    @phase_in(Phase.DRAW)
    @rule(data=st.data())
    def go_out_before_drawing(self, data: st.DataObject) -> None:
        card = data.draw(st.sampled_from(self.hand))
        self.refused(self.seat, GoOut(card), "You must draw before you go out.")

    @phase_in(Phase.DRAW, Phase.DISCARD)
    @rule()
    def lay_down_before_anyone_went_out(self) -> None:
        self.refused(
            self.seat, LayDown(), "You can lay down melds only in a last turn", exact=False
        )

    @phase_in(Phase.LAST_DRAW)
    @rule()
    def lay_down_before_drawing(self) -> None:
        self.refused(self.seat, LayDown(), "You must draw before you lay down.")

    @phase_in(*DRAWN)
    @rule(take=st.booleans())
    def draw_twice(self, take: bool) -> None:
        move = TakeDiscard() if take else DrawFromStock()
        self.refused(self.seat, move, "You have already drawn this turn", exact=False)

    @phase_in(*DRAWN)
    @rule(code=st.integers(0, 55), go_out=st.booleans())
    def card_not_in_hand(self, code: int, go_out: bool) -> None:
        card = card_from_code(code)
        if card in self.hand:
            return
        if go_out and self.game.phase is not Phase.DISCARD:
            return
        move: Move = GoOut(card) if go_out else Discard(card)
        self.refused(self.seat, move, f"The {spoken_name(card)} is not in your hand.")

    @phase_in(Phase.DISCARD)
    @rule(data=st.data())
    def go_out_when_the_cards_do_not_meld(self, data: st.DataObject) -> None:
        outs = going_out_discards(self.hand, self.game.wild_rank)
        cannot = [card for card in self.hand if card not in outs]
        if not cannot:
            return
        card = data.draw(st.sampled_from(cannot))
        sentence = f"You cannot go out discarding the {spoken_name(card, self.game.wild_rank)}: "
        self.refused(self.seat, GoOut(card), sentence, exact=False)

    @phase_in(Phase.LAST_DRAW, Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD)
    @rule(data=st.data())
    def go_out_after_someone_went_out(self, data: st.DataObject) -> None:
        assert self.game.went_out is not None
        card = data.draw(st.sampled_from(self.hand))
        out = NAMES[self.game.went_out]
        sentence = f"{out} has already gone out; lay down what melds you can, then discard."
        self.refused(self.seat, GoOut(card), sentence)

    @phase_in(Phase.LAST_LAY_DOWN)
    @rule(data=st.data())
    def lay_down_a_non_meld(self, data: st.DataObject) -> None:
        cards = data.draw(st.permutations(self.hand))[: data.draw(st.integers(1, 3))]
        try:
            check_meld(cards, self.game.wild_rank)
        except MeldError as error:
            self.refused(self.seat, LayDown((tuple(cards),)), str(error))

    @phase_in(Phase.LAST_LAY_DOWN)
    @rule()
    def lay_down_jokers_you_do_not_have(self) -> None:
        have = self.hand.count(JOKER)
        if have >= 3:
            return
        if have == 0:
            sentence = "The joker is not in your hand."
        else:
            times = "once" if have == 1 else f"{have} times"
            sentence = f"You have the joker only {times}; a card goes in one meld."
        self.refused(self.seat, LayDown(((JOKER, JOKER, JOKER),)), sentence)

    @phase_in(Phase.LAST_DISCARD)
    @rule()
    def lay_down_twice(self) -> None:
        self.refused(
            self.seat, LayDown(()), "You have already laid down this turn; now discard a card."
        )

    @precondition(lambda self: not self.game.is_over)
    @rule()
    def something_that_is_not_a_move(self) -> None:
        self.refused(self.seat, "draw", "'draw' is not a move.")

    @precondition(lambda self: self.game.is_over)
    @rule(seat=st.integers(0, 4))
    def move_after_the_game_is_over(self, seat: int) -> None:
        seat = seat % len(self.game.players)
        self.refused(seat, DrawFromStock(), "The game is over.")

    @invariant()
    def rules_hold(self) -> None:
        if hasattr(self, "game"):
            check_invariants(self.game)


# why: most rules are enabled only in some phases, so Hypothesis now and then gives up on
# drawing an enabled rule and marks that run invalid (a few percent here). The maintainers
# call a few invalid runs harmless (HypothesisWorks/hypothesis#3428); too many would end in
# Unsatisfiable (#3618), which would fail this test loudly rather than pass silently.
IllegalMoves.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestIllegalMoves = IllegalMoves.TestCase


def test_every_move_is_refused_once_the_game_is_over() -> None:
    game = Game(["Ann", "Ben"], seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(game.current_player, random_move(game, rng))
    before = snapshot(game)
    for seat in (0, 1):
        assert game.legal_moves(seat) == []
        for move in (DrawFromStock(), TakeDiscard(), Discard(JOKER), GoOut(JOKER), LayDown()):
            with pytest.raises(IllegalMoveError, match=r"^The game is over\.$"):
                game.apply(seat, move)
    assert snapshot(game) == before


def test_no_player_with_that_number() -> None:
    game = Game(["Ann", "Ben"], seed=3)
    with pytest.raises(IllegalMoveError, match=r"^There is no player 5\.$"):
        game.apply(5, DrawFromStock())
