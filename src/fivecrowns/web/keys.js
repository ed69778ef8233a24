// The keys of the web table: the terminal's keys (fivecrowns.ui.keymap, docs/keys.md) with
// their help sentences; tests/test_web_page.py checks each row against the keymap table.
// [settings name, keys as shown, label, what it does, the key values that do it]
const ROWS = [
  ["Your turn", [
    ["draw", "D", "Draw from the stock", "Take the top card of the stock.", ["d", "D"]],
    ["take", "T", "Take the top discard", "Take the top card of the discard pile.", ["t", "T"]],
    ["discard", "Enter or Space", "Discard the focused card", "Discard the card you are on. In a last turn, your best melds are laid down first.", []],
    ["go_out", "G", "Go out", "Lay down all your melds and discard. If you cannot yet, says why and how close you are.", ["g", "G"]],
  ]],
  ["Moving through your hand", [
    ["previous", "Left or Up", "Previous card", "Move to the card on the left and say it; at the first, says First card.", []],
    ["next", "Right or Down", "Next card", "Move to the card on the right and say it; at the last, says Last card.", []],
    ["first", "Home", "First card", "Move to the first card.", []],
    ["last", "End", "Last card", "Move to the last card.", []],
    ["current", "F", "Focused card", "Say the card you are on, and its place.", ["f", "F"]],
    ["jump", "0 to 9", "Jump to a card", "Number keys 1 to 9 jump to that card, 0 to the 10th. The same number again jumps 10 further: 1 twice is the 11th card, 4 twice the 14th.", []],
    ["sort", "O", "Sort the hand", "Sort your hand by rank, or by suit; press again to switch.", ["o", "O"]],
  ]],
  ["Information (never uses your turn)", [
    ["hand", "H", "Your hand", "Your whole hand, grouped as it would meld, with leftover points and the sort order.", ["h"]],
    ["hint", "Shift+H", "Hint", "The best draw or discard now, and why.", ["H"]],
    ["round", "W", "Round and wild", "The round number and the wild rank.", ["w", "W"]],
    ["piles", "P", "Piles", "The top discard and how many cards are left in the stock.", ["p", "P"]],
    ["scores", "S", "Scores", "Everyone's total score, lowest first.", ["s", "S"]],
    ["round_detail", "B", "Breakdown of the last round", "Who went out, and each player's melds, leftover cards and points in the last round.", ["b", "B"]],
    ["melds", "M", "Melds on the table", "The melds laid down this round.", ["m", "M"]],
    ["counts", "C", "Card counts", "How many cards each player holds.", ["c", "C"]],
    ["last_moves", "L", "Last moves", "What happened since your last turn.", ["l", "L"]],
    ["whose_turn", "N", "Whose turn", "Whose turn it is and what they must do now.", ["n", "N"]],
    ["why", "Y", "Why", "Why the last computer player did what it did.", ["y", "Y"]],
  ]],
  ["Messages and speech", [
    ["older", ",", "Older message", "Read the message before this one.", [","]],
    ["newer", ".", "Newer message", "Read the message after this one.", ["."]],
    ["oldest", "<", "Oldest message", "Read the first message.", ["<"]],
    ["newest", ">", "Newest message", "Read the latest message.", [">"]],
    ["repeat", "R", "Repeat", "Say the last message again.", ["r", "R"]],
    ["stop_speech", "X", "Stop speech", "Stop the built-in voice now.", ["x", "X"]],
  ]],
  ["The game", [
    ["help", "F1 or ?", "Help", "The list of keys.", []],
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
  groups: ROWS.map(([title, rows]) => ({
    title,
    rows: rows.map(([, keys, label, what]) => [keys, `${label}. ${what}`]),
  })),
  byKey: (key) => BY_KEY.get(key) ?? null,
};
