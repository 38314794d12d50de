# cython: language_level=3
"""The compiled DRAT checker: the twin of ``solver/proofcheck.py``.

The same state and the same rules as the reference (read its docstring for
what is checked and why it is sound): a multiset of clauses held, the
top-level assignment (the closure of unit propagation over them, which only
grows), lemmas RUP or else RAT on their first literal, deletions honoured
except of a clause not held or of a reason (one true literal, the others false
at top level).  Here unit propagation uses two watched literals per clause
with a blocker literal each (a unit clause is never watched: its literal is
set at top level for as long as it is held), clauses live in one arena of literals with a hash of the
literal set for the deletions, and the binary DRAT is parsed in a stream
(:meth:`Checker.feed` takes any split of the bytes).

Contract: after :meth:`Checker.feed` or :meth:`Checker.step`, ``state()``
gives ``(checked, failed_step, lemmas, rat, deletions, ignored)``; once a step
has checked the empty clause or failed, every later step is ignored.
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

cdef inline int32_t lit_index(long lit) noexcept:
    return <int32_t>(2 * lit if lit > 0 else -2 * lit + 1)

cdef inline uint64_t mix(uint64_t x) noexcept:
    """splitmix64's finaliser: the hash of one literal."""
    x += 0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)

cdef void* grow(void* p, int64_t n, size_t size) except NULL:
    cdef void* q = realloc(p, n * size if n > 0 else size)
    if q == NULL:
        raise MemoryError()
    return q


