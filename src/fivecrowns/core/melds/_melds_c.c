/* One file (~1,100 lines): one search, mirrored function for function by solver.py. */
/* The exact solver's search, compiled: the same search as fivecrowns/core/melds/solver.py, in C.
 *
 * melds.py uses this module when it was built (setup.py builds it where a C compiler is
 * found, and an install without one still works: the module is optional), and falls back to
 * its own pure-Python search otherwise. Both give the identical arrangement, card for card:
 * the tests compare them, and the pure-Python one with the solver before issue 15, on many
 * random and dense hands (tests/core/test_melds_compiled.py).
 *
 * What is the same as melds.py (read its module docstring and docs/solver.md first):
 * - a hand's natural cards are counts per (rank, suit) type, 2 bits each, in one 128-bit
 *   integer (the state); the wilds are a count, of which ``cheap`` are of the wild rank;
 * - the search takes the lowest natural card left and tries, in tie-break order, every meld of
 *   3 to 5 cards it can start (the same option order as melds._build_options), then
 *   discarding it (when a discard is owed), then leaving it over; the first choice with the
 *   least points is kept; the memo keys are melds.py's (state << 12 | _tail);
 * - the arrangement is rebuilt by following the kept choices from the whole hand down.
 * What differs: no symmetry between loose suits (in C the worst hand known is well under a
 * millisecond without it), and the tables are C arrays (bounded; emptied when full, and only
 * between calls, never during one).
 *
 * Threads (the server's computer players think in a thread): the search and the walk call no
 * Python code, so each runs whole while this thread holds the GIL. Reading a card that is not
 * one of the deck's own objects (Card.code) and making a new Meld do run Python code, when
 * another thread may solve; so a call reads its cards before it prepares the tables, and the
 * walk has copied all it needs before it makes melds.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* GCC and Clang (__int128, __builtin_ctzll); where the compiler has neither, the build fails
 * and setup.py goes on without this module: the game then runs melds.py's own search. */
typedef unsigned __int128 u128;
#define NOINLINE __attribute__((noinline))

#define TYPES 55
#define JOKER_CODE 55
#define SUITS 5
#define WIDTH 2
#define FIELD 3u
#define MAX_WILDS 31
#define BOOK 0
#define RUN 1
#define INF ((int64_t)1 << 30)
#define PICK_BITS 10
#define UNKNOWN ((1 << PICK_BITS) - 1)
#define DISCARD_PICK (UNKNOWN - 1)
#define LEFT_PICK (UNKNOWN - 2)

/* The memo: open addressing, 2^MEMO_BITS slots; emptied before a call when it is more than
 * half full; a call that would fill it past three quarters starts again on an empty
 * one, and a hand that fills even that goes to the pure-Python solver. */
#define MEMO_BITS 17
#define MEMO_SLOTS ((size_t)1 << MEMO_BITS)

/* The option tables: per lowest card and the pattern near it, its melds in tie-break order. */
#define TABLE_BITS 14
#define TABLE_SLOTS ((size_t)1 << TABLE_BITS)
#define ARENA_SIZE ((size_t)1 << 17)
#define MAX_OPTIONS 256 /* far more than any lowest card has: at most 126 books and 15 runs */

typedef struct {
    uint64_t lo, hi; /* the key, state << 12 | tail */
    int64_t entry;   /* (value << PICK_BITS) | pick */
    uint32_t gen;    /* the slot is filled when this is memo_gen: emptying is one increment */
    uint32_t unused;
} MemoSlot;

typedef struct {
    u128 sub; /* the naturals the meld takes, at their places in the state */
    int8_t need;
    int8_t kind;
    int8_t count;
    int8_t codes[5];
} Option;

typedef struct {
    uint64_t key; /* (y & mask) << 6 | code */
    uint32_t start;
    uint16_t count;
    uint16_t gen; /* the slot is filled when this is table_gen */
} TableSlot;

static MemoSlot *memo = NULL;
static size_t memo_count = 0;
static uint32_t memo_gen = 1;
static TableSlot *tables = NULL;
static size_t table_count = 0;
static uint16_t table_gen = 1;
static Option *arena = NULL;
static size_t arena_used = 0;
static int overflow = 0; /* set when a table filled during a search: the call starts again */
/* The bounds; limits() lowers them for the tests of what happens when a table fills. */
static size_t memo_limit = MEMO_SLOTS / 2;
static size_t memo_full = MEMO_SLOTS / 4 * 3;
static size_t table_limit = TABLE_SLOTS / 2;
static size_t table_full = TABLE_SLOTS / 4 * 3;
static size_t arena_limit = ARENA_SIZE / 2;
static size_t arena_full = ARENA_SIZE;

static uint64_t key_masks[TYPES]; /* as melds._key_masks(every_suit=False) */
static int points_of[TYPES];
static PyObject *by_code = NULL;       /* tuple of the 56 Card objects, by code */
static PyObject *code_name = NULL;      /* "code" */
static PyObject *meld_maker = NULL;     /* melds.py's maker: (kind, cards) -> Meld */
static PyObject *meld_cache = NULL;     /* built melds by their packed cards */

