# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled hot path: strength keys of 3- and 5-card rows.

Cards are codes 0..51: ``rank_index = code // 4`` (0 = deuce .. 12 = ace) and
``suit = code % 4``.  Keys follow :mod:`solver.hands` exactly (the Python module is
the reference; tests compare the two on every 5-card class they can reach).
"""

from libc.stdint cimport int32_t, int64_t, uint64_t

cdef enum:
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8


cdef inline int32_t pack(int32_t cat, int32_t* d, int n) noexcept nogil:
    cdef int32_t key = cat
    cdef int i
    for i in range(5):
        key = (key << 5) | (d[i] if i < n else 0)
    return key


cdef int32_t key5_c(const int* codes, bint wheel_second) noexcept nogil:
    """Key of five distinct cards given as codes 0..51."""
    cdef int counts[13]
    cdef int32_t digits[5]
    cdef int i, r, c, n = 0, suit0 = codes[0] & 3
    cdef bint flush = True
    cdef int rankbits = 0
    cdef int maxc = 0, pairs = 0, top
    for i in range(13):
        counts[i] = 0
    for i in range(5):
        r = codes[i] >> 2
        counts[r] += 1
        rankbits |= 1 << r
        if (codes[i] & 3) != suit0:
            flush = False
    # straight detection on the 13-bit rank set
    top = -1
    if rankbits == 0x100F:  # A-2-3-4-5
        top = -2
    else:
        for r in range(12, 3, -1):
            if (rankbits >> (r - 4)) & 0x1F == 0x1F:
                top = r
                break
    if top != -1:
        if top == -2:
            digits[0] = 25 if wheel_second else 8
        else:
            digits[0] = 2 * (top + 1)
        return pack(STRAIGHT_FLUSH if flush else STRAIGHT, digits, 1)
    # group ranks by multiplicity desc, then rank desc
    for c in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == c:
                for i in range(c):
                    digits[n] = r + 1
                    n += 1
    for r in range(13):
        if counts[r] > maxc:
            maxc = counts[r]
        if counts[r] == 2:
            pairs += 1
    if maxc == 4:
        return pack(QUADS, digits, 5)
    if maxc == 3 and pairs == 1:
        return pack(FULL_HOUSE, digits, 5)
    if flush:
        return pack(FLUSH, digits, 5)
    if maxc == 3:
        return pack(TRIPS, digits, 5)
    if pairs == 2:
        return pack(TWO_PAIR, digits, 5)
    if pairs == 1:
        return pack(PAIR, digits, 5)
    return pack(HIGH_CARD, digits, 5)


cdef int32_t key3_c(const int* codes) noexcept nogil:
    """Key of three distinct cards (straights and flushes do not count)."""
    cdef int a = codes[0] >> 2, b = codes[1] >> 2, c = codes[2] >> 2, t
    cdef int32_t digits[3]
    # sort descending
    if a < b:
        t = a; a = b; b = t
    if b < c:
        t = b; b = c; c = t
    if a < b:
        t = a; a = b; b = t
    if a == c:
        digits[0] = a + 1; digits[1] = a + 1; digits[2] = a + 1
        return pack(TRIPS, digits, 3)
    if a == b:
        digits[0] = a + 1; digits[1] = a + 1; digits[2] = c + 1
        return pack(PAIR, digits, 3)
    if b == c:
        digits[0] = b + 1; digits[1] = b + 1; digits[2] = a + 1
        return pack(PAIR, digits, 3)
    digits[0] = a + 1; digits[1] = b + 1; digits[2] = c + 1
    return pack(HIGH_CARD, digits, 3)


def key5(codes, bint wheel_second=True):
    """Strength key of five card codes (test shim over the C routine)."""
    cdef int buf[5]
    cdef int i
    if len(codes) != 5:
        raise ValueError(f"key5 needs 5 card codes, got {len(codes)}")
    for i in range(5):
        buf[i] = codes[i]
    return key5_c(buf, wheel_second)


def key_parts(key):
    """The two hand-term parts (top, next) of a row key (test shim over _key_parts)."""
    cdef int top, nxt
    _key_parts(key, &top, &nxt)
    return top, nxt


def key3(codes):
    """Strength key of three card codes (test shim over the C routine)."""
    cdef int buf[3]
    cdef int i
    if len(codes) != 3:
        raise ValueError(f"key3 needs 3 card codes, got {len(codes)}")
    for i in range(3):
        buf[i] = codes[i]
    return key3_c(buf)


# ======================================================================================
# Split enumeration and table EV (issue 3).
#
# Hand-strength classes.  A row's strength depends only on its rank multiset and on
# whether it is a flush, so a class is the colex index of the row's ranks taken as a
# non-decreasing sequence r0 <= r1 <= ... (index = sum_j C(r_j + j, j + 1)), plus
# N5 for a 5-card flush.  Front classes: 0..454 (C(15,3)); 5-card classes: 0..6187
# non-flush, 6188..12375 flush (C(17,5) = 6188).  Impossible classes (five of a kind,
# flushes with repeated ranks) have key -1.
#
# Local layout.  A hand's 13 codes are sorted ascending, so the ranks of any subset
# taken in position order are already non-decreasing.  The 1,287 five-card and 286
# three-card subsets of positions 0..12 are listed once at import; SPLIT_M / SPLIT_F
# give, for each back subset, the 56 (middle, front) subset pairs of the other 8 cards.
# ======================================================================================

from libc.math cimport INFINITY
from libc.stdlib cimport free, malloc, qsort
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec
from libc.string cimport memset
cimport numpy as cnp
import numpy as np

cnp.import_array()

DEF N3 = 455
DEF N5 = 6188
DEF NC5 = 12376
DEF NSUB5 = 1287
DEF NSUB3 = 286
DEF NMID = 56
DEF MAXTOP = 64
DEF NBEST = 16
DEF FWORDS = 5                # 64-bit words of a bit per 3-card subset (NSUB3 = 286)
DEF NBUCKET = 64
# Card-removal terms of one hand (solver.removal, "hand terms"): for each row, a value per
# part of a row's key (_key_parts), its top part (category and top rank) and its next part
# (category and the rank after the top), so 9 x 13 = 117 of each; they are linear in
# NHFEAT features of my 13 cards (13 rank counts, the largest and the second largest suit
# count, and 1).
DEF TERM_TAGS = 117
DEF NHTERM = 702                 # 3 rows x 2 parts x TERM_TAGS; a row's parts start at 2 * TERM_TAGS * row
DEF NHFEAT = 16
# The re-ranking (see _rerank): NRERANK features of a split, and how many of the best splits
# by the objective it re-ranks.
DEF NRERANK = 18
DEF RERANK_K = 8
DEF LIN_ROUNDING = 1e-9          # what a bound on part of the objective is widened by against rounding

cdef int BINOM[24][8]
cdef int C5POS[5][13]
cdef int C3POS[3][13]
cdef unsigned char SUB5[NSUB5][5]
cdef unsigned char SUB3[NSUB3][3]
cdef short MASK2SUB5[8192]
cdef short MASK2SUB3[8192]
cdef short SPLIT_M[NSUB5][NMID]
cdef short SPLIT_F[NSUB5][NMID]
cdef int32_t CLASS_KEY5[2][NC5]   # [wheel_second][class]
cdef int32_t CLASS_KEY3[N3]
cdef short ORDER3[N3]            # [3-card class]: how many classes have a higher key
cdef short DENSE5[2][NC5]        # [wheel_second] 5-card class -> its strength rank among the
                                 # 7,462 possible classes = row of the compact tables (-1: impossible)
cdef int NDENSE5 = 0
DEF NRANK5 = 7462
DEF RANK_SHIFT = 6               # backs are bucketed by strength rank >> RANK_SHIFT
DEF NRBUCKET = (NRANK5 >> RANK_SHIFT) + 1
cdef short PARTS5[2][NRANK5][2]  # [wheel_second][strength rank]: the class's term parts (_key_parts)
cdef short PARTS3[N3][2]         # [3-card class]: the same


ctypedef struct Row:
    # One row class against the field, what the objective reads of it (one 64-byte
    # cache line): win / loss probability, p ** gamma_win (this row's factor of
    # P(I win all three rows)), q ** gamma_lose (its factor of P(I lose all three)), my
    # chi value when I win, p*v - L (L: expected chi lost in this row), and L / q (the
    # expected chi the opponent's row is worth when it beats mine).
    double p
    double q
    double pg
    double qg
    double v
    double lin
    double Lq
    double pad


ctypedef struct Bound:
    # The same entries for the pruning bound, over every class no stronger than this one:
    # v and lin from the running maximum of v, Lq the running minimum of L / q (it need
    # not fall with strength).  Single precision (two classes per cache line, so the
    # bound tables stay in cache), each entry rounded toward a larger bound: win chances
    # and values up, loss chances and chi lost down.
    float p
    float q
    float pg
    float qg
    float v
    float lin
    float Lq
    float pad


ctypedef fused RowT:
    Row
    Bound


ctypedef struct Tables:
    const Row* F       # front classes (455)
    const Row* M       # possible 5-card classes (7,462), see DENSE5
    const Row* B
    const Bound* bF
    const Bound* bM
    const Bound* bB
    const float* W     # hand-term weights (NHFEAT, NHTERM), NULL when the model has none
    const double* R    # re-ranking weights (NRERANK,), NULL when the model has none
    double margin      # how far below the objective's best a split the re-ranking picks can lie


ctypedef struct Params:
    double nopp      # opponents
    double A         # sweep_mult - 1
    double sm        # sweep_mult
    double sb        # sweep_bonus
    double mb        # majority_bonus
    double slm1      # sap_lang_mult - 1 when sập làng applies, else 0
    double sfield    # P(a field hand scoops another field hand) ** (nopp - 1)
    int strict
    int wheel_second


cdef int _cmp_int64(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const int64_t*> a)[0], y = (<const int64_t*> b)[0]
    return (x > y) - (x < y)


cdef void _init_tables() noexcept nogil:
    cdef int n, k, i, a, b, c, d, e, s, j, mask, cnt, x, y, z
    cdef int rest[8]
    cdef int codes[5]
    cdef int r[5]
    for n in range(24):
        for k in range(8):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]
    for j in range(5):
        for i in range(13):
            C5POS[j][i] = BINOM[i + j][j + 1]
    for j in range(3):
        for i in range(13):
            C3POS[j][i] = BINOM[i + j][j + 1]
    for i in range(8192):
        MASK2SUB5[i] = -1
        MASK2SUB3[i] = -1
    s = 0
    for a in range(13):
        for b in range(a + 1, 13):
            for c in range(b + 1, 13):
                for d in range(c + 1, 13):
                    for e in range(d + 1, 13):
                        SUB5[s][0] = a; SUB5[s][1] = b; SUB5[s][2] = c; SUB5[s][3] = d; SUB5[s][4] = e
                        MASK2SUB5[(1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)] = s
                        s += 1
    s = 0
    for a in range(13):
        for b in range(a + 1, 13):
            for c in range(b + 1, 13):
                SUB3[s][0] = a; SUB3[s][1] = b; SUB3[s][2] = c
                MASK2SUB3[(1 << a) | (1 << b) | (1 << c)] = s
                s += 1
    for s in range(NSUB5):
        mask = 0
        for j in range(5):
            mask |= 1 << SUB5[s][j]
        cnt = 0
        for i in range(13):
            if not (mask >> i) & 1:
                rest[cnt] = i
                cnt += 1
        j = 0
        for x in range(8):
            for y in range(x + 1, 8):
                for z in range(y + 1, 8):
                    # front = rest[x], rest[y], rest[z]; middle = the other five
                    SPLIT_F[s][j] = MASK2SUB3[(1 << rest[x]) | (1 << rest[y]) | (1 << rest[z])]
                    SPLIT_M[s][j] = MASK2SUB5[8191 & ~mask & ~((1 << rest[x]) | (1 << rest[y]) | (1 << rest[z]))]
                    j += 1
    # class keys: every non-decreasing rank sequence, suits chosen to (not) flush
    for i in range(NC5):
        CLASS_KEY5[0][i] = -1
        CLASS_KEY5[1][i] = -1
    for r[0] in range(13):
        for r[1] in range(r[0], 13):
            for r[2] in range(r[1], 13):
                for r[3] in range(r[2], 13):
                    for r[4] in range(r[3], 13):
                        if r[0] == r[4]:
                            continue
                        k = 0
                        for j in range(5):
                            k += C5POS[j][r[j]]
                            codes[j] = r[j] * 4 + (j & 3)
                        CLASS_KEY5[0][k] = key5_c(codes, False)
                        CLASS_KEY5[1][k] = key5_c(codes, True)
                        if r[0] < r[1] and r[1] < r[2] and r[2] < r[3] and r[3] < r[4]:
                            for j in range(5):
                                codes[j] = r[j] * 4
                            CLASS_KEY5[0][N5 + k] = key5_c(codes, False)
                            CLASS_KEY5[1][N5 + k] = key5_c(codes, True)
    global NDENSE5
    for i in range(NC5):
        NDENSE5 += CLASS_KEY5[1][i] >= 0
    cdef int64_t order[NC5]
    for s in range(2):
        # rank = position in key order among the possible classes (their keys all differ)
        n = 0
        for i in range(NC5):
            DENSE5[s][i] = -1
            if CLASS_KEY5[s][i] >= 0:
                order[n] = (<int64_t> CLASS_KEY5[s][i] << 16) | i
                n += 1
        qsort(order, n, sizeof(int64_t), _cmp_int64)
        for i in range(n):
            DENSE5[s][order[i] & 0xFFFF] = i
    for r[0] in range(13):
        for r[1] in range(r[0], 13):
            for r[2] in range(r[1], 13):
                k = C3POS[0][r[0]] + C3POS[1][r[1]] + C3POS[2][r[2]]
                for j in range(3):
                    codes[j] = r[j] * 4 + j
                CLASS_KEY3[k] = key3_c(codes)
    for i in range(N3):
        ORDER3[i] = 0
        for j in range(N3):
            ORDER3[i] += CLASS_KEY3[j] > CLASS_KEY3[i]
    cdef int top, nxt
    for s in range(2):
        for i in range(NC5):
            if DENSE5[s][i] >= 0:
                _key_parts(CLASS_KEY5[s][i], &top, &nxt)
                PARTS5[s][DENSE5[s][i]][0] = top
                PARTS5[s][DENSE5[s][i]][1] = nxt
    for i in range(N3):
        _key_parts(CLASS_KEY3[i], &top, &nxt)
        PARTS3[i][0] = top
        PARTS3[i][1] = nxt


_init_tables()


# ---- per-hand subset evaluation -------------------------------------------------------

ctypedef struct HandEval:
    int codes[13]            # sorted ascending
    int cls5[NSUB5]          # strength rank = row of the compact 5-card tables (see DENSE5)
    int32_t key5[NSUB5]
    int cls3[NSUB3]
    int32_t key3[NSUB3]
    int nbest5
    int best5[NBEST]         # strongest 5-card subsets, strongest first
    int fronts[NSUB3]        # every 3-card subset, strongest first
    int32_t fkeys[NSUB3]     # their keys
    uint64_t fholds[13][FWORDS]  # [card position]: which fronts hold the card (bit i of word w:
                                 # fronts[64 w + i]; the bits past the last front are set for every card)
    int rhead[NRBUCKET]      # 5-card subsets in buckets of strength rank (cls5 >> RANK_SHIFT),
    int rnext[NSUB5]         # each a linked list through rnext (-1 ends)
    bint terms               # whether the model has hand terms (then the five fields below are set)
    double tb5[NSUB5]        # each subset's hand terms as a back, times the opponents
    double tm5[NSUB5]        # ... as a middle
    double tf3[NSUB3]        # each 3-card subset's as a front
    double upto_m[TERM_TAGS] # [top part]: the largest middle term of a subset whose top part is no higher
    double upto_f[TERM_TAGS] # ... front term of a 3-card subset
    double upto_b[TERM_TAGS] # ... back term of a subset


cdef inline void _isort(int* a, int n) noexcept nogil:
    """Insertion sort, ascending (n is 5 or 13 here: tiny, nearly branch-predictable)."""
    cdef int i, j, t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t


cdef void _sort13(const int* src, int* dst) noexcept nogil:
    cdef int i
    for i in range(13):
        dst[i] = src[i]
    _isort(dst, 13)


cdef void _eval_hand(const int* codes, HandEval* h, int wheel_second) noexcept nogil:
    """Class and key of every 5- and 3-card subset of the hand, in SUB5 / SUB3 order.

    The subsets are listed in the same lexicographic order as SUB5 / SUB3, so nested
    loops can carry the partial class sums (one colex term per position) and the
    partial suit intersection (a flush) from one level to the next.
    """
    cdef int a, b, c, d, e, s, cl, ca, cb, cc, cd, sa, sb, sc, sd
    cdef int suit[13]
    cdef int pos[5][13]       # C5POS[j][rank of card x], j = position within the subset
    cdef const int32_t* ktab = CLASS_KEY5[1 if wheel_second else 0]
    cdef const short* dense = DENSE5[1 if wheel_second else 0]
    _sort13(codes, h.codes)
    for a in range(13):
        suit[a] = 1 << (h.codes[a] & 3)
        for b in range(5):
            pos[b][a] = C5POS[b][h.codes[a] >> 2]
    s = 0
    for a in range(9):
        ca = pos[0][a]
        sa = suit[a]
        for b in range(a + 1, 10):
            cb = ca + pos[1][b]
            sb = sa & suit[b]
            for c in range(b + 1, 11):
                cc = cb + pos[2][c]
                sc = sb & suit[c]
                for d in range(c + 1, 12):
                    cd = cc + pos[3][d]
                    sd = sc & suit[d]
                    for e in range(d + 1, 13):
                        cl = cd + pos[4][e] + (N5 if sd & suit[e] else 0)
                        h.cls5[s] = dense[cl]
                        h.key5[s] = ktab[cl]
                        s += 1
    s = 0
    for a in range(11):
        ca = C3POS[0][h.codes[a] >> 2]
        for b in range(a + 1, 12):
            cb = ca + C3POS[1][h.codes[b] >> 2]
            for c in range(b + 1, 13):
                cl = cb + C3POS[2][h.codes[c] >> 2]
                h.cls3[s] = cl
                h.key3[s] = CLASS_KEY3[cl]
                s += 1
    for a in range(NRBUCKET):
        h.rhead[a] = -1
    for s in range(NSUB5):
        a = h.cls5[s] >> RANK_SHIFT
        h.rnext[s] = h.rhead[a]
        h.rhead[a] = s
    h.nbest5 = _strongest5(h)
    _order_fronts(h)


cdef void _order_fronts(HandEval* h) noexcept nogil:
    """List the 3-card subsets strongest first (a counting sort by ORDER3) with their keys,
    and which of them hold each card."""
    cdef int start[N3 + 1]
    cdef int s, a, i
    for i in range(N3 + 1):
        start[i] = 0
    for s in range(NSUB3):
        start[ORDER3[h.cls3[s]] + 1] += 1
    for i in range(N3):
        start[i + 1] += start[i]
    for a in range(13):
        for i in range(FWORDS - 1):
            h.fholds[a][i] = 0
        h.fholds[a][FWORDS - 1] = ~0ULL << (NSUB3 - 64 * (FWORDS - 1))
    for s in range(NSUB3):
        i = start[ORDER3[h.cls3[s]]]
        start[ORDER3[h.cls3[s]]] += 1
        h.fronts[i] = s
        h.fkeys[i] = h.key3[s]
        for a in range(3):
            h.fholds[SUB3[s][a]][i >> 6] |= 1ULL << (i & 63)


cdef void _terms_of(const int* codes, const float* W, double nopp, int top_cat, double* d) noexcept nogil:
    """The hand terms of 13 cards (see TERM_TAGS) into d[NHTERM]: the weights' row 15
    (the constant), plus the largest and second largest suit counts times rows 13 and 14,
    plus each rank's count times its row; all times the opponents ``nopp``.

    Only the tags a row of these cards can have are computed: a front is a high card, a
    pair or trips, and a middle or back is no stronger than ``top_cat``, the category of
    the strongest five cards (STRAIGHT_FLUSH for every tag).  The others are left unset;
    those computed are the same sums, in the same order, as when every tag is."""
    cdef int suits[4]
    cdef int ranks[13]
    cdef int i, part, s0 = 0, s1 = 0, five = (top_cat + 1) * 13
    for i in range(4):
        suits[i] = 0
    for i in range(13):
        ranks[i] = 0
    for i in range(13):
        suits[codes[i] & 3] += 1
        ranks[codes[i] >> 2] += 1
    for i in range(4):
        if suits[i] > s0:
            s1 = s0
            s0 = suits[i]
        elif suits[i] > s1:
            s1 = suits[i]
    for part in range(2):
        # the front's top and next parts: high card and pair (tags 0-25), trips (39-51)
        _terms_span(W, part * TERM_TAGS, (PAIR + 1) * 13, s0, s1, ranks, nopp, d)
        _terms_span(W, part * TERM_TAGS + TRIPS * 13, 13, s0, s1, ranks, nopp, d)
    for part in range(2, 6):
        # the middle's top and next parts, then the back's: tags below ``five`` each
        _terms_span(W, part * TERM_TAGS, five, s0, s1, ranks, nopp, d)


cdef inline void _terms_span(const float* W, int start, int n, int s0, int s1, const int* ranks, double nopp,
                             double* d) noexcept nogil:
    """Terms start .. start + n - 1 of _terms_of."""
    cdef int i, j
    cdef double c
    cdef const float* w
    cdef double* out = d + start
    for j in range(n):
        out[j] = <double> W[15 * NHTERM + start + j] + s0 * <double> W[13 * NHTERM + start + j] \
            + s1 * <double> W[14 * NHTERM + start + j]
    for i in range(13):
        if ranks[i] == 0:
            continue
        c = ranks[i]
        w = W + i * NHTERM + start
        for j in range(n):
            out[j] += c * w[j]
    for j in range(n):
        out[j] *= nopp


cdef inline void _key_parts(int32_t key, int* top, int* nxt) noexcept nogil:
    """The two term parts of a row key (solver.tables.term_parts): category * 13 plus the
    top digit's rank, and plus the rank of the first digit that differs from it (0 when
    none does, or it is missing); a straight's one digit (twice its top rank, see key5_c)
    gives its top rank and no next part."""
    cdef int cat = key >> 25, d0 = (key >> 20) & 31, d, i, second = 0
    if cat == STRAIGHT or cat == STRAIGHT_FLUSH:
        top[0] = cat * 13 + _clip_rank((d0 >> 1) - 1)
        nxt[0] = cat * 13
        return
    for i in range(1, 5):
        d = (key >> (20 - 5 * i)) & 31
        if d != d0:
            second = d
            break
    top[0] = cat * 13 + _clip_rank(d0 - 1)
    nxt[0] = cat * 13 + _clip_rank(second - 1)


cdef inline int _clip_rank(int r) noexcept nogil:
    return 0 if r < 0 else (12 if r > 12 else r)


cdef inline double _key_terms(const double* d, int row, int32_t key) noexcept nogil:
    """A row's hand terms (chi per opponent) for the row key ``key`` from the terms ``d``."""
    cdef int top, nxt
    _key_parts(key, &top, &nxt)
    return d[2 * TERM_TAGS * row + top] + d[2 * TERM_TAGS * row + TERM_TAGS + nxt]


