# cython: language_level=3
"""The compiled Pyramid solution checker: names a line's tiles and replays it.

A second, small implementation of the rules of ``solver/pyramid/rules.py``,
separate from the search kernel (``cext/pyramid.pyx``): it shares no code and
no tables with it.  Its geometry, tiles and fit table are loaded once from the
pure-Python reference (:func:`load`, called by ``solver/pyramid/check.py``),
and it keeps only the plain board of faces: a move is legal when its face is
in the reserves, its position is empty and open (the start square on the empty
board; on level 1 a filled side neighbour; above, the tile below and that
tile's four side neighbours filled) and, after the first move, it fits a
filled side neighbour or the tile below.

``tests/test_pyramid_check.py`` holds it to the reference checker on every
deal of the test suite, valid lines and broken ones alike.
"""
from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from cext.rng cimport fisher_yates

DEF NPOS = 144
DEF NFACES = 38
DEF NSLOTS = 9
DEF NKINDS = 30

cdef int c_nside[NPOS]
cdef int c_side[NPOS][4]
cdef int c_below[NPOS]
cdef int c_start = -1
cdef int c_kind[NFACES]
cdef bint c_fit[2][NKINDS][NKINDS]
cdef list c_text = None        # c_text[face][pos]: "TILE@POS"
cdef list c_token = None       # c_token[face]
cdef list c_name = None        # c_name[pos]
cdef signed char c_deck[NPOS]  # the canonical deck, as faces

OK = 0
NOT_IN_RESERVE = 1
FILLED = 2
NOT_OPEN = 3
NO_FIT = 4
NO_TILE = 5        # naming: no tile of the kind in the reserves


def load(sides, below, int start, kinds, fit_continuous, fit_wild, tokens, names, deck):
    """Take the reference tables (positions' side neighbours and the one below,
    the start square, each face's kind, the fit table of each variant, the
    notation, the canonical deck of 144 faces).  Called once at import by
    ``solver.pyramid.check``."""
    global c_start, c_text, c_token, c_name
    cdef int p, i, a, b
    assert len(sides) == NPOS and len(below) == NPOS and len(kinds) == NFACES, "144 positions, 38 faces"
    assert len(tokens) == NFACES and len(names) == NPOS, "38 tokens, 144 names"
    for p in range(NPOS):
        assert len(sides[p]) <= 4, "at most 4 side neighbours"
        c_nside[p] = len(sides[p])
        for i in range(c_nside[p]):
            c_side[p][i] = sides[p][i]
        c_below[p] = -1 if below[p] is None else below[p]
    for i in range(NFACES):
        assert 0 <= kinds[i] < NKINDS, "kinds 0-29"
        c_kind[i] = kinds[i]
    for a in range(NKINDS):
        for b in range(NKINDS):
            c_fit[0][a][b] = bool(fit_continuous[a][b])
            c_fit[1][a][b] = bool(fit_wild[a][b])
    assert len(deck) == NPOS and all(0 <= f < NFACES for f in deck), "144 faces"
    for i in range(NPOS):
        c_deck[i] = deck[i]
    c_start = start
    c_token = list(tokens)
    c_name = list(names)
    c_text = [[f"{t}@{n}" for n in names] for t in tokens]


cdef struct Board:
    signed char face[NPOS]     # -1 empty
    signed char reserve[NSLOTS]
    int stock
    int placed


cdef void _start(Board *b, signed char *deal) noexcept:
    cdef int i
    memset(b.face, -1, NPOS)
    for i in range(NSLOTS):
        b.reserve[i] = deal[i]
    b.stock = NSLOTS
    b.placed = 0


cdef bint _open(Board *b, int p) noexcept:
    cdef int i, q
    if b.face[p] >= 0:
        return False
    if b.placed == 0:
        return p == c_start
    q = c_below[p]
    if q < 0:
        for i in range(c_nside[p]):
            if b.face[c_side[p][i]] >= 0:
                return True
        return False
    if b.face[q] < 0:
        return False
    for i in range(c_nside[q]):
        if b.face[c_side[q][i]] < 0:
            return False
    return True