/* Emptying is a new generation (benchmarks empty the tables before every hand); the slots are
 * written over only when the counter wraps. */
static void memo_clear(void)
{
    memo_gen++;
    if (memo_gen == 0) {
        if (memo != NULL) {
            memset(memo, 0, MEMO_SLOTS * sizeof(MemoSlot));
        }
        memo_gen = 1;
    }
    memo_count = 0;
}

static void tables_clear(void)
{
    table_gen++;
    if (table_gen == 0) {
        if (tables != NULL) {
            memset(tables, 0, TABLE_SLOTS * sizeof(TableSlot));
        }
        table_gen = 1;
    }
    table_count = 0;
    arena_used = 0;
}

static int ensure_tables(void)
{
    if (memo == NULL) {
        memo = PyMem_RawMalloc(MEMO_SLOTS * sizeof(MemoSlot));
        if (memo == NULL) {
            return -1;
        }
        /* why memset, not calloc: calloc's pages are touched (and faulted in) one by one by
         * the states of the first thousand hands; 4 MB once here is about a millisecond */
        memset(memo, 0, MEMO_SLOTS * sizeof(MemoSlot));
    }
    if (tables == NULL) {
        tables = PyMem_RawMalloc(TABLE_SLOTS * sizeof(TableSlot));
        arena = PyMem_RawMalloc(ARENA_SIZE * sizeof(Option));
        if (tables == NULL || arena == NULL) {
            PyMem_RawFree(tables);
            PyMem_RawFree(arena);
            tables = NULL;
            arena = NULL;
            return -1;
        }
        memset(tables, 0, TABLE_SLOTS * sizeof(TableSlot));
        memset(arena, 0, ARENA_SIZE * sizeof(Option));
    }
    return 0;
}

static inline size_t memo_index(uint64_t lo, uint64_t hi)
{
    uint64_t mixed = (lo ^ (hi * 0xC2B2AE3D27D4EB4FULL)) * 0x9E3779B97F4A7C15ULL;
    return (size_t)(mixed >> (64 - MEMO_BITS));
}

static inline MemoSlot *memo_find(u128 key)
{
    uint64_t lo = (uint64_t)key, hi = (uint64_t)(key >> 64);
    size_t index = memo_index(lo, hi);
    for (;;) {
        MemoSlot *slot = &memo[index];
        if (slot->gen != memo_gen || (slot->lo == lo && slot->hi == hi)) {
            return slot;
        }
        index = (index + 1) & (MEMO_SLOTS - 1);
    }
}

static inline void memo_store(u128 key, int64_t entry)
{
    MemoSlot *slot = memo_find(key);
    if (slot->gen != memo_gen) {
        slot->gen = memo_gen;
        slot->lo = (uint64_t)key;
        slot->hi = (uint64_t)(key >> 64);
        memo_count++;
        if (memo_count >= memo_full) {
            overflow = 1;
        }
    }
    slot->entry = entry;
}

static inline uint64_t tail_of(int wilds, int owed, int melded, int cheap)
{
    if (!wilds) {
        return (uint64_t)owed << 1;
    }
    if (melded || wilds - owed >= 3) {
        return ((uint64_t)wilds << 2) | ((uint64_t)owed << 1) | 1;
    }
    return ((uint64_t)cheap << 7) | ((uint64_t)wilds << 2) | ((uint64_t)owed << 1);
}

static inline int lowest_code(u128 x)
{
    uint64_t lo = (uint64_t)x;
    int bit = lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
    return bit >> 1;
}

static inline unsigned field_at(uint64_t y, int index)
{
    return (unsigned)(y >> (index * WIDTH)) & FIELD;
}

typedef struct {
    int need, size, kind;
    uint64_t sub; /* relative to the lowest card's field */
    int count;
    int8_t codes[5];
} Ranked;

static int ranked_compare(const void *a, const void *b)
{
    const Ranked *left = a, *right = b;
    if (left->need != right->need) {
        return left->need < right->need ? -1 : 1;
    }
    if (left->size != right->size) {
        return left->size > right->size ? -1 : 1; /* more natural cards first */
    }
    if (left->kind != right->kind) {
        return left->kind < right->kind ? -1 : 1; /* books before runs */
    }
    if (left->sub != right->sub) {
        return left->sub < right->sub ? -1 : 1; /* lower other cards first */
    }
    return 0;
}