cdef void _hand_terms(HandEval* h, const Tables* T, const Params* P) noexcept nogil:
    """Set each subset's hand terms (times the opponents) when the model has them, and
    what they add to a bound: for each row and top part, the largest term of a subset
    whose top part is no higher (the top part rises with the key, so this bounds the
    terms of every row no stronger than a given one).  (Tighter slacks were measured and
    not kept: the largest middle and front terms among subsets that avoid the back, or
    the largest of the back's own 56 splits, cost more than they saved.)"""
    cdef double d[NHTERM]
    cdef int s, c, top, nxt
    cdef const double* dm = d + 2 * TERM_TAGS
    cdef const double* db = d + 4 * TERM_TAGS
    cdef const short* parts5 = &PARTS5[1 if P.wheel_second else 0][0][0]
    h.terms = T.W != NULL
    if not h.terms:
        return
    _terms_of(h.codes, T.W, P.nopp, h.key5[h.best5[0]] >> 25, d)
    for s in range(TERM_TAGS):
        h.upto_m[s] = -INFINITY
        h.upto_b[s] = -INFINITY
        h.upto_f[s] = -INFINITY
    for s in range(NSUB5):
        c = h.cls5[s]
        top = parts5[2 * c]
        nxt = TERM_TAGS + parts5[2 * c + 1]
        h.tm5[s] = dm[top] + dm[nxt]
        h.tb5[s] = db[top] + db[nxt]
        h.upto_m[top] = max(h.upto_m[top], h.tm5[s])
        h.upto_b[top] = max(h.upto_b[top], h.tb5[s])
    for s in range(NSUB3):
        c = h.cls3[s]
        top = PARTS3[c][0]
        h.tf3[s] = d[top] + d[TERM_TAGS + PARTS3[c][1]]
        h.upto_f[top] = max(h.upto_f[top], h.tf3[s])
    for s in range(1, TERM_TAGS):
        h.upto_m[s] = max(h.upto_m[s], h.upto_m[s - 1])
        h.upto_b[s] = max(h.upto_b[s], h.upto_b[s - 1])
        h.upto_f[s] = max(h.upto_f[s], h.upto_f[s - 1])