cdef bint _fits(Board *b, int variant, int face, int p) noexcept:
    cdef int i, q, k = c_kind[face]
    for i in range(c_nside[p]):
        q = b.face[c_side[p][i]]
        if q >= 0 and c_fit[variant][k][c_kind[q]]:
            return True
    q = c_below[p]
    return q >= 0 and b.face[q] >= 0 and c_fit[variant][k][c_kind[b.face[q]]]


cdef int _play(Board *b, signed char *deal, int variant, int face, int p, int *slot) noexcept:
    """Play ``face`` on ``p`` from its lowest slot; return OK or why not."""
    cdef int i
    slot[0] = -1
    for i in range(NSLOTS):
        if b.reserve[i] == face:
            slot[0] = i
            break
    if slot[0] < 0:
        return NOT_IN_RESERVE
    return _play_slot(b, deal, variant, slot[0], p)


cdef int _play_slot(Board *b, signed char *deal, int variant, int slot, int p) noexcept:
    """Play the tile of reserve slot ``slot`` (the lowest slot holding its
    face: the callers make sure) on ``p``; return OK or why not."""
    cdef int face = b.reserve[slot]
    if b.face[p] >= 0:
        return FILLED
    if not _open(b, p):
        return NOT_OPEN
    if b.placed > 0 and not _fits(b, variant, face, p):
        return NO_FIT
    b.face[p] = face
    b.reserve[slot] = deal[b.stock] if b.stock < NPOS else -1
    b.stock += 1
    b.placed += 1
    return OK


cdef inline int _slot_of_kind(Board *b, int kind) noexcept:
    """The lowest reserve slot holding a tile of ``kind`` (decision 1), or -1.
    It is also the lowest slot holding that tile's face."""
    cdef int i
    for i in range(NSLOTS):
        if b.reserve[i] >= 0 and c_kind[b.reserve[i]] == kind:
            return i
    return -1


cdef void _load(deal_faces, signed char *deal) except *:
    cdef int i
    if c_text is None:
        raise RuntimeError("pyramid_check.load() was not called")
    if len(deal_faces) != NPOS:
        raise ValueError("a deal has 144 tiles")
    for i in range(NPOS):
        if not 0 <= deal_faces[i] < NFACES:
            raise ValueError(f"bad face {deal_faces[i]}")
        deal[i] = deal_faces[i]


def _reason(int code, int face, int p):
    token, where = c_token[face], c_name[p]
    return {NOT_IN_RESERVE: f"{token} is not in the reserves", FILLED: f"{where} is already filled",
            NOT_OPEN: f"{where} is not open", NO_FIT: f"{token} fits no tile next to {where}"}[code]


def check_moves(deal_faces, moves, int variant=0):
    """Replay ``moves`` (pairs of face 0-37 and position 0-143) from the start.

    Returns (moves played, error): error is None when every move was legal,
    else (1-based number of the bad move, the reason in words).
    """
    cdef signed char deal[NPOS]
    cdef Board b
    cdef int n = 0, face, p, code, slot
    assert variant == 0 or variant == 1, "variant 0 or 1"
    _load(deal_faces, deal)
    _start(&b, deal)
    for face, p in moves:
        if not (0 <= face < NFACES and 0 <= p < NPOS):
            raise ValueError(f"move {n + 1}: face 0-37 and position 0-143")
        code = _play(&b, deal, variant, face, p, &slot)
        if code != OK:
            return n, (n + 1, _reason(code, face, p))
        n += 1
    return n, None