/* The melds the lowest card ``code`` can start, in tie-break order (melds._build_options). */
static int build_options(int code, uint64_t y, Ranked *ranked)
{
    int rank_end = (code / SUITS + 1) * SUITS;
    int count = 0;
    ranked[count].sub = 1;
    ranked[count].size = 1;
    ranked[count].count = 1;
    ranked[count].codes[0] = (int8_t)code;
    count = 1;
    for (int other = code; other < rank_end; other++) {
        int have = (int)field_at(y, other - code);
        if (other == code) {
            have -= 1;
        }
        uint64_t unit = (uint64_t)1 << ((other - code) * WIDTH);
        int before = count;
        for (int index = 0; index < before; index++) {
            for (int extra = 1; extra <= have; extra++) {
                if (ranked[index].size + extra > 5) {
                    break;
                }
                Ranked *grown = &ranked[count++];
                *grown = ranked[index];
                grown->sub = ranked[index].sub + (uint64_t)extra * unit;
                grown->size = ranked[index].size + extra;
                for (int k = 0; k < extra; k++) {
                    grown->codes[grown->count++] = (int8_t)other;
                }
            }
        }
    }
    for (int index = 0; index < count; index++) {
        ranked[index].need = ranked[index].size < 3 ? 3 - ranked[index].size : 0;
        ranked[index].kind = BOOK;
    }
    int available = 0;
    for (int offset = 1; offset < 5; offset++) {
        if (code + offset * SUITS >= TYPES) {
            break;
        }
        if (field_at(y, offset * SUITS)) {
            available |= 1 << (offset - 1);
        }
    }
    for (int used = 1; used < 16; used++) {
        if (used & ~available) {
            continue;
        }
        int length = 32 - __builtin_clz((unsigned)used);
        int span = length + 1;
        int ones = __builtin_popcount((unsigned)used);
        Ranked *run = &ranked[count++];
        run->need = (span > 3 ? span : 3) - 1 - ones;
        run->size = 1 + ones;
        run->kind = RUN;
        run->sub = 1;
        run->count = 1;
        run->codes[0] = (int8_t)code;
        for (int offset = 1; offset < 5; offset++) {
            if ((used >> (offset - 1)) & 1) {
                run->sub += (uint64_t)1 << (offset * SUITS * WIDTH);
                run->codes[run->count++] = (int8_t)(code + offset * SUITS);
            }
        }
    }
    qsort(ranked, (size_t)count, sizeof(Ranked), ranked_compare);
    return count;
}

/* A new option table in the arena, filed in table slot ``index``; NULL (and ``overflow``) when
 * the tables are full. Never inlined: its 10 KB of scratch must not sit in every frame of the
 * recursive search. */
static NOINLINE const Option *new_options(uint64_t y, int code, uint64_t key, size_t index,
                                          uint32_t *found_count)
{
    Ranked ranked[MAX_OPTIONS];
    int count = build_options(code, y, ranked);
    if (arena_used + (size_t)count > arena_full || table_count + 1 >= table_full) {
        overflow = 1;
        return NULL;
    }
    TableSlot *slot = &tables[index];
    slot->key = key;
    slot->gen = table_gen;
    slot->start = (uint32_t)arena_used;
    slot->count = (uint16_t)count;
    table_count++;
    Option *options = &arena[arena_used];
    arena_used += (size_t)count;
    for (int i = 0; i < count; i++) {
        options[i].sub = (u128)ranked[i].sub << (code * WIDTH);
        options[i].need = (int8_t)ranked[i].need;
        options[i].kind = (int8_t)ranked[i].kind;
        options[i].count = (int8_t)ranked[i].count;
        memcpy(options[i].codes, ranked[i].codes, sizeof(options[i].codes));
    }
    *found_count = (uint32_t)count;
    return options;
}

/* The options of the lowest card of ``x`` (from the tables, built when missing), or NULL when
 * the tables are full (``overflow`` is then set). */
static inline const Option *options_of(u128 x, int code, uint32_t *found_count)
{
    uint64_t y = (uint64_t)(x >> (code * WIDTH)); /* the fields the options read fit 64 bits */
    uint64_t key = ((y & key_masks[code]) << 6) | (uint64_t)code;
    size_t index = (size_t)(((key + 1) * 0x9E3779B97F4A7C15ULL) >> (64 - TABLE_BITS));
    for (;;) {
        TableSlot *slot = &tables[index];
        if (slot->gen != table_gen) {
            break;
        }
        if (slot->key == key) {
            *found_count = slot->count;
            return &arena[slot->start];
        }
        index = (index + 1) & (TABLE_SLOTS - 1);
    }
    return new_options(y, code, key, index, found_count);
}

/* No natural card left: what the wilds left cost (melds._terminal). */
static int64_t terminal(int wilds, int owed, int melded, int cheap)
{
    if (owed) {
        if (wilds == 0) {
            return INF;
        }
        wilds -= 1;
    }
    if (wilds == 0 || wilds >= 3 || melded) {
        return 0;
    }
    if (cheap > wilds) {
        cheap = wilds;
    }
    return 20 * (int64_t)cheap + 50 * (int64_t)(wilds - cheap);
}

/* Least leftover points of a state (melds._value); 0 with ``overflow`` set when a table
 * filled: the caller then starts the call again on empty tables. */