cdef inline double _bucket_slack(const HandEval* h, int c, int fi, int ws) noexcept nogil:
    """What the hand terms can add to a split whose back is no stronger than the strength
    rank ``c`` (and so its middle) and whose front is no stronger than ``fi``, at most."""
    cdef int top
    if not h.terms:
        return 0.0
    top = PARTS5[ws][c][0]
    return h.upto_b[top] + h.upto_m[top] + h.upto_f[PARTS3[h.cls3[fi]][0]]


cdef inline double _split_slack(const HandEval* h, int b, int mi, int fi, int ws) noexcept nogil:
    """What the hand terms can add to a split with back ``b``, a middle no stronger than
    ``mi`` and a front no stronger than ``fi``, at most (the top part rises with the key)."""
    if not h.terms:
        return 0.0
    return h.tb5[b] + h.upto_m[PARTS5[ws][h.cls5[mi]][0]] + h.upto_f[PARTS3[h.cls3[fi]][0]]


cdef int _strongest5(HandEval* h) noexcept nogil:
    """The NBEST strongest 5-card subsets into best5, strongest first: only the top
    strength buckets can hold them, so only those are ranked."""
    cdef int pool[NSUB5]
    cdef int n = 0, k = NRBUCKET - 1, s, i, cnt = 0
    cdef int32_t key
    while k >= 0 and n < NBEST:
        s = h.rhead[k]
        while s >= 0:
            pool[n] = s
            n += 1
            s = h.rnext[s]
        k -= 1
    for s in range(n):
        key = h.key5[pool[s]]
        if cnt == NBEST and key <= h.key5[h.best5[NBEST - 1]]:
            continue
        i = cnt if cnt < NBEST else NBEST - 1
        while i > 0 and h.key5[h.best5[i - 1]] < key:
            h.best5[i] = h.best5[i - 1]
            i -= 1
        h.best5[i] = pool[s]
        if cnt < NBEST:
            cnt += 1
    return cnt


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef inline uint64_t _free_fronts(const HandEval* h, const unsigned char* c, int w) noexcept nogil:
    """Word ``w`` of the fronts (bit i: fronts[64 w + i]) that share no card with the five
    card positions ``c``."""
    return ~(h.fholds[c[0]][w] | h.fholds[c[1]][w] | h.fholds[c[2]][w] | h.fholds[c[3]][w] | h.fholds[c[4]][w])


cdef inline int _best_free_front(const HandEval* h, int b, int32_t kmax) noexcept nogil:
    """The strongest front that shares no card with the 5-card subset ``b`` and is no
    stronger than ``kmax``, or -1 when none is: the first set bit from where the fronts
    fall under ``kmax``, a word of the bitmask at a time."""
    cdef const unsigned char* c = SUB5[b]
    cdef int i = _first_under(h.fkeys, NSUB3, kmax)
    cdef int w = i >> 6
    cdef uint64_t bits
    if w == FWORDS:
        return -1
    bits = _free_fronts(h, c, w) & (~0ULL << (i & 63))
    while bits == 0:
        w += 1
        if w == FWORDS:
            return -1
        bits = _free_fronts(h, c, w)
    return h.fronts[64 * w + __builtin_ctzll(bits)]


# ---- the EV objective (spec §6.2, extended) -------------------------------------------

cdef inline double _ev(const RowT* f, const RowT* m, const RowT* b, const Params* P) noexcept nogil:
    """Expected chi against ``nopp`` field opponents (aces and specials excluded).

    Rows win independently, but sweeping all three (either way) has probability
    (p_f p_m p_b) ** gamma_win / (q_f q_m q_b) ** gamma_lose (exponents < 1: a field hand
    weak in one row tends to be weak in all; see solver.tables), folded into pg / qg.
    On :c:type:`Bound` entries the result is an upper bound over every split whose rows
    are no stronger than these (it rises with p, pg, v, lin and falls with q, qg, Lq).
    """
    cdef double lin = <double> f.lin + <double> m.lin + <double> b.lin
    cdef double pp = <double> f.pg * <double> m.pg * <double> b.pg
    cdef double qq = <double> f.qg * <double> m.qg * <double> b.qg
    cdef double V = <double> f.v + <double> m.v + <double> b.v + P.mb
    cdef double lost = (<double> f.Lq + <double> m.Lq + <double> b.Lq) * qq + P.mb * qq
    cdef double e = lin + P.A * (pp * V - lost) + P.sb * (pp - qq)
    cdef double pall, p3, q3, pf, pm, pb, qf, qm, qb
    if P.mb != 0.0:
        pf = f.p
        pm = m.p
        pb = b.p
        qf = f.q
        qm = m.q
        qb = b.q
        p3 = pf * pm * pb
        q3 = qf * qm * qb
        e += P.mb * ((pf * pm + pf * pb + pm * pb - 2.0 * p3) - (qf * qm + qf * qb + qm * qb - 2.0 * q3))
    e *= P.nopp
    if P.slm1 != 0.0:
        pall = pp
        if P.nopp > 1.5:
            pall *= pp
        if P.nopp > 2.5:
            pall *= pp
        e += P.slm1 * P.nopp * ((P.sm * V + P.sb) * pall - P.sfield * (P.sm * lost + P.sb * qq))
    return e


cdef void _rerank_features(const Row* f, const Row* m, const Row* b, const Params* P, double* x) noexcept nogil:
    """The NRERANK features of a split (rows f, m, b), which the re-ranking weighs
    (solver.training.rerank fits the weights):

    * 0-5: the sweep terms of the objective, and their squares: pp, qq (the products of
      the rows' pg and qg), pp * V, the chi lost when swept, pp ** 2, qq ** 2;
    * 6-11: each row's win chance, then each row's loss chance;
    * 12-17: the win chances' products two by two (front and middle, front and back,
      middle and back), then the loss chances'.

    The objective takes the rows as independent, and the sweep chances as one power of
    their product; these let the re-ranking learn how far the joint chances of the rows of
    the hands actually dealt stray from that."""
    cdef double pp = f.pg * m.pg * b.pg
    cdef double qq = f.qg * m.qg * b.qg
    x[0] = pp
    x[1] = qq
    x[2] = pp * (f.v + m.v + b.v + P.mb)
    x[3] = (f.Lq + m.Lq + b.Lq + P.mb) * qq
    x[4] = pp * pp
    x[5] = qq * qq
    x[6] = f.p
    x[7] = m.p
    x[8] = b.p
    x[9] = f.q
    x[10] = m.q
    x[11] = b.q
    x[12] = f.p * m.p
    x[13] = f.p * b.p
    x[14] = m.p * b.p
    x[15] = f.q * m.q
    x[16] = f.q * b.q
    x[17] = m.q * b.q


cdef double _rerank_value(const Row* f, const Row* m, const Row* b, const Tables* T, const Params* P) noexcept nogil:
    """The re-ranking's correction of a split's objective (chi): its weights times its features."""
    cdef double x[NRERANK]
    cdef double out = 0.0
    cdef int i
    _rerank_features(f, m, b, P, x)
    for i in range(NRERANK):
        out += T.R[i] * x[i]
    return out


# ---- search ---------------------------------------------------------------------------

ctypedef struct Top:
    int n          # filled
    int cap        # wanted
    double margin  # splits further than this below the best are not wanted (INFINITY: all are)
    double thr     # what a split must beat to be listed (_threshold), kept by _top_insert
    double ev[MAXTOP]
    int back[MAXTOP]
    int mid[MAXTOP]
    int front[MAXTOP]


cdef inline double _threshold(const Top* t) noexcept nogil:
    return t.thr


