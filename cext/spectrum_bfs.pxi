# Spectrum kernel, part of cext/spectrum.pyx (textual include): breadth-first
# search for the fewest turns to a target stash or value range.

ctypedef struct QItem:
    SState st
    int64_t parent
    int32_t move
    int32_t depth


def bfs_reach(stash, int direction, GoalTree tree, int node=0, *, target=None,
              int value_max=-1, int value_min=-1, int64_t max_states=2_000_000,
              int max_turns=60):
    """Breadth-first search for the fewest turns to a stash equal to ``target``
    (36 counts) or worth between ``value_min`` and ``value_max`` (-1 = open).

    Returns ``status`` ``found`` (``turns`` minimal, ``plan`` move codes),
    ``exhausted`` (every reachable position was visited: unreachable, proven)
    or ``limit`` (``states`` or ``turns`` or ``goal-tree``).  Reaching the goal
    is tested on each position as a turn ends, so a won game stops there.
    """
    cdef SState s = make_state(stash, direction, node)
    cdef SState tgt
    cdef bint exact = target is not None
    cdef bint cut = False
    cdef int64_t cap = max_states, head = 0, tail = 0, i, j
    cdef uint64_t hmask, hsize = 1, k
    cdef int64_t *table
    cdef QItem *queue
    cdef Succ *buf = NULL
    cdef int n, depth = 0
    cdef SState *c
    assert node < tree.count, "no such goal-tree node"
    assert max_states >= 1 and max_turns >= 0, "room for the start; turns >= 0"
    if exact:
        tgt = make_state(target, 1, 0)
    while hsize < <uint64_t>(2 * cap):
        hsize <<= 1
    hmask = hsize - 1
    table = <int64_t *>malloc(hsize * sizeof(int64_t))
    queue = <QItem *>malloc(cap * sizeof(QItem))
    if table == NULL or queue == NULL:
        free(table)
        free(queue)
        raise MemoryError()
    memset(table, 0xff, hsize * sizeof(int64_t))
    buf = <Succ *>malloc((24 + NCOL * 125 * 25) * sizeof(Succ))
    if buf == NULL:
        free(table)
        free(queue)
        raise MemoryError()
    try:
        s.won = 0
        queue[0].st = s
        queue[0].parent = -1
        queue[0].move = 0
        queue[0].depth = 0
        tail = 1
        table[skey(&s) & hmask] = 0
        while head < tail:
            c = &queue[head].st
            if (exact and c.w[0] == tgt.w[0] and c.w[1] == tgt.w[1]) or (
                    not exact and (value_max < 0 or c.value <= value_max)
                    and (value_min < 0 or c.value >= value_min)):
                plan = []
                i = head
                while queue[i].parent >= 0:
                    plan.append(queue[i].move)
                    i = queue[i].parent
                plan.reverse()
                return {"status": "found", "turns": len(plan), "plan": plan, "states": tail}
            depth = queue[head].depth
            if depth >= max_turns:
                cut = True
            elif not c.won:
                n = expand(c, tree, 6, buf)
                if n < 0:
                    return {"status": "limit", "limit": "goal-tree", "states": tail}
                for j in range(n):
                    k = skey(&buf[j].st) & hmask
                    while table[k] >= 0 and not same(&queue[table[k]].st, &buf[j].st):
                        k = (k + 1) & hmask
                    if table[k] >= 0:
                        continue
                    if tail >= cap:
                        return {"status": "limit", "limit": "states", "states": tail,
                                "turns_searched": depth}
                    table[k] = tail
                    queue[tail].st = buf[j].st
                    queue[tail].parent = head
                    queue[tail].move = buf[j].move
                    queue[tail].depth = depth + 1
                    tail += 1
            head += 1
        if cut:
            return {"status": "limit", "limit": "turns", "states": tail, "turns_searched": max_turns}
        return {"status": "exhausted", "states": tail}
    finally:
        free(table)
        free(queue)
        free(buf)