static int64_t value(u128 x, int wilds, int owed, int melded, int cheap)
{
    u128 key = (x << 12) | tail_of(wilds, owed, melded, cheap);
    MemoSlot *slot = memo_find(key);
    if (slot->gen == memo_gen) {
        return slot->entry >> PICK_BITS;
    }
    if (!x) {
        int64_t best = terminal(wilds, owed, melded, cheap);
        memo_store(key, (best << PICK_BITS) | UNKNOWN);
        return best;
    }
    int code = lowest_code(x);
    uint32_t count;
    const Option *options = options_of(x, code, &count);
    if (options == NULL) {
        return 0;
    }
    int64_t best = INF;
    int pick = LEFT_PICK;
    for (uint32_t index = 0; index < count; index++) {
        const Option *option = &options[index];
        if (option->need > wilds) {
            break; /* sorted by wilds needed: no later meld fits either */
        }
        int64_t cost = value(x - option->sub, wilds - option->need, owed, 1, cheap);
        if (overflow) {
            return 0;
        }
        if (cost < best) {
            best = cost;
            pick = (int)index;
            if (cost == 0) {
                break;
            }
        }
    }
    u128 one = (u128)1 << (code * WIDTH);
    if (best && owed) {
        int64_t cost = value(x - one, wilds, 0, melded, cheap);
        if (overflow) {
            return 0;
        }
        if (cost < best) {
            best = cost;
            pick = DISCARD_PICK;
        }
    }
    if (best > points_of[code]) { /* leaving the card over costs at least its points */
        int64_t cost = points_of[code] + value(x - one, wilds, owed, melded, cheap);
        if (overflow) {
            return 0;
        }
        if (cost < best) {
            best = cost;
            pick = LEFT_PICK;
        }
    }
    memo_store(key, (best << PICK_BITS) | pick);
    return best;
}

/* --- reading a hand ------------------------------------------------------------------ */

typedef struct {
    u128 x;
    int wilds, cheap;
    int pool[MAX_WILDS + 1]; /* wild codes in the order melds use them: jokers, then by suit */
} Hand;

static PyObject *card_by_pointer[128]; /* the 56 deck cards, by pointer hash */
static int code_by_pointer[128];

static inline size_t pointer_index(PyObject *card)
{
    return (size_t)((((uintptr_t)card >> 4) * 0x9E3779B97F4A7C15ULL) >> 57);
}

