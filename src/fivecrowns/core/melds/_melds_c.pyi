# The compiled search's functions (src/fivecrowns/core/melds/_melds_c.c);
# fivecrowns.core.melds.solver wraps them.
from collections.abc import Callable, Sequence

from fivecrowns.core.cards import Card
from fivecrowns.core.melds.solver import Meld

SOURCE_SHA256: str

def setup(cards: tuple[Card, ...], maker: Callable[[int, tuple[Card, ...]], Meld], /) -> None: ...
def least(cards: Sequence[Card], wild_rank: int, owed: int, /) -> int | None: ...
def arrange(
    cards: Sequence[Card], wild_rank: int, owed: int, /
) -> tuple[tuple[Meld, ...], tuple[Card, ...], Card | None] | None: ...
def going_out(cards: Sequence[Card], wild_rank: int, owed: int, /) -> tuple[Card, ...] | None: ...
def clear(tables: bool, /) -> None: ...
def sizes() -> tuple[int, int, int]: ...
def limits(
    memo_limit: int,
    memo_full: int,
    table_limit: int,
    table_full: int,
    option_limit: int,
    option_full: int,
    /,
) -> None: ...
