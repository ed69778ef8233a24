"""What a computer player can work out from its view: the discard pile, what each
opponent took from it and threw onto it, and the pool of cards it cannot see.

Everything here is read from the view's public events of this round, so it
never depends on another player's hidden cards or on the stock order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from fivecrowns.ai.evaluate import full_pool
from fivecrowns.core.cards import Card
from fivecrowns.core.moves import (
    Discarded,
    LaidDown,
    RoundStarted,
    StockReshuffled,
    TookDiscard,
    WentOut,
)
from fivecrowns.core.views import PlayerView

__all__ = ["Memory", "read_memory"]


@dataclass
class Memory:
    """One player's memory of this round, rebuilt from its view."""

    pile: list[Card] = field(default_factory=list)  # the discard pile now, top last
    took: list[Counter[Card]] = field(default_factory=list)  # per seat: taken from the pile
    threw: list[Counter[Card]] = field(default_factory=list)  # per seat: discarded
    known: list[Counter[Card]] = field(default_factory=list)  # per seat: known to hold now
    discards: int = 0  # turns completed this round
    unseen: Counter[Card] = field(default_factory=Counter)  # stock plus other hidden cards

    def unseen_total(self) -> int:
        return sum(self.unseen.values())


def read_memory(view: PlayerView) -> Memory:
    """Replay the round's public events as ``view.player`` saw them."""
    seats = len(view.players)
    memory = Memory(
        took=[Counter() for _ in range(seats)],
        threw=[Counter() for _ in range(seats)],
        known=[Counter() for _ in range(seats)],
    )
    for event in view.events:
        if isinstance(event, RoundStarted):
            memory.pile = [event.turned_up]
        elif isinstance(event, TookDiscard):
            if memory.pile:
                memory.pile.pop()
            memory.took[event.player][event.card] += 1
            memory.known[event.player][event.card] += 1
        elif isinstance(event, Discarded | WentOut):
            card = event.card if isinstance(event, Discarded) else event.discard
            memory.pile.append(card)
            memory.threw[event.player][card] += 1
            memory.discards += 1
            if memory.known[event.player][card] > 0:
                memory.known[event.player][card] -= 1
            if isinstance(event, WentOut):
                memory.known[event.player].clear()
        elif isinstance(event, LaidDown):
            for meld in event.melds:
                memory.known[event.player] -= Counter(meld.cards)
        elif isinstance(event, StockReshuffled):
            # why: the buried discards went back into the stock, so they are unseen again.
            memory.pile = memory.pile[-1:]
    unseen = full_pool(view.decks_in_play)
    unseen -= Counter(view.hand)
    unseen -= Counter(memory.pile)
    for melds in view.laid_down:
        for meld in melds:
            unseen -= Counter(meld.cards)
    for seat, cards in enumerate(memory.known):
        if seat != view.player:
            unseen -= cards
    memory.unseen = unseen
    return memory