static int read_code(PyObject *card)
{
    size_t index = pointer_index(card);
    for (int step = 0; step < 128; step++) {
        PyObject *known = card_by_pointer[index];
        if (known == card) {
            return code_by_pointer[index];
        }
        if (known == NULL) {
            break;
        }
        index = (index + 1) & 127;
    }
    PyObject *attribute = PyObject_GetAttr(card, code_name);
    if (attribute == NULL) {
        return -1;
    }
    long code = PyLong_AsLong(attribute);
    Py_DECREF(attribute);
    if (code == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (code < 0 || code > JOKER_CODE) {
        PyErr_SetString(PyExc_ValueError, "a card code is 0 to 55");
        return -1;
    }
    return (int)code;
}

static int compare_ints(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* 1: read; 0: outside what the fast form holds (the reference solver takes it); -1: error. */
static int read_hand(PyObject *cards, int low, Hand *hand)
{
    if (by_code == NULL || meld_cache == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "fivecrowns.core.melds._melds_c.setup was not called");
        return -1;
    }
    PyObject *sequence = PySequence_Fast(cards, "the cards are a sequence");
    if (sequence == NULL) {
        return -1;
    }
    Py_ssize_t length = PySequence_Fast_GET_SIZE(sequence);
    PyObject **items = PySequence_Fast_ITEMS(sequence);
    u128 x = 0;
    int jokers = 0, cheap = 0;
    int cheap_codes[MAX_WILDS + 1];
    int result = 1;
    for (Py_ssize_t i = 0; i < length; i++) {
        int code = read_code(items[i]);
        if (code < 0) {
            result = -1;
            break;
        }
        if (code == JOKER_CODE || (low <= code && code < low + SUITS)) {
            if (jokers + cheap >= MAX_WILDS) {
                result = 0;
                break;
            }
            if (code == JOKER_CODE) {
                jokers++;
            } else {
                cheap_codes[cheap++] = code;
            }
        } else {
            int shift = code * WIDTH;
            if (((unsigned)(x >> shift) & FIELD) == FIELD) {
                result = 0;
                break;
            }
            x += (u128)1 << shift;
        }
    }
    Py_DECREF(sequence);
    if (result != 1) {
        return result;
    }
    qsort(cheap_codes, (size_t)cheap, sizeof(int), compare_ints);
    hand->x = x;
    hand->wilds = jokers + cheap;
    hand->cheap = cheap;
    for (int i = 0; i < jokers; i++) {
        hand->pool[i] = JOKER_CODE;
    }
    for (int i = 0; i < cheap; i++) {
        hand->pool[jokers + i] = cheap_codes[i];
    }
    return 1;
}

static int parse_low(int wild_rank)
{
    return (wild_rank - 3) * SUITS;
}

/* Before a call: make the tables, and empty those that are full. */
static int prepare(void)
{
    if (ensure_tables() < 0) {
        PyErr_NoMemory();
        return -1;
    }
    if (memo_count > memo_limit) {
        memo_clear();
    }
    if (table_count > table_limit || arena_used > arena_limit) {
        tables_clear();
    }
    overflow = 0;
    return 0;
}

/* A value, started again on empty tables once if a table filled; 0 in ``*ok`` when even that
 * overflows (the caller then takes the pure-Python path). */
static int64_t solved_value(u128 x, int wilds, int owed, int melded, int cheap, int *ok)
{
    int64_t best = value(x, wilds, owed, melded, cheap);
    if (overflow) {
        memo_clear();
        tables_clear();
        overflow = 0;
        best = value(x, wilds, owed, melded, cheap);
    }
    *ok = !overflow;
    overflow = 0;
    return best;
}

/* --- the module's functions ------------------------------------------------------------ */

static PyObject *melds_setup(PyObject *module, PyObject *args)
{
    PyObject *cards, *maker;
    if (!PyArg_ParseTuple(args, "OO", &cards, &maker)) {
        return NULL;
    }
    if (!PyCallable_Check(maker)) {
        PyErr_SetString(PyExc_TypeError, "setup takes a maker of melds");
        return NULL;
    }
    if (!PyTuple_Check(cards) || PyTuple_GET_SIZE(cards) != TYPES + 1) {
        PyErr_SetString(PyExc_TypeError, "setup takes the tuple of the 56 cards by code");
        return NULL;
    }
    Py_XSETREF(by_code, Py_NewRef(cards));
    Py_XSETREF(meld_maker, Py_NewRef(maker));
    if (meld_cache == NULL) {
        meld_cache = PyDict_New();
        if (meld_cache == NULL) {
            return NULL;
        }
    }
    PyDict_Clear(meld_cache);
    memset(card_by_pointer, 0, sizeof(card_by_pointer));
    for (int code = 0; code <= TYPES; code++) {
        PyObject *card = PyTuple_GET_ITEM(cards, code);
        size_t index = pointer_index(card);
        while (card_by_pointer[index] != NULL) {
            index = (index + 1) & 127;
        }
        card_by_pointer[index] = card;
        code_by_pointer[index] = code;
    }
    Py_RETURN_NONE;
}

static int parse_call(PyObject *args, PyObject **cards, int *wild_rank, int *owed)
{
    if (!PyArg_ParseTuple(args, "Oii", cards, wild_rank, owed)) {
        return -1;
    }
    if (*wild_rank < 3 || *wild_rank > 13) {
        PyErr_SetString(PyExc_ValueError, "the wild rank is 3 to 13");
        return -1;
    }
    *owed = *owed ? 1 : 0;
    return 0;
}

/* least(cards, wild_rank, owed) -> int, or None for the pure-Python path */
static PyObject *melds_least(PyObject *module, PyObject *args)
{
    PyObject *cards;
    int wild_rank, owed;
    Hand hand;
    if (parse_call(args, &cards, &wild_rank, &owed) < 0) {
        return NULL;
    }
    int read = read_hand(cards, parse_low(wild_rank), &hand);
    if (read < 0) {
        return NULL;
    }
    if (read == 0) {
        Py_RETURN_NONE;
    }
    if (prepare() < 0) {
        return NULL;
    }
    int ok;
    int64_t best = solved_value(hand.x, hand.wilds, owed, 0, hand.cheap, &ok);
    if (!ok) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLongLong(best);
}

/* going_out(cards, wild_rank) -> tuple of the distinct cards whose discard lets the hand go
 * out, in card order, or None for the pure-Python path (melds.going_out_discards). */
static PyObject *melds_going_out(PyObject *module, PyObject *args)
{
    PyObject *cards;
    int wild_rank, owed;
    Hand hand;
    if (parse_call(args, &cards, &wild_rank, &owed) < 0) {
        return NULL;
    }
    int read = read_hand(cards, parse_low(wild_rank), &hand);
    if (read < 0) {
        return NULL;
    }
    if (read == 0) {
        Py_RETURN_NONE;
    }
    if (prepare() < 0) {
        return NULL;
    }
    int ok;
    if (hand.x == 0 && hand.wilds == 0) {
        return PyTuple_New(0);
    }
    if (solved_value(hand.x, hand.wilds, 1, 0, hand.cheap, &ok) != 0 || !ok) {
        if (!ok) {
            Py_RETURN_NONE;
        }
        return PyTuple_New(0);
    }
    int found[TYPES + 1];
    int count = 0;
    for (int code = 0; code < TYPES; code++) {
        if (((unsigned)(hand.x >> (code * WIDTH)) & FIELD) == 0) {
            continue;
        }
        if (solved_value(hand.x - ((u128)1 << (code * WIDTH)), hand.wilds, 0, 0, hand.cheap, &ok) == 0) {
            found[count++] = code;
        }
        if (!ok) {
            Py_RETURN_NONE;
        }
    }
    if (hand.wilds) {
        /* any wild is as good as any other for going out: an unneeded wild costs nothing */
        int wild_ok = solved_value(hand.x, hand.wilds - 1, 0, 0, hand.cheap, &ok) == 0;
        if (!ok) {
            Py_RETURN_NONE;
        }
        if (wild_ok) {
            int last = -1;
            for (int i = 0; i < hand.wilds; i++) {
                if (hand.pool[i] != last) {
                    found[count++] = hand.pool[i];
                    last = hand.pool[i];
                }
            }
        }
    }
    qsort(found, (size_t)count, sizeof(int), compare_ints);
    PyObject *result = PyTuple_New(count);
    if (result == NULL) {
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        PyTuple_SET_ITEM(result, i, Py_NewRef(PyTuple_GET_ITEM(by_code, found[i])));
    }
    return result;
}

typedef struct {
    int kind;
    int count;
    int codes[5];
    int first, used; /* the wilds it takes: pool[first : first + used] */
} Built;

#define MELDS_LIMIT 16384 /* built melds kept (melds._MELDS_LIMIT) */

/* The Meld of these cards: from the kept ones, else built in check_meld's card order (a
 * book's naturals, then its wilds by code; a run's cards in the order of the ranks they stand
 * for, as melds._run_cards places them) and made by melds.py's maker. */
static PyObject *built_meld(const Built *meld, const int *pool, const int *extra, int extras)
{
    int wilds[MAX_WILDS + 1];
    int count = 0;
    for (int i = 0; i < meld->used; i++) {
        wilds[count++] = pool[meld->first + i];
    }
    for (int i = 0; i < extras; i++) {
        wilds[count++] = extra[i];
    }
    qsort(wilds, (size_t)count, sizeof(int), compare_ints);
    int total = meld->count + count;
    /* the key: a leading 1 (so that a first code 0 still counts), the kind, how many
     * naturals, then every code; up to 9 cards fit 64 bits */
    PyObject *key = NULL;
    if (total <= 9) {
        uint64_t packed = ((uint64_t)1 << 5) | ((uint64_t)meld->kind << 4) | (uint64_t)meld->count;
        for (int i = 0; i < meld->count; i++) {
            packed = (packed << 6) | (uint64_t)meld->codes[i];
        }
        for (int i = 0; i < count; i++) {
            packed = (packed << 6) | (uint64_t)wilds[i];
        }
        key = PyLong_FromUnsignedLongLong(packed);
        if (key == NULL) {
            return NULL;
        }
        PyObject *found = PyDict_GetItemWithError(meld_cache, key);
        if (found != NULL) {
            Py_DECREF(key);
            return Py_NewRef(found);
        }
        if (PyErr_Occurred()) {
            Py_DECREF(key);
            return NULL;
        }
    }
    int order[MAX_WILDS + 6];
    if (meld->kind == RUN) {
        int places[MAX_WILDS + 6];
        int start = meld->codes[0] / SUITS + 3;
        if (13 - total + 1 < start) {
            start = 13 - total + 1;
        }
        int taken[16] = {0};
        for (int i = 0; i < meld->count; i++) {
            places[i] = meld->codes[i] / SUITS + 3;
            taken[places[i]] = 1;
        }
        int suit = meld->codes[0] % SUITS;
        for (int i = 0; i < count; i++) { /* a card of the wild rank in its own place */
            int rank = wilds[i] / SUITS + 3;
            int own = wilds[i] != JOKER_CODE && wilds[i] % SUITS == suit && rank >= start &&
                      rank < start + total && !taken[rank];
            places[meld->count + i] = own ? rank : 0;
            if (own) {
                taken[rank] = 1;
            }
        }
        int next = start;
        for (int i = 0; i < count; i++) { /* the other wilds fill the free places upward */
            if (places[meld->count + i] == 0) {
                while (taken[next]) {
                    next++;
                }
                places[meld->count + i] = next;
                taken[next] = 1;
            }
        }
        for (int i = 0; i < total; i++) {
            order[places[i] - start] = i < meld->count ? meld->codes[i] : wilds[i - meld->count];
        }
    } else {
        for (int i = 0; i < meld->count; i++) {
            order[i] = meld->codes[i];
        }
        for (int i = 0; i < count; i++) {
            order[meld->count + i] = wilds[i];
        }
    }
    PyObject *cards = PyTuple_New(total);
    if (cards == NULL) {
        Py_XDECREF(key);
        return NULL;
    }
    for (int i = 0; i < total; i++) {
        PyTuple_SET_ITEM(cards, i, Py_NewRef(PyTuple_GET_ITEM(by_code, order[i])));
    }
    PyObject *made = PyObject_CallFunction(meld_maker, "iN", meld->kind, cards);
    if (made == NULL || key == NULL) {
        Py_XDECREF(key);
        return made;
    }
    if (PyDict_GET_SIZE(meld_cache) >= MELDS_LIMIT) {
        PyDict_Clear(meld_cache);
    }
    int stored = PyDict_SetItem(meld_cache, key, made);
    Py_DECREF(key);
    if (stored < 0) {
        Py_DECREF(made);
        return NULL;
    }
    return made;
}

/* arrange(cards, wild_rank, owed) -> (melds, leftover cards, discard card or None), or
 * None for the pure-Python path (melds._rebuild does the same walk). */
static PyObject *melds_arrange(PyObject *module, PyObject *args)
{
    PyObject *cards;
    int wild_rank, owed;
    Hand hand;
    if (parse_call(args, &cards, &wild_rank, &owed) < 0) {
        return NULL;
    }
    int read = read_hand(cards, parse_low(wild_rank), &hand);
    if (read < 0) {
        return NULL;
    }
    if (read == 0) {
        Py_RETURN_NONE;
    }
    if (prepare() < 0) {
        return NULL;
    }
    int ok;
    solved_value(hand.x, hand.wilds, owed, 0, hand.cheap, &ok);
    if (!ok) {
        Py_RETURN_NONE;
    }
    /* at most 3 of each of 55 natural cards and 31 wilds (read_hand): bounds that always hold */
    Built melds[TYPES + 2];
    int meld_count = 0;
    int leftover[TYPES * 3 + MAX_WILDS + 1];
    int leftover_count = 0;
    int discard = -1;
    u128 x = hand.x;
    int left = hand.wilds, melded = 0, total = hand.wilds;
    while (x) {
        u128 key = (x << 12) | tail_of(left, owed, melded, hand.cheap);
        MemoSlot *slot = memo_find(key);
        if (slot->gen != memo_gen) { /* every state on the way was solved; this is a guard */
            value(x, left, owed, melded, hand.cheap);
            if (overflow) {
                overflow = 0;
                Py_RETURN_NONE;
            }
            slot = memo_find(key);
        }
        int pick = (int)(slot->entry & UNKNOWN);
        int code = lowest_code(x);
        if (pick < LEFT_PICK) {
            uint32_t count;
            const Option *options = options_of(x, code, &count);
            if (options == NULL || (uint32_t)pick >= count || meld_count >= TYPES + 1) {
                overflow = 0;
                Py_RETURN_NONE;
            }
            const Option *option = &options[pick];
            Built *meld = &melds[meld_count++];
            meld->kind = option->kind;
            meld->count = option->count;
            for (int i = 0; i < option->count; i++) {
                meld->codes[i] = option->codes[i];
            }
            meld->first = total - left;
            meld->used = option->need;
            left -= option->need;
            melded = 1;
            x -= option->sub;
        } else if (pick == DISCARD_PICK) {
            discard = code;
            owed = 0;
            x -= (u128)1 << (code * WIDTH);
        } else {
            if (leftover_count >= TYPES * 3) {
                Py_RETURN_NONE;
            }
            leftover[leftover_count++] = code;
            x -= (u128)1 << (code * WIDTH);
        }
    }
    int unused[MAX_WILDS + 1];
    int unused_count = 0;
    for (int i = total - left; i < total; i++) {
        unused[unused_count++] = hand.pool[i];
    }
    int first_unused = 0;
    if (owed) {
        if (unused_count == 0) {
            Py_RETURN_NONE; /* no card to discard: the pure-Python path says so */
        }
        discard = unused[0];
        first_unused = 1;
    }
    int spare = unused_count - first_unused;
    int wild_meld = 0;
    if (spare >= 3) {
        Built *meld = &melds[meld_count++];
        meld->kind = BOOK;
        meld->count = 0;
        meld->first = total - left + first_unused;
        meld->used = spare;
        wild_meld = 1;
    } else if (spare && meld_count) {
        /* joins the first meld made (melds._rebuild) */
    } else {
        for (int i = first_unused; i < unused_count; i++) {
            leftover[leftover_count++] = unused[i];
        }
    }
    qsort(leftover, (size_t)leftover_count, sizeof(int), compare_ints);
    PyObject *keys = PyTuple_New(meld_count);
    PyObject *rest = PyTuple_New(leftover_count);
    if (keys == NULL || rest == NULL) {
        Py_XDECREF(keys);
        Py_XDECREF(rest);
        return NULL;
    }
    for (int i = 0; i < meld_count; i++) {
        int joins = (i == 0 && !wild_meld && spare > 0 && spare < 3);
        PyObject *key = built_meld(&melds[i], hand.pool, &unused[first_unused], joins ? spare : 0);
        if (key == NULL) {
            Py_DECREF(keys);
            Py_DECREF(rest);
            return NULL;
        }
        PyTuple_SET_ITEM(keys, i, key);
    }
    for (int i = 0; i < leftover_count; i++) {
        PyTuple_SET_ITEM(rest, i, Py_NewRef(PyTuple_GET_ITEM(by_code, leftover[i])));
    }
    PyObject *discard_card = discard < 0 ? Py_None : PyTuple_GET_ITEM(by_code, discard);
    return Py_BuildValue("(NNO)", keys, rest, discard_card);
}

/* clear(tables) -> None: forget every solved state; with ``tables``, the option tables too. */
static PyObject *melds_clear(PyObject *module, PyObject *arg)
{
    int tables_too = PyObject_IsTrue(arg);
    if (tables_too < 0) {
        return NULL;
    }
    memo_clear();
    if (tables_too) {
        tables_clear();
        if (meld_cache != NULL) {
            PyDict_Clear(meld_cache);
        }
    }
    Py_RETURN_NONE;
}

/* sizes() -> (memo states, option tables, options): for tests and benchmarks. */
static PyObject *melds_sizes(PyObject *module, PyObject *unused)
{
    return Py_BuildValue("(nnn)", (Py_ssize_t)memo_count, (Py_ssize_t)table_count,
                         (Py_ssize_t)arena_used);
}

/* limits(memo limit, memo full, tables limit, tables full, options limit, options full), all
 * 0 for the defaults: for the tests of emptying and starting again. */
static PyObject *melds_limits(PyObject *module, PyObject *args)
{
    Py_ssize_t values[6];
    if (!PyArg_ParseTuple(args, "nnnnnn", &values[0], &values[1], &values[2], &values[3],
                          &values[4], &values[5])) {
        return NULL;
    }
    size_t defaults[6] = {MEMO_SLOTS / 2, MEMO_SLOTS / 4 * 3, TABLE_SLOTS / 2,
                          TABLE_SLOTS / 4 * 3, ARENA_SIZE / 2, ARENA_SIZE};
    size_t chosen[6];
    for (int i = 0; i < 6; i++) {
        if (values[i] < 0 || (size_t)values[i] > defaults[i]) {
            PyErr_SetString(PyExc_ValueError, "a limit is 0 (the default) to the default");
            return NULL;
        }
        chosen[i] = values[i] ? (size_t)values[i] : defaults[i];
    }
    memo_limit = chosen[0];
    memo_full = chosen[1];
    table_limit = chosen[2];
    table_full = chosen[3];
    arena_limit = chosen[4];
    arena_full = chosen[5];
    memo_clear();
    tables_clear();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"limits", melds_limits, METH_VARARGS,
     "limits(memo limit, memo full, tables limit, tables full, options limit, options full)."},
    {"setup", melds_setup, METH_VARARGS,
     "setup(cards, maker): the 56 cards by code, and (kind, cards) -> Meld."},
    {"least", melds_least, METH_VARARGS,
     "least(cards, wild_rank, owed): least leftover points, or None (pure-Python path)."},
    {"arrange", melds_arrange, METH_VARARGS,
     "arrange(cards, wild_rank, owed): (melds, leftover cards, discard), or None."},
    {"going_out", melds_going_out, METH_VARARGS,
     "going_out(cards, wild_rank, 1): the cards whose discard goes out, or None."},
    {"clear", melds_clear, METH_O, "clear(tables): forget solved states (and tables)."},
    {"sizes", melds_sizes, METH_NOARGS, "sizes(): (memo states, option tables, options)."},
    {NULL, NULL, 0, NULL},
};