cdef void _top_insert(Top* t, const HandEval* h, double ev, int b, int m, int f) noexcept nogil:
    cdef int i, pos
    # the same three strength keys score the same: keep one arrangement per key triple
    for i in range(t.n):
        if t.ev[i] == ev and h.key5[t.back[i]] == h.key5[b] and h.key5[t.mid[i]] == h.key5[m] \
                and h.key3[t.front[i]] == h.key3[f]:
            return
    pos = t.n if t.n < t.cap else t.cap - 1
    while pos > 0 and t.ev[pos - 1] < ev:
        if pos < t.cap:
            t.ev[pos] = t.ev[pos - 1]
            t.back[pos] = t.back[pos - 1]
            t.mid[pos] = t.mid[pos - 1]
            t.front[pos] = t.front[pos - 1]
        pos -= 1
    t.ev[pos] = ev
    t.back[pos] = b
    t.mid[pos] = m
    t.front[pos] = f
    if t.n < t.cap:
        t.n += 1
    # the list's last entry once it is full, and no further than the margin below the best
    t.thr = t.ev[t.n - 1] if t.n == t.cap else -INFINITY
    if t.ev[0] - t.margin > t.thr:
        t.thr = t.ev[0] - t.margin


cdef double _rerank(const HandEval* h, const Tables* T, const Params* P, Top* t) noexcept nogil:
    """Re-rank the listed splits: add each one's correction (_rerank_value) to its objective,
    sort the list by the result, best first (ties keep their order), then take the new
    best's correction off every entry; return that correction (0 for an empty list).

    Why: the objective's sweep chances and row chances come from tables of row classes,
    which cannot see how the rest of the hand I hold shifts what the opponents hold; its
    best split is often not the best one, but the best one is nearly always among its 8
    best (fast mode's regret at 4 players, vietnamese: 0.025 chi a hand, 0.0024 for the
    best of its 8; docs/benchmarks.md).  The correction is learned on those lists.

    Why the best's correction comes off: the weights are fitted on how a hand's sets rank
    against each other, which says nothing of their level, and the correction of a hand's
    sets is often a chi or more below zero at 3 and 4 players.  So the best split keeps
    the objective's EV, which stays an expected chi, and the others lie below it by their
    corrected differences."""
    cdef double ev, best
    cdef double correction[MAXTOP]
    cdef int i, j, b, m, f
    while t.n > 1 and t.ev[t.n - 1] < t.ev[0] - t.margin:  # listed before the best was found
        t.n -= 1
    for i in range(t.n):
        correction[i] = _rerank_value(&T.F[h.cls3[t.front[i]]], &T.M[h.cls5[t.mid[i]]], &T.B[h.cls5[t.back[i]]],
                                      T, P)
        t.ev[i] += correction[i]
    best = correction[0] if t.n > 0 else 0.0
    for i in range(1, t.n):
        ev = t.ev[i]
        b = t.back[i]
        m = t.mid[i]
        f = t.front[i]
        j = i - 1
        while j >= 0 and t.ev[j] < ev:
            t.ev[j + 1] = t.ev[j]
            t.back[j + 1] = t.back[j]
            t.mid[j + 1] = t.mid[j]
            t.front[j + 1] = t.front[j]
            j -= 1
        t.ev[j + 1] = ev
        t.back[j + 1] = b
        t.mid[j + 1] = m
        t.front[j + 1] = f
        if j == -1:
            best = correction[i]
    for i in range(t.n):
        t.ev[i] -= best
    return best


cdef inline void _listing(const Tables* T, int wanted, Top* t) noexcept nogil:
    """Set how many splits the search lists to return the best ``wanted``: RERANK_K at
    least when the model re-ranks them.  For the best one alone, only splits within the
    re-ranking's margin of the objective's best are listed (the margin is the furthest a
    pick lay among the training hands), and the threshold it sets prunes far more than the
    8th best does (at 4 players the 8th best lies a median 1.3 chi below the best).  The
    list itself is emptied by _search, for every hand."""
    t.margin = INFINITY
    t.cap = wanted
    if T.R != NULL:
        if wanted < RERANK_K:
            t.cap = RERANK_K
        if wanted == 1:
            t.margin = T.margin


cdef void _scan_back(const HandEval* h, int b, const Tables* T, const Params* P, Top* top,
                     double rest) noexcept nogil:
    """Score the valid splits of back ``b`` and list those that beat the threshold.
    ``rest``: see _scan_back_terms."""
    cdef int j, m, f
    cdef int32_t kb = h.key5[b], km, kf
    cdef const Row* rb = &T.B[h.cls5[b]]
    cdef const Row* rm
    cdef const Row* rf
    cdef double ev
    cdef const short* sm = SPLIT_M[b]
    cdef const short* sf = SPLIT_F[b]
    cdef int32_t kmax = kb - P.strict    # keys are integers: strict ">" is ">= + 1"
    cdef int32_t s1 = P.strict
    cdef double thr = _threshold(top)
    cdef double lb = rb.lin, nopp = P.nopp
    rest += LIN_ROUNDING
    for j in range(NMID):
        m = sm[j]
        km = h.key5[m]
        if km > kmax:
            continue
        f = sf[j]
        kf = h.key3[f]
        if kf + s1 > km:
            continue
        rm = &T.M[h.cls5[m]]
        rf = &T.F[h.cls3[f]]
        if nopp * (rf.lin + rm.lin + lb) + rest <= thr:
            continue
        ev = _ev(rf, rm, rb, P)
        if ev > thr:
            _top_insert(top, h, ev, b, m, f)
            thr = _threshold(top)


cdef void _scan_back_terms(const HandEval* h, int b, const Tables* T, const Params* P, Top* top,
                           double rest) noexcept nogil:
    """_scan_back with each split also getting its hand terms.  A copy, not a flag: with
    the terms in the same loop (behind a branch, or an inline function given a constant)
    the plain search ran 5-8 % slower side by side (benchmarks/core_side_by_side.py).

    ``rest`` bounds, over every valid split of the back, the objective less its linear
    part (the rows' ``lin`` times the opponents; INFINITY: no bound).  A split's own
    linear part and terms are a few loads, so a split they cannot lift over the threshold
    is passed over before its objective is computed."""
    cdef int j, m, f
    cdef int32_t kb = h.key5[b], km, kf
    cdef const Row* rb = &T.B[h.cls5[b]]
    cdef const Row* rm
    cdef const Row* rf
    cdef double ev
    cdef const short* sm = SPLIT_M[b]
    cdef const short* sf = SPLIT_F[b]
    cdef int32_t kmax = kb - P.strict    # keys are integers: strict ">" is ">= + 1"
    cdef int32_t s1 = P.strict
    cdef double thr = _threshold(top)
    cdef double tb = h.tb5[b], lb = rb.lin, nopp = P.nopp
    rest += LIN_ROUNDING
    for j in range(NMID):
        m = sm[j]
        km = h.key5[m]
        if km > kmax:
            continue
        f = sf[j]
        kf = h.key3[f]
        if kf + s1 > km:
            continue
        rm = &T.M[h.cls5[m]]
        rf = &T.F[h.cls3[f]]
        if nopp * (rf.lin + rm.lin + lb) + rest + tb + h.tm5[m] + h.tf3[f] <= thr:
            continue
        ev = _ev(rf, rm, rb, P) + tb + h.tm5[m] + h.tf3[f]   # (summed as before: the same EVs)
        if ev > thr:
            _top_insert(top, h, ev, b, m, f)
            thr = _threshold(top)


cdef inline void _scan(const HandEval* h, int b, const Tables* T, const Params* P, Top* top,
                       double rest=INFINITY) noexcept nogil:
    """Scan back ``b`` with the loop the model needs (``rest``: see _scan_back_terms)."""
    if h.terms:
        _scan_back_terms(h, b, T, P, top, rest)
    else:
        _scan_back(h, b, T, P, top, rest)


cdef bint _tight_bound_beats(const HandEval* h, int b, const Tables* T, const Params* P, double threshold,
                             double* rest) noexcept nogil:
    """Whether the tight bound of back ``b`` beats ``threshold`` (see _search, step 4):
    the bound of its own best middle (the strongest of the 56 it leaves that is no
    stronger than the back) and its own best front (the strongest front it leaves no
    stronger than that middle), plus the most the hand terms can add to such a split
    (_split_slack).  ``rest`` is set to the bound less its linear part (see
    _scan_back_terms): the objective rises with each field of each row, and the linear
    part is a sum apart from the rest, so the rest is bounded by the same rows.  A back
    with no front under its best middle has no valid split."""
    cdef int ws = 1 if P.wheel_second else 0
    cdef int mi = _best_middle(h, b, P.strict)
    cdef int fi
    if mi < 0:
        return False
    fi = _best_free_front(h, b, h.key5[mi])
    if fi < 0:
        return False
    cdef const Bound* rf = &T.bF[h.cls3[fi]]
    cdef const Bound* rm = &T.bM[h.cls5[mi]]
    cdef const Bound* rb = &T.bB[h.cls5[b]]
    cdef double bound = _ev(rf, rm, rb, P)
    rest[0] = bound - P.nopp * (<double> rf.lin + <double> rm.lin + <double> rb.lin)
    return bound + _split_slack(h, b, mi, fi, ws) > threshold


cdef inline int _best_middle(const HandEval* h, int b, int strict) noexcept nogil:
    """The strongest of the 56 middles the back leaves that is no stronger than the back
    (validity), or -1 when there is none."""
    cdef const short* sm = SPLIT_M[b]
    cdef int32_t kmax = h.key5[b] - strict, kbest = -1, k
    cdef int j, best = -1
    for j in range(NMID):
        k = h.key5[sm[j]]
        if kbest < k <= kmax:
            kbest = k
            best = sm[j]
    return best


cdef inline int _first_under(const int32_t* keys, int n, int32_t kmax) noexcept nogil:
    """Position in ``n`` keys, strongest first, of the first one no stronger than
    ``kmax``, ``n`` when none is: a binary search of a fixed number of steps.  (Its step
    as a multiply instead of a select, with no branch to miss, ran 12-16 % slower side by
    side.)"""
    cdef const int32_t* base = keys
    cdef int half
    while n > 1:
        half = n >> 1
        base += half if base[half - 1] > kmax else 0
        n -= half
    return <int> (base - keys) + (base[0] > kmax)


cdef inline int _front_under(const HandEval* h, int32_t kmax) noexcept nogil:
    """The strongest of the NBEST strongest fronts no stronger than ``kmax``, else the
    last of them (it bounds every weaker front): a cheap bound on the front of a middle
    no stronger than ``kmax``."""
    cdef int i = _first_under(h.fkeys, NBEST, kmax)
    return h.fronts[i if i < NBEST - 1 else NBEST - 1]


