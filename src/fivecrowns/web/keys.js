// The keys of the web table: the terminal's keys (fivecrowns.ui.keymap, docs/keys.md) with
// their help sentences; tests/web/test_browser.py checks each row against the keymap table.
// The rows are English (N_ marks them for the catalog); groups() translates them at use.
import { _, N_, fill } from "./i18n.js";

// [settings name, keys as shown, label, what it does, the key values that do it]
const ROWS = [
  [N_("Your turn"), [
    ["draw", "D", N_("Draw from the stock"), N_("Take the top card of the stock."), ["d", "D"]],
    ["take", "T", N_("Take the top discard"), N_("Take the top card of the discard pile."), ["t", "T"]],
    ["discard", N_("Enter or Space"), N_("Discard the focused card"), N_("Discard the card you are on. In a last turn, your best melds are laid down first."), []],
    ["go_out", "G", N_("Go out"), N_("Lay down all your melds and discard. If you cannot yet, says why and how close you are."), ["g", "G"]],
  ]],
  [N_("Moving through your hand"), [
    ["previous", N_("Left or Up"), N_("Previous card"), N_("Move to the card on the left and say it; at the first, says First card."), []],
    ["next", N_("Right or Down"), N_("Next card"), N_("Move to the card on the right and say it; at the last, says Last card."), []],
    ["first", N_("Home"), N_("First card"), N_("Move to the first card."), []],
    ["last", N_("End"), N_("Last card"), N_("Move to the last card."), []],
    ["current", "F", N_("Focused card"), N_("Say the card you are on, and its place."), ["f", "F"]],
    ["jump", N_("0 to 9"), N_("Jump to a card"), N_("Number keys 1 to 9 jump to that card, 0 to the 10th. The same number again jumps 10 further: 1 twice is the 11th card, 4 twice the 14th."), []],
    ["sort", "O", N_("Sort the hand"), N_("Sort your hand by rank, or by suit; press again to switch."), ["o", "O"]],
  ]],
  [N_("Information (never uses your turn)"), [
    ["hand", "H", N_("Your hand"), N_("Your whole hand, grouped as it would meld, with leftover points and the sort order."), ["h"]],
    ["hint", N_("Shift+H"), N_("Hint"), N_("The best draw or discard now, and why."), ["H"]],
    ["round", "W", N_("Round and wild"), N_("The round number and the wild rank."), ["w", "W"]],
    ["piles", "P", N_("Piles"), N_("The top discard and how many cards are left in the stock."), ["p", "P"]],
    ["scores", "S", N_("Scores"), N_("Everyone's total score, lowest first."), ["s", "S"]],
    ["round_detail", "B", N_("Breakdown of the last round"), N_("Who went out, and each player's melds, leftover cards and points in the last round."), ["b", "B"]],
    ["melds", "M", N_("Melds on the table"), N_("The melds laid down this round."), ["m", "M"]],
    ["counts", "C", N_("Card counts"), N_("How many cards each player holds."), ["c", "C"]],
    ["last_moves", "L", N_("Last moves"), N_("What happened since your last turn."), ["l", "L"]],
    ["whose_turn", "N", N_("Whose turn"), N_("Whose turn it is and what they must do now. After the game: a new game, same players (at a network table, only its creator starts one)."), ["n", "N"]],
    ["why", "Y", N_("Why"), N_("Why the last computer player did what it did."), ["y", "Y"]],
    ["review", N_("Shift+R"), N_("Review of the last round"), N_("Your choices in the last round that the strongest computer player would have made otherwise, with the points each cost: the five dearest."), ["R"]],
    ["watchers", "A", N_("Who is watching"), N_("The names of the spectators watching this table."), ["a", "A"]],
  ]],
  [N_("Messages and speech"), [
    ["older", N_("comma"), N_("Older message"), N_("Read the message before this one."), [","]],
    ["newer", N_("period"), N_("Newer message"), N_("Read the message after this one."), ["."]],
    ["oldest", N_("less than"), N_("Oldest message"), N_("Read the first message."), ["<"]],
    ["newest", N_("greater than"), N_("Newest message"), N_("Read the latest message."), [">"]],
    ["repeat", "R", N_("Repeat"), N_("Say the last message again."), ["r"]],
    ["chat", N_("slash"), N_("Chat"), N_("At a network table: type a line for everyone there, then Enter; Escape cancels."), ["/"]],
    ["stop_speech", "X", N_("Stop speech"), N_("Stop the built-in voice now."), ["x", "X"]],
  ]],
  [N_("The game"), [
    ["help", N_("F1 or question mark"), N_("Help"), N_("The list of keys."), []],
    // why Escape opens this list too: the terminal's Escape menu at the table (app.js key);
    // why not called a menu here: the page's actions are its buttons, this list only says keys
    ["menu", N_("Escape"), N_("Keys list"), N_("At the table: this list of keys, as F1."), []],
    // why "settings": the terminal's F2; the page's has the sounds only (language is on the page)
    ["settings", "F2", N_("Settings"), N_("Sounds: mute all, the volume of each kind of sound, and a list that plays each sound with what it means."), []],
  ]],
];

const BY_KEY = new Map();
for (const [, rows] of ROWS) {
  for (const [name, , , , keys] of rows) {
    for (const key of keys) BY_KEY.set(key, name);
  }
}

export const KEYS = {
  rows: ROWS,
  groups: () =>
    ROWS.map(([title, rows]) => ({
      title: _(title),
      rows: rows.map(([, keys, label, what]) => [
        _(keys),
        fill(_("{label}. {what}"), { label: _(label), what: _(what) }),
      ]),
    })),
  byKey: (key) => BY_KEY.get(key) ?? null,
};