cdef class Checker:
    # literals: index 2v (v true) and 2v+1 (v false)
    cdef int32_t nvars
    cdef int8_t* val            # per literal index: 1 true, -1 false, 0 free
    cdef int32_t* mark          # per literal index: stamp of the clause being read
    cdef int32_t stamp
    cdef int32_t* trail
    cdef int64_t trail_len, qhead, top
    # watches: per literal index, the clauses watching it (visited when it goes false)
    cdef int32_t** wl
    cdef int32_t* wl_n
    cdef int32_t* wl_cap
    # clauses: literals in the arena from start[c], size[c]; copies[c] held (0: dropped)
    cdef int32_t* arena
    cdef int64_t arena_len, arena_cap
    cdef int64_t* start
    cdef int32_t* size
    cdef int32_t* copies
    cdef int32_t* hnext         # the hash chain
    cdef int32_t nclauses, clause_cap, live
    cdef int32_t* buckets
    cdef int64_t nbuckets
    # the step being read (feed) and the one being checked
    cdef int32_t* buf
    cdef int64_t buf_len, buf_cap
    cdef int32_t* res           # a resolvent (RAT)
    cdef int64_t res_cap
    cdef int reading_kind       # 0: expecting 'a'/'d'; 'a' or 'd' inside a step
    cdef uint64_t value
    cdef int shift
    # the outcome
    cdef public bint conflict   # unit propagation on the clauses held fails
    cdef public bint checked
    cdef public int64_t failed_step, steps, lemmas, rat, deletions, ignored
    cdef public object first_rat        # (step, DIMACS literals) of the first RAT lemma, or None

    def __cinit__(self):
        self.nvars = 0
        self.stamp = 0
        self.val = NULL; self.mark = NULL; self.trail = NULL
        self.wl = NULL; self.wl_n = NULL; self.wl_cap = NULL
        self.arena = NULL; self.start = NULL; self.size = NULL; self.copies = NULL; self.hnext = NULL
        self.buckets = NULL; self.buf = NULL; self.res = NULL
        self.trail_len = self.qhead = self.top = 0
        self.arena_len = self.arena_cap = 0
        self.nclauses = self.clause_cap = self.live = 0
        self.buf_len = self.buf_cap = self.res_cap = 0
        self.reading_kind = 0
        self.value = 0
        self.shift = 0
        self.conflict = self.checked = False
        self.failed_step = -1
        self.steps = self.lemmas = self.rat = self.deletions = self.ignored = 0
        self.first_rat = None
        self.nbuckets = 1 << 16
        self.buckets = <int32_t*> grow(NULL, self.nbuckets, sizeof(int32_t))
        memset(self.buckets, 0xFF, self.nbuckets * sizeof(int32_t))
        self._vars(1024)

    def __dealloc__(self):
        cdef int64_t i
        if self.wl != NULL:
            for i in range(2 * self.nvars + 2):
                free(self.wl[i])
        free(self.val); free(self.mark); free(self.trail); free(self.wl); free(self.wl_n)
        free(self.wl_cap); free(self.arena); free(self.start); free(self.size); free(self.copies)
        free(self.hnext); free(self.buckets); free(self.buf); free(self.res)

    cdef int _vars(self, int64_t n) except -1:
        """Room for variables 1..n."""
        cdef int64_t old = 2 * self.nvars + 2 if self.nvars else 0, new, i
        if n <= self.nvars:
            return 0
        n = max(n, 2 * self.nvars)
        new = 2 * n + 2
        self.val = <int8_t*> grow(self.val, new, sizeof(int8_t))
        self.mark = <int32_t*> grow(self.mark, new, sizeof(int32_t))
        self.wl = <int32_t**> grow(self.wl, new, sizeof(int32_t*))
        self.wl_n = <int32_t*> grow(self.wl_n, new, sizeof(int32_t))
        self.wl_cap = <int32_t*> grow(self.wl_cap, new, sizeof(int32_t))
        self.trail = <int32_t*> grow(self.trail, n + 1, sizeof(int32_t))
        for i in range(old, new):
            self.val[i] = 0
            self.mark[i] = 0
            self.wl[i] = NULL
            self.wl_n[i] = 0
            self.wl_cap[i] = 0
        self.nvars = <int32_t>n
        return 0

    cdef int _watch(self, int32_t x, int32_t c, int32_t blocker) except -1:
        """Clause ``c`` watches ``x``; ``blocker``: one of its other literals
        (when true, the clause is satisfied and need not be read)."""
        if self.wl_n[x] + 2 > self.wl_cap[x]:
            self.wl_cap[x] = 8 if self.wl_cap[x] == 0 else 2 * self.wl_cap[x]
            self.wl[x] = <int32_t*> grow(self.wl[x], self.wl_cap[x], sizeof(int32_t))
        self.wl[x][self.wl_n[x]] = c
        self.wl[x][self.wl_n[x] + 1] = blocker
        self.wl_n[x] += 2
        return 0

    cdef inline void _assign(self, int32_t x) noexcept:
        self.val[x] = 1
        self.val[x ^ 1] = -1
        self.trail[self.trail_len] = x
        self.trail_len += 1

    cdef int _propagate(self) except -1:
        """Unit propagation from the trail's unread literals: 1 on a conflict."""
        cdef int32_t x, f, c, t, n, i, j, k, sz
        cdef int32_t* ws
        cdef int32_t* lits
        while self.qhead < self.trail_len:
            x = self.trail[self.qhead]
            self.qhead += 1
            f = x ^ 1
            ws = self.wl[f]
            n = self.wl_n[f]
            j = 0
            i = 0
            while i < n:
                c = ws[i]
                if self.val[ws[i + 1]] == 1:      # the blocker is true: satisfied
                    ws[j] = c
                    ws[j + 1] = ws[i + 1]
                    j += 2
                    i += 2
                    continue
                i += 2
                if self.copies[c] == 0:
                    continue                      # dropped: forget the watch
                lits = self.arena + self.start[c]
                if lits[0] == f:
                    lits[0] = lits[1]
                    lits[1] = f
                if self.val[lits[0]] == 1:
                    ws[j] = c
                    ws[j + 1] = lits[0]
                    j += 2
                    continue
                sz = self.size[c]
                for k in range(2, sz):
                    if self.val[lits[k]] != -1:
                        t = lits[k]
                        lits[k] = f
                        lits[1] = t
                        self._watch(t, c, lits[0])
                        break
                else:
                    ws[j] = c
                    ws[j + 1] = lits[0]
                    j += 2
                    if self.val[lits[0]] == -1:
                        while i < n:
                            ws[j] = ws[i]
                            j += 1
                            i += 1
                        self.wl_n[f] = j
                        return 1
                    self._assign(lits[0])
            self.wl_n[f] = j
        return 0

    cdef void _backtrack(self) noexcept:
        cdef int32_t x
        while self.trail_len > self.top:
            self.trail_len -= 1
            x = self.trail[self.trail_len]
            self.val[x] = 0
            self.val[x ^ 1] = 0
        self.qhead = self.top

    cdef int _rup(self, int32_t* lits, int64_t n) except -1:
        """Does propagation on the clauses held and the negation of ``lits`` conflict?"""
        cdef int64_t i
        cdef int r
        if self.conflict:
            return 1
        for i in range(n):
            if self.val[lits[i]] == 1:
                return 1
        for i in range(n):
            if self.val[lits[i]] == 1:          # l and -l both in the clause
                self._backtrack()
                return 1
            if self.val[lits[i]] == 0:
                self._assign(lits[i] ^ 1)
        r = self._propagate()
        self._backtrack()
        return r

    cdef int _rat(self, int32_t* lits, int64_t n) except -1:
        """Is every resolvent on ``lits[0]`` with a held clause RUP or a tautology?"""
        cdef int32_t p = lits[0], c, x
        cdef int64_t i, m, k
        cdef int32_t* d
        cdef bint has, taut
        if self.res_cap < n + 1:
            self.res_cap = n + 1
            self.res = <int32_t*> grow(self.res, self.res_cap, sizeof(int32_t))
        for c in range(self.nclauses):
            if self.copies[c] == 0:
                continue
            d = self.arena + self.start[c]
            has = False
            for k in range(self.size[c]):
                if d[k] == (p ^ 1):
                    has = True
                    break
            if not has:
                continue
            if self.res_cap < n + self.size[c]:
                self.res_cap = n + self.size[c]
                self.res = <int32_t*> grow(self.res, self.res_cap, sizeof(int32_t))
            self.stamp += 1
            m = 0
            taut = False
            for i in range(n):
                self.mark[lits[i]] = self.stamp
                self.res[m] = lits[i]
                m += 1
            for k in range(self.size[c]):
                x = d[k]
                if x == (p ^ 1) or self.mark[x] == self.stamp:
                    continue
                if self.mark[x ^ 1] == self.stamp:
                    taut = True
                    break
                self.mark[x] = self.stamp
                self.res[m] = x
                m += 1
            if not taut and not self._rup(self.res, m):
                return 0
        return 1

    cdef int _normal(self) except -1:
        """Dedupe ``buf`` in place (first occurrences kept, so the pivot stays
        first): 0, or 1 for a tautology."""
        cdef int64_t i, m = 0
        cdef int32_t x
        self.stamp += 1
        for i in range(self.buf_len):
            x = self.buf[i]
            if self.mark[x ^ 1] == self.stamp:
                return 1
            if self.mark[x] != self.stamp:
                self.mark[x] = self.stamp
                self.buf[m] = x
                m += 1
        self.buf_len = m
        return 0

    cdef uint64_t _hash(self, int32_t* lits, int64_t n) noexcept:
        cdef uint64_t h = 0
        cdef int64_t i
        for i in range(n):
            h += mix(<uint64_t>lits[i])
        return h

    cdef int32_t _find(self, bint unlink) except -2:
        """The held clause with the literal set of ``buf`` (marked with the
        current stamp by :meth:`_normal`), or -1; ``unlink``: take it out of
        its hash chain when it has one copy."""
        cdef uint64_t b = self._hash(self.buf, self.buf_len) & <uint64_t>(self.nbuckets - 1)
        cdef int32_t c = self.buckets[b], prev = -1
        cdef int64_t k
        cdef bint same
        while c != -1:
            if self.size[c] == self.buf_len:
                same = True
                for k in range(self.size[c]):
                    if self.mark[self.arena[self.start[c] + k]] != self.stamp:
                        same = False
                        break
                if same:
                    if unlink and self.copies[c] == 1:
                        if prev == -1:
                            self.buckets[b] = self.hnext[c]
                        else:
                            self.hnext[prev] = self.hnext[c]
                    return c
            prev = c
            c = self.hnext[c]
        return -1

    cdef int _rehash(self) except -1:
        cdef int32_t c
        cdef uint64_t b
        free(self.buckets)
        self.nbuckets *= 2
        self.buckets = <int32_t*> grow(NULL, self.nbuckets, sizeof(int32_t))
        memset(self.buckets, 0xFF, self.nbuckets * sizeof(int32_t))
        for c in range(self.nclauses):
            if self.copies[c]:
                b = self._hash(self.arena + self.start[c], self.size[c]) & <uint64_t>(self.nbuckets - 1)
                self.hnext[c] = self.buckets[b]
                self.buckets[b] = c
        return 0

    cdef int _add(self) except -1:
        """Hold the (normal) clause in ``buf``; propagate at top level."""
        cdef int32_t c = self._find(False), x
        cdef int64_t n = self.buf_len, i, nf
        cdef int32_t* lits
        cdef uint64_t b
        if c != -1:
            self.copies[c] += 1
            return 0
        if self.nclauses == self.clause_cap:
            self.clause_cap = 1024 if self.clause_cap == 0 else 2 * self.clause_cap
            self.start = <int64_t*> grow(self.start, self.clause_cap, sizeof(int64_t))
            self.size = <int32_t*> grow(self.size, self.clause_cap, sizeof(int32_t))
            self.copies = <int32_t*> grow(self.copies, self.clause_cap, sizeof(int32_t))
            self.hnext = <int32_t*> grow(self.hnext, self.clause_cap, sizeof(int32_t))
        if self.arena_len + n > self.arena_cap:
            self.arena_cap = max(2 * self.arena_cap, self.arena_len + n, 1 << 16)
            self.arena = <int32_t*> grow(self.arena, self.arena_cap, sizeof(int32_t))
        c = self.nclauses
        self.nclauses += 1
        self.live += 1
        self.start[c] = self.arena_len
        self.size[c] = <int32_t>n
        self.copies[c] = 1
        lits = self.arena + self.arena_len
        self.arena_len += n
        # true literals first, then free ones, then false: the watches are the first two
        nf = 0
        for i in range(n):
            lits[i] = self.buf[i]
        for i in range(n):
            if self.val[lits[i]] == 1:
                x = lits[nf]; lits[nf] = lits[i]; lits[i] = x
                nf += 1
        for i in range(nf, n):
            if self.val[lits[i]] == 0:
                x = lits[nf]; lits[nf] = lits[i]; lits[i] = x
                nf += 1
        b = self._hash(lits, n) & <uint64_t>(self.nbuckets - 1)
        self.hnext[c] = self.buckets[b]
        self.buckets[b] = c
        if self.live > self.nbuckets:
            self._rehash()
        if self.conflict:
            return 0
        if nf == 0:
            self.conflict = True
            return 0
        if n >= 2:
            self._watch(lits[0], c, lits[1])
            self._watch(lits[1], c, lits[0])
        if nf == 1 and self.val[lits[0]] == 0:
            self._assign(lits[0])
            if self._propagate():
                self.conflict = True
            self.top = self.trail_len
        return 0

    cdef int _delete(self) except -1:
        """Drop one copy of the clause in ``buf``: 1, or 0 (ignored) when not
        held or a reason."""
        cdef int32_t c = self._find(False)
        cdef int64_t k, t = 0, f = 0
        cdef int32_t* lits
        if c == -1:
            return 0
        lits = self.arena + self.start[c]
        for k in range(self.size[c]):
            if self.val[lits[k]] == 1:
                t += 1
            elif self.val[lits[k]] == -1:
                f += 1
        if t == 1 and t + f == self.size[c]:
            return 0
        self._find(True)
        self.copies[c] -= 1
        if self.copies[c] == 0:
            self.live -= 1
        return 1

    cdef int _step(self, int kind) except -1:
        """Check and apply the step read into ``buf`` (literal indices)."""
        cdef int64_t n
        cdef int32_t pivot
        if self.checked or self.failed_step >= 0:
            self.steps += 1
            return 0
        for n in range(self.buf_len):
            if (self.buf[n] >> 1) > self.nvars:
                self._vars(self.buf[n] >> 1)
        if kind == 100:          # 'd'
            if self.conflict or self._normal() or not self._delete():
                self.ignored += 1
            else:
                self.deletions += 1
            self.steps += 1
            return 0
        n = self.buf_len
        if self._rup(self.buf, n):
            pass
        elif n > 0 and self._rat(self.buf, n):
            self.rat += 1
            if self.first_rat is None:
                self.first_rat = (self.steps, [(x >> 1) * (-1 if x & 1 else 1) for x in self.buf[:n]])
        else:
            self.failed_step = self.steps
            self.steps += 1
            return 0
        self.lemmas += 1
        self.steps += 1
        if n == 0:
            self.checked = True
            return 0
        if self._normal() == 0:
            self._add()
        return 0

    cdef int _push(self, int32_t x) except -1:
        if self.buf_len == self.buf_cap:
            self.buf_cap = 64 if self.buf_cap == 0 else 2 * self.buf_cap
            self.buf = <int32_t*> grow(self.buf, self.buf_cap, sizeof(int32_t))
        self.buf[self.buf_len] = x
        self.buf_len += 1
        return 0

    def formula(self, clauses):
        """Hold the clauses of the formula (lists of DIMACS literals)."""
        for clause in clauses:
            self.buf_len = 0
            for lit in clause:
                self._push(lit_index(lit))
                if abs(lit) > self.nvars:
                    self._vars(abs(lit))
            if self._normal() == 0:
                self._add()

    def step(self, str kind, lits):
        """One step, ``"a"`` (a lemma) or ``"d"``, of DIMACS literals."""
        if self.reading_kind:
            raise ValueError("a step given inside a binary step")
        self.buf_len = 0
        for lit in lits:
            self._push(lit_index(lit))
        self._step(100 if kind == "d" else 97)

    def feed(self, const unsigned char[:] data):
        """The next bytes of a binary DRAT proof (any split)."""
        cdef int64_t i, n = data.shape[0]
        cdef unsigned char b
        for i in range(n):
            b = data[i]
            if self.reading_kind == 0:
                if b != 97 and b != 100:
                    raise ValueError(f"a step starts with 'a' or 'd', not byte {b}")
                self.reading_kind = b
                self.buf_len = 0
                continue
            self.value |= (<uint64_t>(b & 0x7F)) << self.shift
            self.shift += 7
            if b & 0x80:
                continue
            if self.value == 0:
                self._step(self.reading_kind)
                self.reading_kind = 0
            else:
                if self.value > 0x7FFFFFFF:
                    raise ValueError("a literal out of range")
                self._push(<int32_t>self.value)
            self.value = 0
            self.shift = 0

    def state(self):
        """``(checked, failed_step, lemmas, rat, deletions, ignored, inside)``:
        ``inside`` is true when the bytes fed end inside a step."""
        return (self.checked, self.failed_step, self.lemmas, self.rat, self.deletions, self.ignored,
                self.reading_kind != 0)

    def memory(self):
        """Bytes held by the arrays (the arena, clauses, watches, variables)."""
        cdef int64_t w = 0, i
        for i in range(2 * self.nvars + 2):
            w += self.wl_cap[i]
        return (4 * self.arena_cap + 20 * self.clause_cap + 4 * self.nbuckets + 4 * w
                + (2 * self.nvars + 2) * 17 + 4 * self.nvars)