cdef int _search(const HandEval* h, const Tables* T, const Params* P, Top* top, int prune) noexcept nogil:
    """Fill ``top`` with the best valid splits; returns how many backs were scanned.

    Pruning: the objective rises with the strength of each row, so a back can be skipped
    when even the strongest middle and front its other 8 cards could hold cannot beat
    the current threshold (the ``top``-th best so far).

    1. The strongest back is scanned first: its best split sets a threshold.
    2. Backs are visited by strength (buckets of strength rank, strongest first).  A
       back's strength caps its middle and so its front (validity), so the bound of a
       split whose three rows are as strong as the back's class, with the strongest
       listed front under it, covers every back of its bucket and below: the visit
       stops at the first bucket whose strongest back cannot beat the threshold (for
       most hands a few hundred of the 1,287 backs are visited).
    3. A visited back gets a cheap bound: the middle is bounded by the back itself and
       by the strongest listed 5-card subset disjoint from the back, or the weakest
       listed one when none is (it bounds every unlisted subset); the front by the
       strongest front the back leaves that is no stronger than that middle (a bit
       search, _best_free_front; a back that leaves none has no valid split and is
       passed over).  The middle bounds of all backs come from one pass over the
       listed subsets: the subsets disjoint from a listed one are exactly the 56
       middles SPLIT_M lists for it as a back.
       After each bucket the back with the best cheap bound so far is scanned (when its
       tight bound, below, beats the threshold), which raises the threshold early.
    4. The backs whose cheap bound beats the threshold are bucketed by bound and visited
       best first; just before a back would be scanned its bound is tightened (the
       middle is the strongest of the 56 the back leaves that is no stronger than the
       back, the front the strongest it leaves no stronger than that middle),
       and the visit stops at the first bucket whose top cannot beat the threshold.
    5. A scanned back skips a split whose own linear part (its rows' ``lin``) and hand
       terms, with the tight bound of the rest of the objective, cannot beat the
       threshold, before its objective is computed (_scan_back_terms).

    Each bound adds the most the hand terms can add to the splits it covers
    (_bucket_slack, _split_slack).
    """
    cdef double ub[NSUB5]
    cdef short mid[NSUB5]             # each back's middle bound (a subset index)
    cdef int cand[NSUB5]              # backs whose cheap bound beats the first threshold
    cdef int nxt[NSUB5]
    cdef int head[NBUCKET]            # candidates by bound
    cdef int s, b, c, first, scanned = 0, mi, fi, i, j, k, ncand = 0, pick = -1
    cdef int ws = 1 if P.wheel_second else 0
    cdef const short* disjoint
    cdef double best_ub = -INFINITY, low_ub = INFINITY, thr0, width, top_k, rest
    cdef const Bound* bF = T.bF
    cdef const Bound* bM = T.bM
    cdef const Bound* bB = T.bB
    top.n = 0
    top.thr = -INFINITY
    if not prune:
        for s in range(NSUB5):
            _scan(h, s, T, P, top)
        return NSUB5
    first = h.best5[0]
    _scan(h, first, T, P, top)
    scanned = 1
    thr0 = _threshold(top)
    mi = h.best5[h.nbest5 - 1]
    for b in range(NSUB5):
        mid[b] = mi
    for i in range(h.nbest5 - 1, -1, -1):     # strongest last, so it is the one that stays
        disjoint = SPLIT_M[h.best5[i]]
        for j in range(NMID):
            mid[disjoint[j]] = h.best5[i]
    for k in range(NRBUCKET - 1, -1, -1):
        b = h.rhead[k]
        if b < 0:
            continue
        s = h.rnext[b]
        while s >= 0:                 # the bucket's strongest back
            if h.cls5[s] > h.cls5[b]:
                b = s
            s = h.rnext[s]
        c = h.cls5[b]
        fi = _front_under(h, h.key5[b])
        if _ev(&bF[h.cls3[fi]], &bM[c], &bB[c], P) + _bucket_slack(h, c, fi, ws) <= thr0:
            break
        b = h.rhead[k]
        while b >= 0:
            if b != first:
                mi = mid[b]
                if h.key5[mi] > h.key5[b]:
                    mi = b
                    mid[b] = b
                fi = _best_free_front(h, b, h.key5[mi])
                if fi < 0:                # no valid split: never a candidate
                    ub[b] = -INFINITY
                else:
                    ub[b] = _ev(&bF[h.cls3[fi]], &bM[h.cls5[mi]], &bB[h.cls5[b]], P) \
                        + _split_slack(h, b, mi, fi, ws)
                if ub[b] > thr0:
                    cand[ncand] = b
                    ncand += 1
                    if ub[b] > best_ub:
                        best_ub = ub[b]
                    if ub[b] < low_ub:
                        low_ub = ub[b]
                    if pick < 0 or ub[b] > ub[pick]:
                        pick = b
            b = h.rnext[b]
        # scan the most promising back found so far: a higher threshold stops the
        # visit sooner and keeps weaker backs out of the candidates
        if pick >= 0:
            if ub[pick] > thr0 and _tight_bound_beats(h, pick, T, P, thr0, &rest):
                _scan(h, pick, T, P, top, rest)
                scanned += 1
                thr0 = _threshold(top)
            ub[pick] = -INFINITY
            pick = -1
    if ncand == 0:
        return scanned
    # Bucket the candidates by their cheap bound (an O(n) sort into NBUCKET slices
    # between the threshold and the best bound), then visit the buckets best first.
    if thr0 == -INFINITY:        # fewer than ``top`` valid splits so far: bucket every back
        thr0 = low_ub - 1.0
    width = (best_ub - thr0) / NBUCKET
    for k in range(NBUCKET):
        head[k] = -1
    for i in range(ncand):
        b = cand[i]
        if not ub[b] > thr0:         # scanned already, or no longer promising
            continue
        k = <int> ((ub[b] - thr0) / width)
        if k >= NBUCKET:
            k = NBUCKET - 1
        nxt[b] = head[k]
        head[k] = b
    for k in range(NBUCKET - 1, -1, -1):
        top_k = thr0 + (k + 1) * width + 1e-9   # (slack for rounding in the bucket index)
        if top_k <= _threshold(top):
            break
        b = head[k]
        while b >= 0:
            if ub[b] > _threshold(top) and _tight_bound_beats(h, b, T, P, _threshold(top), &rest):
                _scan(h, b, T, P, top, rest)
                scanned += 1
            b = nxt[b]
    return scanned


# ---- row classes of given cards -------------------------------------------------------

cdef int _class5(const int* c) noexcept nogil:
    cdef int r[5]
    cdef int i, k = 0, suits = 15
    for i in range(5):
        r[i] = c[i] >> 2
        suits &= 1 << (c[i] & 3)
    _isort(r, 5)
    for i in range(5):
        k += C5POS[i][r[i]]
    return k + N5 if suits else k


cdef int _class3(const int* c) noexcept nogil:
    cdef int a = c[0] >> 2, b = c[1] >> 2, d = c[2] >> 2, t
    if a > b:
        t = a; a = b; b = t
    if b > d:
        t = b; b = d; d = t
    if a > b:
        t = a; a = b; b = t
    return C3POS[0][a] + C3POS[1][b] + C3POS[2][d]


# ---- Python-facing API (validation happens in solver.strategy) --------------------------

ROW_FIELDS = ("p", "q", "L", "v", "lin", "vub", "linub", "pg", "qg", "Lq", "Lqlb")
N_FRONT_CLASSES = N3
N_FIVE_CLASSES = NC5
FLUSH_OFFSET = N5


def class_keys(bint wheel_second=True):
    """(front keys[455], five-card keys[12376]) of every class; -1 marks impossible classes."""
    k3 = np.empty(N3, dtype=np.int32)
    k5 = np.empty(NC5, dtype=np.int32)
    cdef int i
    for i in range(N3):
        k3[i] = CLASS_KEY3[i]
    for i in range(NC5):
        k5[i] = CLASS_KEY5[1 if wheel_second else 0][i]
    return k3, k5


cdef class Model:
    """Row tables and scoring parameters for one (rules, table size); see solver.strategy."""

    cdef readonly object front, middle, back
    cdef object rows, bounds              # the compact tables the C code reads (owners)
    cdef readonly object hand_weights     # (NHFEAT, NHTERM) or None: see TERM_TAGS
    cdef object weights32                 # the same in single precision, which the C code reads
    cdef readonly object rerank           # (NRERANK,) re-ranking weights or None: see _rerank
    cdef readonly double rerank_margin    # see _listing
    cdef const Row* F
    cdef const Row* M
    cdef const Row* B
    cdef Tables T
    cdef Params P

    def __init__(self, front, middle, back, int nopp, int sweep_mult, int sweep_bonus, int majority_bonus,
                 int sap_lang_mult, double sfield, bint strict, bint wheel_second,
                 hand_weights=None, rerank=None, double rerank_margin=INFINITY):
        """``hand_weights`` (16, 702) are the hand terms' weights (see TERM_TAGS and
        solver.removal), None for a model without them; the search reads them in single
        precision (the shipped ones are stored so), summing them in double.  ``rerank``
        (18,) are the re-ranking weights (see _rerank_features), None for a model whose
        best split is the objective's; ``rerank_margin`` how far below the objective's best a
        split they pick can lie (see _listing)."""
        self.front = np.ascontiguousarray(front, dtype=np.float64)
        self.middle = np.ascontiguousarray(middle, dtype=np.float64)
        self.back = np.ascontiguousarray(back, dtype=np.float64)
        if self.front.shape != (N3, 11) or self.middle.shape != (NC5, 11) or self.back.shape != (NC5, 11):
            raise ValueError(f"row tables must be (455, 11), (12376, 11), (12376, 11); got "
                             f"{self.front.shape}, {self.middle.shape}, {self.back.shape}")
        if not 1 <= nopp <= 3:
            raise ValueError(f"opponents must be 1..3, got {nopp}")
        # the search reads compact copies holding only the 7,462 possible 5-card classes
        ranks = np.asarray([DENSE5[1 if wheel_second else 0][i] for i in range(NC5)])
        by_rank = np.argsort(np.where(ranks >= 0, ranks, NRANK5), kind="stable")[:NRANK5]
        tables = (self.front, self.middle[by_rank], self.back[by_rank])
        self.rows = [_aligned(_exact_columns(t), np.float64) for t in tables]
        self.hand_weights = None
        self.T.W = NULL
        if hand_weights is not None:
            self.hand_weights = np.ascontiguousarray(hand_weights, dtype=np.float64)
            if self.hand_weights.shape != (NHFEAT, NHTERM):
                raise ValueError(f"hand weights must be ({NHFEAT}, {NHTERM}), got {self.hand_weights.shape}")
            self.weights32 = np.ascontiguousarray(self.hand_weights, dtype=np.float32)
            self.T.W = <const float*> cnp.PyArray_DATA(self.weights32)
        self.rerank = None
        self.T.R = NULL
        if rerank is not None:
            self.rerank = np.ascontiguousarray(rerank, dtype=np.float64)
            if self.rerank.shape != (NRERANK,):
                raise ValueError(f"re-ranking weights must be ({NRERANK},), got {self.rerank.shape}")
            self.T.R = <const double*> cnp.PyArray_DATA(self.rerank)
        if not rerank_margin > 0:
            raise ValueError(f"the re-ranking margin must be positive, got {rerank_margin}")
        self.T.margin = rerank_margin
        self.rerank_margin = rerank_margin
        self.bounds = [_aligned(_bound_columns(t), np.float32) for t in tables]
        self.F = <const Row*> cnp.PyArray_DATA(self.rows[0])
        self.M = <const Row*> cnp.PyArray_DATA(self.rows[1])
        self.B = <const Row*> cnp.PyArray_DATA(self.rows[2])
        self.T.F = self.F
        self.T.M = self.M
        self.T.B = self.B
        self.T.bF = <const Bound*> cnp.PyArray_DATA(self.bounds[0])
        self.T.bM = <const Bound*> cnp.PyArray_DATA(self.bounds[1])
        self.T.bB = <const Bound*> cnp.PyArray_DATA(self.bounds[2])
        self.P.nopp = nopp
        self.P.sm = sweep_mult
        self.P.A = sweep_mult - 1
        self.P.sb = sweep_bonus
        self.P.mb = majority_bonus
        self.P.slm1 = sap_lang_mult - 1
        self.P.sfield = sfield
        self.P.strict = strict
        self.P.wheel_second = wheel_second

    @property
    def wheel_second(self):
        return bool(self.P.wheel_second)

    @property
    def strict(self):
        return bool(self.P.strict)