def name_and_check(deal_faces, kind_line, int variant=0, face_prefix=()):
    """Name the tiles of a line of (kind, position) pairs and replay them.

    Each kind is taken from the lowest reserve slot holding a tile of that kind
    (docs/pyramid.md, decision 1).  ``face_prefix``: moves (face, position)
    played first, as given.  Returns (moves as ``TILE@POS`` text, slots 1-9,
    error), the prefix included: error is None when every move was legal,
    else (1-based move number, reason).  The lists stop before the first bad move.
    """
    cdef signed char deal[NPOS]
    cdef Board b
    cdef int n = 0, kind, p, code, slot, i, face
    cdef list text = [], slots = []
    assert variant == 0 or variant == 1, "variant 0 or 1"
    _load(deal_faces, deal)
    _start(&b, deal)
    for face, p in face_prefix:
        if not (0 <= face < NFACES and 0 <= p < NPOS):
            raise ValueError(f"move {n + 1}: face 0-37 and position 0-143")
        code = _play(&b, deal, variant, face, p, &slot)
        if code != OK:
            return text, slots, (n + 1, _reason(code, face, p))
        text.append(c_text[face][p])
        slots.append(slot + 1)
        n += 1
    for kind, p in kind_line:
        if not (0 <= kind < NKINDS and 0 <= p < NPOS):
            raise ValueError(f"move {n + 1}: kind 0-29 and position 0-143")
        slot = _slot_of_kind(&b, kind)
        if slot < 0:
            return text, slots, (n + 1, f"no tile of kind {kind} in the reserves")
        face = b.reserve[slot]
        code = _play_slot(&b, deal, variant, slot, p)
        if code != OK:
            return text, slots, (n + 1, _reason(code, face, p))
        text.append(c_text[face][p])
        slots.append(slot + 1)
        n += 1
    return text, slots, None


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


def check_seeds(seeds, lines, int variant=0):
    """Deal each seed here (the canonical deck loaded from the reference,
    shuffled by the project's SplitMix64 Fisher-Yates), name the tiles of its
    line and replay it: the batch twin of :func:`name_and_check` for lines
    that must win.

    ``lines[i]`` is bytes of (kind, position) pairs (two bytes a move).
    Returns one (slots, error, seconds) per seed: ``slots`` the reserve slot
    1-9 of each move as text (``"5,6,8,..."``) when all 144 moves were legal,
    else None and ``error`` says why (the 1-based move number and the reason).
    """
    cdef signed char deal[NPOS]
    cdef int32_t idx[NPOS]
    cdef Board b
    cdef int n, kind, p, code, slot, i, face, length
    cdef const unsigned char *line
    cdef char text[2 * NPOS]
    cdef double t0
    cdef list out = []
    assert variant == 0 or variant == 1, "variant 0 or 1"
    if c_text is None:
        raise RuntimeError("pyramid_check.load() was not called")
    if len(seeds) != len(lines):
        raise ValueError("one line per seed")
    for seed, raw in zip(seeds, lines):
        t0 = _now()
        line = raw           # bytes
        length = len(raw) // 2
        for i in range(NPOS):
            idx[i] = i
        fisher_yates(idx, NPOS, <uint64_t>seed)
        for i in range(NPOS):
            deal[i] = c_deck[idx[i]]
        _start(&b, deal)
        error = None
        for n in range(length):
            kind = line[2 * n]
            p = line[2 * n + 1]
            if not (kind < NKINDS and p < NPOS):
                error = (n + 1, "kind 0-29 and position 0-143")
                break
            slot = _slot_of_kind(&b, kind)
            if slot < 0:
                error = (n + 1, f"no tile of kind {kind} in the reserves")
                break
            face = b.reserve[slot]
            code = _play_slot(&b, deal, variant, slot, p)
            if code != OK:
                error = (n + 1, _reason(code, face, p))
                break
            text[2 * n] = 48 + slot + 1
            text[2 * n + 1] = 44      # ','
        if error is None and b.placed < NPOS:
            error = (b.placed + 1, f"the line stops after {b.placed} moves; {NPOS} are needed")
        slots = None if error is not None else text[:2 * NPOS - 1].decode("ascii")
        out.append((slots, error, _now() - t0))
    return out
