# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled hot path: strength keys of 3- and 5-card rows.

Cards are codes 0..51: ``rank_index = code // 4`` (0 = deuce .. 12 = ace) and
``suit = code % 4``.  Keys follow :mod:`solver.hands` exactly (the Python module is
the reference; tests compare the two on every 5-card class they can reach).
"""

from libc.stdint cimport int32_t, int64_t

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


def key3(codes):
    """Strength key of three card codes (test shim over the C routine)."""
    cdef int buf[3]
    cdef int i
    if len(codes) != 3:
        raise ValueError(f"key3 needs 3 card codes, got {len(codes)}")
    for i in range(3):
        buf[i] = codes[i]
    return key3_c(buf)