HAND_FEATURES = NHFEAT
TERM_PARTS = TERM_TAGS
HAND_TERMS = NHTERM


# columns of the (n, 11) row tables (ROW_FIELDS) the compact tables take, in struct order
_EXACT_COLUMNS = (0, 1, 7, 8, 3, 4, 9)      # p q pg qg v lin Lq
_BOUND_COLUMNS = (0, 1, 7, 8, 5, 6, 10)     # p q pg qg vub linub Lqlb
_BOUND_UP = (True, False, True, False, True, True, False)


def _exact_columns(table):
    out = np.zeros((len(table), 8), dtype=np.float64)
    out[:, :7] = table[:, _EXACT_COLUMNS]
    return out


def _bound_columns(table):
    """Bound entries in single precision, each rounded the way that can only raise the bound."""
    out = np.zeros((len(table), 8), dtype=np.float32)
    for j, (col, up) in enumerate(zip(_BOUND_COLUMNS, _BOUND_UP)):
        exact = table[:, col]
        single = exact.astype(np.float32)
        if up:
            single = np.where(single.astype(np.float64) < exact, np.nextafter(single, np.float32(np.inf)), single)
        else:
            single = np.where(single.astype(np.float64) > exact, np.nextafter(single, np.float32(-np.inf)), single)
        out[:, j] = single
    return out


def _aligned(table, dtype):
    """A C-contiguous copy of ``table`` starting on a 64-byte boundary (one row per line)."""
    nbytes = table.nbytes
    raw = np.empty(nbytes + 64, dtype=np.uint8)
    start = (-raw.ctypes.data) % 64
    out = raw[start:start + nbytes].view(dtype).reshape(table.shape)
    out[...] = table
    return out


cdef void _read13(object codes, int* buf) except *:
    cdef int i
    if len(codes) != 13:
        raise ValueError(f"a hand needs 13 card codes, got {len(codes)}")
    for i in range(13):
        buf[i] = codes[i]
        if not 0 <= buf[i] < 52:
            raise ValueError(f"card codes must be 0..51, got {buf[i]}")


def solve_hand(Model model, codes, int top=1, bint prune=True):
    """Best valid splits of 13 distinct card codes, best first: [(front, middle, back, ev)]
    (where the model re-ranks, in its re-ranked order, the best with its objective and the
    others below it by their corrected differences: see _rerank).

    Rows are tuples of codes in display order (rank high to low, suits s h d c); at most
    ``top`` (<= 64) entries, one per strength-key triple; empty only when no split is
    valid (possible under ``strict``).
    """
    cdef int buf[13]
    cdef HandEval h
    cdef Top t
    cdef int i
    if not 1 <= top <= MAXTOP:
        raise ValueError(f"top must be 1..{MAXTOP}, got {top}")
    _read13(codes, buf)
    _listing(&model.T, top, &t)
    with nogil:
        _eval_hand(buf, &h, model.P.wheel_second)
        _hand_terms(&h, &model.T, &model.P)
        _search(&h, &model.T, &model.P, &t, prune)
        if model.T.R != NULL:
            _rerank(&h, &model.T, &model.P, &t)
    cdef int row[13]
    out = []
    for i in range(min(t.n, top)):
        _split_codes(&h, t.front[i], t.mid[i], t.back[i], row)
        out.append(((row[0], row[1], row[2]), (row[3], row[4], row[5], row[6], row[7]),
                    (row[8], row[9], row[10], row[11], row[12]), t.ev[i]))
    return out


cdef inline void _split_codes(const HandEval* h, int f, int m, int b, int* out) noexcept nogil:
    """The codes of one split laid out front 3 | middle 5 | back 5, each row in display order."""
    cdef int j
    for j in range(3):
        out[j] = h.codes[SUB3[f][j]]
    for j in range(5):
        out[3 + j] = h.codes[SUB5[m][j]]
        out[8 + j] = h.codes[SUB5[b][j]]
    _display_sort(out, 3)
    _display_sort(out + 3, 5)
    _display_sort(out + 8, 5)


def backs_scanned(Model model, codes):
    """How many of the 1,287 backs the pruned search scans for this hand (benchmarks)."""
    cdef int buf[13]
    cdef HandEval h
    cdef Top t
    _read13(codes, buf)
    _listing(&model.T, 1, &t)
    _eval_hand(buf, &h, model.P.wheel_second)
    _hand_terms(&h, &model.T, &model.P)
    return _search(&h, &model.T, &model.P, &t, True)


cdef inline void _display_sort(int* row, int n) noexcept nogil:
    """Order a row for display: rank high to low, then suits s h d c (insertion sort)."""
    cdef int i, j, t, kt
    for i in range(1, n):
        t = row[i]
        kt = (12 - (t >> 2)) * 4 + (t & 3)
        j = i - 1
        while j >= 0 and (12 - (row[j] >> 2)) * 4 + (row[j] & 3) > kt:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = t


cdef int _check_hands(const int[:, ::1] hands) except -1:
    """Raise ValueError unless every row holds 13 card codes in 0..51."""
    cdef Py_ssize_t i
    cdef int j
    if hands.shape[1] != 13:
        raise ValueError(f"hands must have 13 columns, got {hands.shape[1]}")
    for i in range(hands.shape[0]):
        for j in range(13):
            if not 0 <= hands[i, j] < 52:
                raise ValueError(f"card codes must be 0..51, got {hands[i, j]} in row {i}")
    return 0


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


def solve_batch(Model model, const int[:, ::1] hands not None, double[::1] seconds=None,
                double[:, ::1] row_win=None):
    """Best split of each row of an (N, 13) array of codes.

    Returns (arrangements (N, 13) int32 = front 3 | middle 5 | back 5, each row in display
    order (rank high to low, suits s h d c), ev (N,) float64); a hand with no valid split
    gets ev = -inf and its codes unchanged.  With ``seconds`` (N,) the wall time of each
    hand is written there (for the speed benchmark; two clock reads per hand).  With
    ``row_win`` (N, 3) each best split's chance to win its front, middle and back against
    one opponent is written there (left as it was for a hand with no valid split).
    """
    cdef Py_ssize_t n = hands.shape[0], i
    cdef int j
    cdef bint timed = seconds is not None
    cdef bint wins = row_win is not None
    cdef double start = 0.0
    if timed and seconds.shape[0] != n:
        raise ValueError(f"seconds must hold one entry per hand ({n}), got {seconds.shape[0]}")
    if wins and (row_win.shape[0] != n or row_win.shape[1] != 3):
        raise ValueError(f"row_win must be ({n}, 3), got ({row_win.shape[0]}, {row_win.shape[1]})")
    _check_hands(hands)
    arr = np.empty((n, 13), dtype=np.int32)
    evs = np.empty(n, dtype=np.float64)
    cdef int[:, ::1] out = arr
    cdef double[::1] ev = evs
    cdef HandEval h
    cdef Top t
    _listing(&model.T, 1, &t)
    with nogil:
        for i in range(n):
            if timed:
                start = _now()
            _eval_hand(&hands[i, 0], &h, model.P.wheel_second)
            _hand_terms(&h, &model.T, &model.P)
            _search(&h, &model.T, &model.P, &t, True)
            if model.T.R != NULL:
                _rerank(&h, &model.T, &model.P, &t)
            if t.n == 0:
                for j in range(13):
                    out[i, j] = hands[i, j]
                ev[i] = -INFINITY
                if timed:
                    seconds[i] = _now() - start
                continue
            _split_codes(&h, t.front[0], t.mid[0], t.back[0], &out[i, 0])
            ev[i] = t.ev[0]
            if wins:
                row_win[i, 0] = model.F[h.cls3[t.front[0]]].p
                row_win[i, 1] = model.M[h.cls5[t.mid[0]]].p
                row_win[i, 2] = model.B[h.cls5[t.back[0]]].p
            if timed:
                seconds[i] = _now() - start
    return arr, evs


cdef void _read_rows(object front, object middle, object back, int* codes) except *:
    """The codes of one arrangement's rows laid out front 3 | middle 5 | back 5."""
    cdef int i
    if len(front) != 3 or len(middle) != 5 or len(back) != 5:
        raise ValueError("rows need 3, 5 and 5 card codes")
    for i in range(3):
        codes[i] = front[i]
    for i in range(5):
        codes[3 + i] = middle[i]
        codes[8 + i] = back[i]


def row_wins(Model model, front, middle, back):
    """(pf, pm, pb): each row's win chance against one opponent, of one arrangement (what
    arrangement_stats gives second, without the search its EV may need)."""
    cdef int codes[13]
    cdef const short* dense = DENSE5[model.P.wheel_second]
    _read_rows(front, middle, back, codes)
    return model.F[_class3(codes)].p, model.M[dense[_class5(codes + 3)]].p, model.B[dense[_class5(codes + 8)]].p


def arrangement_stats(Model model, front, middle, back):
    """(ev, (pf, pm, pb), valid, (front class, middle class, back class)) of one arrangement.

    ``ev`` is the table objective of the rows as laid out; for a fouled arrangement the
    caller replaces it with the foul payment.  Where the model re-ranks, a split the
    search lists for the best (within the margin) is on the search's scale, its correction
    less the best's (see _rerank), so each scores what solve_hand gives it; any other keeps
    the objective, as the best does.  Why not correct those too: the weights are fitted on
    the listed splits, and on the beginner's sets of 142 hands at 3 players their
    correction put its distance from the best further from deep mode's (root mean square
    0.93 chi) than the objective's own (0.62).  That takes the hand's search, so a caller
    that wants the win chances alone calls row_wins.
    """
    cdef int codes[13]
    cdef int i, cf, cm, cb
    _read_rows(front, middle, back, codes)
    cf = _class3(codes)
    cm = _class5(codes + 3)
    cb = _class5(codes + 8)
    cdef int32_t kf = CLASS_KEY3[cf]
    cdef int32_t km = CLASS_KEY5[model.P.wheel_second][cm]
    cdef int32_t kb = CLASS_KEY5[model.P.wheel_second][cb]
    valid = (kb > km > kf) if model.P.strict else (kb >= km >= kf)
    cdef int dm = DENSE5[model.P.wheel_second][cm], db = DENSE5[model.P.wheel_second][cb]
    ev = _ev(&model.F[cf], &model.M[dm], &model.B[db], &model.P)
    cdef double terms[NHTERM]
    cdef HandEval h
    cdef Top t
    cdef double best
    if model.T.W != NULL:             # the hand terms of the 13 cards laid out
        _terms_of(codes, model.T.W, model.P.nopp, STRAIGHT_FLUSH, terms)
        ev += _key_terms(terms, 0, kf) + _key_terms(terms, 1, km) + _key_terms(terms, 2, kb)
    if model.T.R != NULL:             # a listed split's correction, as the search leaves it
        _listing(&model.T, 1, &t)
        _eval_hand(codes, &h, model.P.wheel_second)
        _hand_terms(&h, &model.T, &model.P)
        _search(&h, &model.T, &model.P, &t, True)
        best = _rerank(&h, &model.T, &model.P, &t)
        for i in range(t.n):
            if h.cls3[t.front[i]] == cf and h.cls5[t.mid[i]] == dm and h.cls5[t.back[i]] == db:
                ev += _rerank_value(&model.F[cf], &model.M[dm], &model.B[db], &model.T, &model.P) - best
                break
    return ev, (model.F[cf].p, model.M[dm].p, model.B[db].p), bool(valid), (cf, cm, cb)


