"""The session's lists and files: the action menu, help, and the braille export.

The action menu lists every action that does something now; a discard or go-out action
gets one item per card, so a player who uses only the menu can play any card.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from fivecrowns.core.cards import Card, spoken_name
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import best_arrangement, best_with_discard, going_out_discards
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.paths import documents_dir
from fivecrowns.ui.commands import ACTIONS_TITLE, MENU_ITEM, MenuItem
from fivecrowns.ui.keymap import GROUPS, Action, Keymap
from fivecrowns.ui.session.base import SessionBase

__all__ = ["Menus"]

#: The action menu's item between rounds.
DEAL_ITEM = N_("Deal round {round}: {keys}")
NEW_GAME_ITEM = N_("New game, same players")
TAKE_ITEM = N_("Take the {card}")
DISCARD_ITEM = N_("Discard the {card}")
GO_OUT_ITEM = N_("Go out, discarding the {card}")


def lay_down_item(count: int) -> str:
    return ngettext(
        "Lay down and discard the {card}, leaving {count} point",
        "Lay down and discard the {card}, leaving {count} points",
        count,
    )


def lay_down_best_item(count: int) -> str:
    return ngettext(
        "Lay down your best melds and discard the {card}, leaving {count} point",
        "Lay down your best melds and discard the {card}, leaving {count} points",
        count,
    )


class Menus(SessionBase):
    """The action menu and help as this game and this seat have them; the export key."""

    def menu_items(self, action: Action) -> list[MenuItem]:
        if action.name in ("discard", "go_out"):
            return self._card_items(action)
        keys = self.keymap.display_keys(action.name)
        label = self._menu_label(action)
        return [
            (
                _(MENU_ITEM).format(label=label, keys=keys),
                functools.partial(self.run_action, action),
            )
        ]

    def _card_items(self, action: Action) -> list[MenuItem]:
        """One menu item per distinct card the action can take, so a player who uses only
        the menu can discard (or go out with) any card; choosing one focuses that card and
        runs the same action as the key."""
        game = self.client
        wild = game.wild_rank
        hand = self.hand()
        focused = hand[self.focus()] if hand else None
        keys = self.keymap.display_keys(action.name)
        last_turn = game.phase in (Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD)
        items: list[MenuItem] = []
        if action.name == "go_out":
            if last_turn:
                best = best_with_discard(hand, wild)
                assert best.discard is not None
                points = best.leftover_points
                label = lay_down_best_item(points).format(
                    card=spoken_name(best.discard, wild), count=points
                )
                item = _(MENU_ITEM).format(label=label, keys=keys)
                return [(item, functools.partial(self.run_action, action))]
            cards: Sequence[Card] = going_out_discards(hand, wild)
        else:
            cards = list(dict.fromkeys(hand))
        for card in cards:
            name = spoken_name(card, wild)
            if action.name == "go_out":
                label = _(GO_OUT_ITEM).format(card=name)
            elif last_turn and game.phase is Phase.LAST_LAY_DOWN:
                rest = list(hand)
                rest.remove(card)
                left = best_arrangement(rest, wild).leftover_points
                label = lay_down_item(left).format(card=name, count=left)
            else:
                label = _(DISCARD_ITEM).format(card=name)
            if card == focused:
                label = _(MENU_ITEM).format(label=label, keys=keys)
            items.append((label, functools.partial(self._card_action, action, card)))
        return items

    def _card_action(self, action: Action, card: Card) -> None:
        hand = self.hand()
        if card in hand:
            self.seat_state[self.at_keyboard].focus = hand.index(card)
        self.run_action(action)

    def _menu_label(self, action: Action) -> str:
        game = self.client
        wild = game.wild_rank
        if action.name == "whose_turn" and game.is_over and self.mode.may_deal_again():
            return _(NEW_GAME_ITEM)
        if action.name == "take" and game.top_discard is not None:
            return _(TAKE_ITEM).format(card=spoken_name(game.top_discard, wild))
        return action.label

    def available_actions(self) -> list[Action]:
        """Every action that does something now: the menu lists these."""
        game = self.client
        mine = not game.is_over and game.current_player == self.at_keyboard
        names: list[str] = []
        if mine and game.phase in (Phase.DRAW, Phase.LAST_DRAW):
            names.append("draw")
            if game.top_discard is not None:
                names.append("take")
        if mine and game.phase in (Phase.DISCARD, Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD):
            names.append("discard")
            hand = self.hand()
            if game.phase is not Phase.DISCARD or going_out_discards(hand, game.wild_rank):
                names.append("go_out")
        names += [
            "hand", "hint", "round", "piles", "scores", "round_detail", "melds", "counts",
            "last_moves", "whose_turn", "why", "review", "current", "sort", "past_games", "export",
            "repeat",
            *(["chat"] if getattr(self.link, "chat", None) is not None else []),
            "verbosity", "speech", "settings", "help", "quit",
        ]  # fmt: skip
        return [self.keymap.get(name) for name in names]

    def _do_menu(self, key: str) -> None:
        if self.next_round is None:
            super()._do_menu(key)
            return
        keys = self.keymap.display_keys("discard")
        items: list[MenuItem] = [
            (_(DEAL_ITEM).format(round=self.client.round, keys=keys), self._deal_next)
        ]
        for action in self.available_actions():
            if action.group != "turn":
                items += self.menu_items(action)
        self._open_list("menu", _(ACTIONS_TITLE), items)

    def help_lines(self) -> list[str]:
        quit_help = self.mode.quit_help
        if quit_help is None:
            return super().help_lines()
        # a network seat: Q leaves the table (nothing is saved here), and no hot seat
        actions = tuple(
            dataclasses.replace(action, help_text=quit_help) if action.name == "quit" else action
            for action in self.keymap.actions
            if action.group != "privacy"
        )
        groups = {name: title for name, title in GROUPS.items() if name != "privacy"}
        return [*Keymap(actions).help_lines(groups), self.caps_lock_help()]

    def _do_export(self, key: str) -> None:
        from fivecrowns.export.files import write_game_exports

        written = write_game_exports(self.client.view, documents_dir())
        self.answer(written.message)