static void module_free(void *unused)
{
    PyMem_RawFree(memo);
    PyMem_RawFree(tables);
    PyMem_RawFree(arena);
    memo = NULL;
    tables = NULL;
    arena = NULL;
    Py_CLEAR(by_code);
    Py_CLEAR(code_name);
    Py_CLEAR(meld_maker);
    Py_CLEAR(meld_cache);
}

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "fivecrowns.core.melds._melds_c",
    "The exact solver's search, compiled (see fivecrowns.core.melds.solver and docs/solver.md).", -1,
    methods, NULL, NULL, NULL, module_free,
};

PyMODINIT_FUNC PyInit__melds_c(void)
{
    for (int code = 0; code < TYPES; code++) {
        int rank_end = (code / SUITS + 1) * SUITS;
        uint64_t mask = ((uint64_t)1 << ((rank_end - code) * WIDTH)) - 1;
        for (int offset = 1; offset < 5; offset++) {
            if (code + offset * SUITS < TYPES) {
                mask |= (uint64_t)FIELD << ((offset * SUITS) * WIDTH);
            }
        }
        key_masks[code] = mask;
        points_of[code] = code / SUITS + 3;
    }
    code_name = PyUnicode_InternFromString("code");
    if (code_name == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&module_definition);
    if (module == NULL) {
        return NULL;
    }
#ifndef SOURCE_SHA256
#define SOURCE_SHA256 "unknown"
#endif
    if (PyModule_AddStringConstant(module, "SOURCE_SHA256", SOURCE_SHA256) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