def rerank_features(Model model, const int[:, ::1] arrangements not None):
    """(N, 18) re-ranking features (see _rerank_features) of (N, 13) valid arrangements laid
    out front 3 | middle 5 | back 5, against ``model``'s row tables; the features of the
    same rows the search scores (solver.training.rerank fits the weights on them)."""
    cdef Py_ssize_t n = arrangements.shape[0], i
    cdef int j, cf, cm, cb
    cdef int codes[13]
    _check_hands(arrangements)
    out = np.empty((n, NRERANK), dtype=np.float64)
    cdef double[:, ::1] x = out
    for i in range(n):
        for j in range(13):
            codes[j] = arrangements[i, j]
        cf = _class3(codes)
        cm = DENSE5[model.P.wheel_second][_class5(codes + 3)]
        cb = DENSE5[model.P.wheel_second][_class5(codes + 8)]
        _rerank_features(&model.F[cf], &model.M[cm], &model.B[cb], &model.P, &x[i, 0])
    return out


RERANK_FEATURES = NRERANK
RERANKED = RERANK_K


def row_classes(const int[:, ::1] arrangements not None):
    """(N, 3) int32 classes of (N, 13) arrangements laid out front 3 | middle 5 | back 5."""
    cdef Py_ssize_t n = arrangements.shape[0], i
    if arrangements.shape[1] != 13:
        raise ValueError(f"arrangements must have 13 columns, got {arrangements.shape[1]}")
    res = np.empty((n, 3), dtype=np.int32)
    cdef int[:, ::1] out = res
    with nogil:
        for i in range(n):
            out[i, 0] = _class3(&arrangements[i, 0])
            out[i, 1] = _class5(&arrangements[i, 3])
            out[i, 2] = _class5(&arrangements[i, 8])
    return res


def strongest_back_first(const int[:, ::1] hands not None, bint wheel_second=True):
    """The naive setting of each hand: back = best 5 of 13, middle = best 5 of the rest.

    Ties between equal keys go to the first subset in position order (deterministic).
    Returns (N, 13) int32 laid out front 3 | middle 5 | back 5.
    """
    cdef Py_ssize_t n = hands.shape[0], i
    cdef int s, j, b, m
    cdef int32_t kbest
    _check_hands(hands)
    arr = np.empty((n, 13), dtype=np.int32)
    cdef int[:, ::1] out = arr
    cdef HandEval h
    with nogil:
        for i in range(n):
            _eval_hand(&hands[i, 0], &h, wheel_second)
            b = 0
            kbest = -1
            for s in range(NSUB5):
                if h.key5[s] > kbest:
                    kbest = h.key5[s]
                    b = s
            m = 0
            kbest = -1
            for s in range(NMID):
                if h.key5[SPLIT_M[b][s]] > kbest:
                    kbest = h.key5[SPLIT_M[b][s]]
                    m = s
            for j in range(3):
                out[i, j] = h.codes[SUB3[SPLIT_F[b][m]][j]]
            for j in range(5):
                out[i, 3 + j] = h.codes[SUB5[SPLIT_M[b][m]][j]]
                out[i, 8 + j] = h.codes[SUB5[b][j]]
    return arr


# ---- the Pareto front of a hand's splits (deep mode's candidates at cheap tables) -------

ctypedef struct FrontPoint:
    int32_t kb
    int32_t km
    int32_t kf
    int b          # the back subset
    int j          # which of its NMID (middle, front) pairs


cdef int _point_order(const void* x, const void* y) noexcept nogil:
    """Strongest back first, then middle, then front; equal triples by split, so the order
    (and the split kept of each triple) does not depend on the sort."""
    cdef const FrontPoint* a = <const FrontPoint*>x
    cdef const FrontPoint* b = <const FrontPoint*>y
    if a.kb != b.kb:
        return -1 if a.kb > b.kb else 1
    if a.km != b.km:
        return -1 if a.km > b.km else 1
    if a.kf != b.kf:
        return -1 if a.kf > b.kf else 1
    if a.b != b.b:
        return -1 if a.b < b.b else 1
    return -1 if a.j < b.j else (1 if a.j > b.j else 0)


cdef int _key_order(const void* x, const void* y) noexcept nogil:
    cdef int32_t a = (<const int32_t*>x)[0], b = (<const int32_t*>y)[0]
    return -1 if a > b else (1 if a < b else 0)


def pareto_sets(codes, bint wheel_second=True, bint strict=False):
    """The valid splits of 13 card codes that no other valid split beats or ties in every
    row, one per strength-key triple: (K, 13) int32 laid out front 3 | middle 5 | back 5,
    strongest back first.  Any other split is matched or beaten row for row by one of these
    on every deal, so the best set against any table is among them (what the regret
    benchmark's oracle weighs).

    How: the 72,072 splits sorted by back, then middle, then front, strongest first; a
    split is on the front unless one before it has a middle and a front at least as strong,
    which a running maximum of the fronts seen over the middles' strength ranks (a Fenwick
    tree) answers in a few steps."""
    cdef int buf[13]
    cdef HandEval h
    cdef int32_t ranks[NSUB5]
    cdef int32_t tree[NSUB5 + 1]
    cdef int n = 0, kept = 0, nk = 0, b, j, i, r, lo, hi
    cdef int32_t kb, km, kf, best
    cdef FrontPoint* p
    _read13(codes, buf)
    cdef FrontPoint* pts = <FrontPoint*>malloc(NSUB5 * NMID * sizeof(FrontPoint))
    cdef int* keep = <int*>malloc(NSUB5 * NMID * sizeof(int))
    if pts == NULL or keep == NULL:
        free(pts)
        free(keep)
        raise MemoryError()
    try:
        with nogil:
            _eval_hand(buf, &h, wheel_second)
            for b in range(NSUB5):
                kb = h.key5[b]
                for j in range(NMID):
                    km = h.key5[SPLIT_M[b][j]]
                    kf = h.key3[SPLIT_F[b][j]]
                    if kb - strict >= km and km - strict >= kf:
                        pts[n].kb = kb
                        pts[n].km = km
                        pts[n].kf = kf
                        pts[n].b = b
                        pts[n].j = j
                        n += 1
            qsort(pts, n, sizeof(FrontPoint), _point_order)
            # the middles' distinct keys, strongest first: a middle's rank is 1 + its index
            for i in range(NSUB5):
                ranks[i] = h.key5[i]
            qsort(ranks, NSUB5, sizeof(int32_t), _key_order)
            for i in range(NSUB5):
                if nk == 0 or ranks[i] != ranks[nk - 1]:
                    ranks[nk] = ranks[i]
                    nk += 1
            for i in range(nk + 1):
                tree[i] = -1
            for i in range(n):
                p = &pts[i]
                if i > 0 and p.kb == pts[i - 1].kb and p.km == pts[i - 1].km and p.kf == pts[i - 1].kf:
                    continue  # the same triple as the split before: one per triple
                lo, hi = 0, nk - 1
                while lo < hi:  # the rank of this middle's key (ranks descending)
                    r = (lo + hi) // 2
                    if ranks[r] > p.km:
                        lo = r + 1
                    else:
                        hi = r
                best = -1
                r = lo + 1
                while r > 0:  # the strongest front seen with a middle at least as strong
                    if tree[r] > best:
                        best = tree[r]
                    r -= r & -r
                if best >= p.kf:
                    continue
                keep[kept] = i
                kept += 1
                r = lo + 1
                while r <= nk:
                    if tree[r] < p.kf:
                        tree[r] = p.kf
                    r += r & -r
        out = np.empty((kept, 13), dtype=np.int32)
        for i in range(kept):
            p = &pts[keep[i]]
            _split_codes(&h, SPLIT_F[p.b][p.j], SPLIT_M[p.b][p.j], p.b, buf)
            for j in range(13):
                out[i, j] = buf[j]
        return out
    finally:
        free(pts)
        free(keep)


# ---- special hands and exact settlement (deep mode) --------------------------------------

DEF SP_DRAGON_FLUSH = 0
DEF SP_DRAGON = 1
DEF SP_SIX_PAIRS = 2
DEF SP_THREE_FLUSHES = 3
DEF SP_THREE_STRAIGHTS = 4


cdef bint _has_run(int* cnt, int length, int start) noexcept nogil:
    """Take a run of ``length`` ranks starting at rank index ``start`` (-1: ace-low) from cnt."""
    cdef int i, r
    for i in range(length):
        r = 12 if (start < 0 and i == 0) else (i - 1 if start < 0 else start + i)
        if cnt[r] == 0:
            return False
    return True


cdef void _take_run(int* cnt, int length, int start, int delta) noexcept nogil:
    cdef int i, r
    for i in range(length):
        r = 12 if (start < 0 and i == 0) else (i - 1 if start < 0 else start + i)
        cnt[r] += delta


cdef bint _three_straights(int* cnt, bint ace_low) noexcept nogil:
    cdef int a, b, c, lo5 = -1 if ace_low else 0, lo3 = -1 if ace_low else 0
    cdef bint found = False
    for a in range(lo5, 9):
        if not _has_run(cnt, 5, a):
            continue
        _take_run(cnt, 5, a, -1)
        for b in range(a, 9):
            if not _has_run(cnt, 5, b):
                continue
            _take_run(cnt, 5, b, -1)
            for c in range(lo3, 11):
                if _has_run(cnt, 3, c):
                    found = True
                    break
            _take_run(cnt, 5, b, 1)
            if found:
                break
        _take_run(cnt, 5, a, 1)
        if found:
            return True
    return False


cdef int _special_of(const int* codes, const int* values, bint six_strict, bint ace_low) noexcept nogil:
    """Index (SPECIAL_NAMES order) of the highest-valued special in 13 cards, or -1."""
    cdef int cnt[13]
    cdef int sc[4]
    cdef int i, best = -1, pairs = 0, twos = 0, ones = 0, distinct = 0, suits_used = 0
    cdef int found[5]
    cdef int a, b, c, t
    memset(cnt, 0, sizeof(cnt))
    memset(sc, 0, sizeof(sc))
    for i in range(13):
        cnt[codes[i] >> 2] += 1
        sc[codes[i] & 3] += 1
    for i in range(5):
        found[i] = 0
    for i in range(13):
        pairs += cnt[i] // 2
        twos += cnt[i] == 2
        ones += cnt[i] == 1
        distinct += cnt[i] > 0
    for i in range(4):
        suits_used += sc[i] > 0
    if distinct == 13:
        found[SP_DRAGON_FLUSH if suits_used == 1 else SP_DRAGON] = 1
    if six_strict:
        found[SP_SIX_PAIRS] = twos == 6 and ones == 1
    else:
        found[SP_SIX_PAIRS] = pairs >= 6
    # suit counts sorted descending: 13 | 10 3 | 8 5 | 5 5 3
    a = sc[0]; b = sc[1]; c = sc[2]; t = sc[3]
    _sort4_desc(&a, &b, &c, &t)
    found[SP_THREE_FLUSHES] = ((a == 13) or (a == 10 and b == 3 and c == 0) or (a == 8 and b == 5 and c == 0)
                               or (a == 5 and b == 5 and c == 3 and t == 0))
    found[SP_THREE_STRAIGHTS] = _three_straights(cnt, ace_low)
    for i in range(5):
        if found[i] and (best < 0 or values[i] > values[best]):
            best = i
    return best


cdef inline void _sort4_desc(int* a, int* b, int* c, int* d) noexcept nogil:
    cdef int v[4]
    cdef int i, j, t
    v[0] = a[0]; v[1] = b[0]; v[2] = c[0]; v[3] = d[0]
    for i in range(1, 4):
        t = v[i]
        j = i - 1
        while j >= 0 and v[j] < t:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = t
    a[0] = v[0]; b[0] = v[1]; c[0] = v[2]; d[0] = v[3]


def special_index(codes, values, bint six_pairs_strict=False, bint ace_low_runs=True):
    """Index into SPECIAL_NAMES of the highest-valued special of 13 codes, or -1 (test shim)."""
    cdef int buf[13]
    cdef int vals[5]
    cdef int i
    _read13(codes, buf)
    for i in range(5):
        vals[i] = values[i]
    return _special_of(buf, vals, six_pairs_strict, ace_low_runs)


def special_indexes(const int[:, ::1] hands not None, values, bint six_pairs_strict=False,
                    bint ace_low_runs=True):
    """special_index of every row of an (N, 13) array."""
    cdef int vals[5]
    cdef Py_ssize_t i, n = hands.shape[0]
    for i in range(5):
        vals[i] = values[i]
    res = np.empty(n, dtype=np.int32)
    cdef int[::1] out = res
    with nogil:
        for i in range(n):
            out[i] = _special_of(&hands[i, 0], vals, six_pairs_strict, ace_low_runs)
    return res


ctypedef struct Settle:
    int strict
    int ties_owner
    int sweep_mult
    int sweep_bonus
    int majority_bonus
    int sap_lang
    int sap_lang_min_players
    int sap_lang_mult
    int foul_mode         # 0 flat, 1 opponent x2, 2 opponent x1
    int foul_chi
    int foul_sap_lang
    int specials[5]
    int special_vs_special   # 0 higher, 1 tie, 2 difference
    int aces
    int aces_all_pairs


cdef int _special_net(int vi, int vj, const Settle* o) noexcept nogil:
    if vi == vj:
        return 0
    if vi and vj:
        if o.special_vs_special == 1:
            return 0
        if o.special_vs_special == 2:
            return vi - vj
    return vi if vi > vj else -vj


cdef int _settle0(int n, const int32_t* keys, const int* vals, const int* special, const int* aces,
                  const Settle* o) noexcept nogil:
    """Seat 0's chi in one deal (a C port of scoring.score_table; keys/vals are [n][3])."""
    cdef int pairs[4][4]
    cdef bint scooped[4][4]
    cdef bint sp_pair[4][4]
    cdef bint foul[4]
    cdef bint sl[4]
    cdef int i, j, k, row, net, won_i, won_j, a, b, maxaces = 0, total = 0
    cdef bint all_sc, involved
    for i in range(n):
        for j in range(n):
            pairs[i][j] = 0
            scooped[i][j] = False
            sp_pair[i][j] = False
        if o.strict:
            foul[i] = special[i] < 0 and not (keys[3 * i + 2] > keys[3 * i + 1] > keys[3 * i])
        else:
            foul[i] = special[i] < 0 and not (keys[3 * i + 2] >= keys[3 * i + 1] >= keys[3 * i])
        if aces[i] > maxaces:
            maxaces = aces[i]
    for i in range(n):
        for j in range(i + 1, n):
            if special[i] >= 0 or special[j] >= 0:
                net = _special_net(o.specials[special[i]] if special[i] >= 0 else 0,
                                   o.specials[special[j]] if special[j] >= 0 else 0, o)
                sp_pair[i][j] = True
                sp_pair[j][i] = True
            elif foul[i] and foul[j]:
                net = 0
            elif foul[i] or foul[j]:
                k = j if foul[i] else i      # the valid player
                if o.foul_mode == 0:
                    net = o.foul_chi
                else:
                    net = (vals[3 * k] + vals[3 * k + 1] + vals[3 * k + 2]) * (2 if o.foul_mode == 1 else 1)
                if foul[i]:
                    net = -net
                    scooped[j][i] = o.foul_sap_lang
                else:
                    scooped[i][j] = o.foul_sap_lang
            else:
                net = 0
                won_i = 0
                won_j = 0
                for row in range(3):
                    a = keys[3 * i + row]
                    b = keys[3 * j + row]
                    if a == b and o.ties_owner and i == 0:
                        a += 1     # seat 0 owns the table and takes ties (O5)
                    if a > b:
                        won_i += 1
                        net += vals[3 * i + row]
                    elif b > a:
                        won_j += 1
                        net -= vals[3 * j + row]
                if won_i >= 2:
                    net += o.majority_bonus
                if won_j >= 2:
                    net -= o.majority_bonus
                if won_i == 3 or won_j == 3:
                    net = net * o.sweep_mult + (o.sweep_bonus if net > 0 else -o.sweep_bonus)
                    if won_i == 3:
                        scooped[i][j] = True
                    else:
                        scooped[j][i] = True
            pairs[i][j] = net
            pairs[j][i] = -net
    if o.sap_lang and n >= 3 and n >= o.sap_lang_min_players:
        for i in range(n):
            all_sc = special[i] < 0 and not foul[i]
            for j in range(n):
                if j != i and not scooped[i][j]:
                    all_sc = False
            sl[i] = all_sc
        for i in range(n):
            if sl[i]:
                for j in range(n):
                    if j != i:
                        pairs[i][j] *= o.sap_lang_mult
                        pairs[j][i] = -pairs[i][j]
    if o.aces and maxaces < 4:
        for i in range(n):
            for j in range(i + 1, n):
                involved = sp_pair[i][j] or foul[i] or foul[j]
                if involved and not o.aces_all_pairs:
                    continue
                pairs[i][j] += aces[i] - aces[j]
                pairs[j][i] = -pairs[i][j]
    for j in range(1, n):
        total += pairs[0][j]
    return total


cdef void _read_settle(dict opts, Settle* o) except *:
    cdef int i
    o.strict = opts["strict"]
    o.ties_owner = opts["ties_owner"]
    o.sweep_mult = opts["sweep_mult"]
    o.sweep_bonus = opts["sweep_bonus"]
    o.majority_bonus = opts["majority_bonus"]
    o.sap_lang = opts["sap_lang"]
    o.sap_lang_min_players = opts["sap_lang_min_players"]
    o.sap_lang_mult = opts["sap_lang_mult"]
    o.foul_mode = opts["foul_mode"]
    o.foul_chi = opts["foul_chi"]
    o.foul_sap_lang = opts["foul_sap_lang"]
    for i in range(5):
        o.specials[i] = opts["specials"][i]
    o.special_vs_special = opts["special_vs_special"]
    o.aces = opts["aces"]
    o.aces_all_pairs = opts["aces_all_pairs"]


cdef void _row_info(const Row* F, const Row* M, const Row* B, int wheel_second, const int* arr,
                    int32_t* keys, int* vals, int* aces) noexcept nogil:
    cdef int cf = _class3(arr), cm = _class5(arr + 3), cb = _class5(arr + 8), i
    keys[0] = CLASS_KEY3[cf]
    keys[1] = CLASS_KEY5[wheel_second][cm]
    keys[2] = CLASS_KEY5[wheel_second][cb]
    vals[0] = <int> F[cf].v
    vals[1] = <int> M[DENSE5[wheel_second][cm]].v
    vals[2] = <int> B[DENSE5[wheel_second][cb]].v
    aces[0] = 0
    for i in range(13):
        aces[0] += arr[i] >= 48


def settle_table(Model model, dict opts, const int[:, ::1] arrangements not None, specials):
    """Seat 0's chi for one table of 2-4 arrangements (front 3 | middle 5 | back 5 codes);
    ``specials`` gives each seat's special index or -1.  Values come from the model's rules."""
    cdef Settle o
    cdef int n = arrangements.shape[0], i
    cdef int32_t keys[12]
    cdef int vals[12]
    cdef int sp[4]
    cdef int aces[4]
    if not 2 <= n <= 4 or arrangements.shape[1] != 13:
        raise ValueError("settle_table needs 2-4 arrangements of 13 codes")
    _read_settle(opts, &o)
    for i in range(n):
        sp[i] = specials[i]
        _row_info(model.F, model.M, model.B, model.P.wheel_second, &arrangements[i, 0], &keys[3 * i],
                  &vals[3 * i], &aces[i])
    return _settle0(n, keys, vals, sp, aces, &o)


def settle_first(Model model, dict opts, const int[:, ::1] mine not None, const int[:, :, ::1] opponents not None,
                 const int[::1] my_special not None, const int[:, ::1] opp_special not None):
    """Seat 0's chi summed over deals: candidate k of ``mine`` (K, 13) against each deal of
    ``opponents`` (S, n-1, 13); specials as indexes (-1 none).  Returns (K,) int64 sums and
    (K,) int64 sums of the squared per-deal difference from candidate 0 (paired errors)."""
    cdef Settle o
    cdef Py_ssize_t K = mine.shape[0], S = opponents.shape[0], s, k
    cdef int nopp = opponents.shape[1], i
    cdef int32_t keys[12]
    cdef int vals[12]
    cdef int sp[4]
    cdef int aces[4]
    if not 1 <= nopp <= 3 or mine.shape[1] != 13 or opponents.shape[2] != 13:
        raise ValueError("settle_first needs (K, 13) and (S, 1..3, 13) arrangements")
    if my_special.shape[0] != K or opp_special.shape[0] != S or opp_special.shape[1] != nopp:
        raise ValueError("special index arrays do not match the arrangements")
    _read_settle(opts, &o)
    res = np.zeros(K, dtype=np.int64)
    sq = np.zeros(K, dtype=np.int64)
    cdef long long[::1] out = res
    cdef long long[::1] out2 = sq
    cdef long long first = 0, got, d
    with nogil:
        for s in range(S):
            for i in range(nopp):
                _row_info(model.F, model.M, model.B, model.P.wheel_second, &opponents[s, i, 0],
                          &keys[3 * (i + 1)], &vals[3 * (i + 1)], &aces[i + 1])
                sp[i + 1] = opp_special[s, i]
            for k in range(K):
                _row_info(model.F, model.M, model.B, model.P.wheel_second, &mine[k, 0], keys, vals, aces)
                sp[0] = my_special[k]
                got = _settle0(nopp + 1, keys, vals, sp, aces, &o)
                if k == 0:
                    first = got
                d = got - first
                out[k] += got
                out2[k] += d * d
    return res, sq
