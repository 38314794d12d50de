"""The 64-bit row key and 12-bit move code, in pure Python (twin of cext/continuum.pyx).

Key: 12 pyramid ids of 4 bits in row order (West end first, stacks bottom
first), then 12 stack-start flags at bit 48, then the West side's pyramid count
at bit 60.  Code: ``kind << 8 | pid << 4 | low``, kinds onto, gap, switch, king;
``low`` is the direction (0 West, 1 East) or the other pyramid.

>>> from solver.continuum.rules import start_row
>>> hex(row_key(start_row()))
'0x62499ab678345012'
>>> key_row(row_key(start_row())) == start_row()
True
"""
from __future__ import annotations

from solver.continuum.rules import KINDS, Move, Row


def row_key(row: Row) -> int:
    key, k = 0, 0
    for side in row.sides:
        for stack in side:
            for j, pid in enumerate(stack):
                key |= pid << (4 * k)
                if j == 0:
                    key |= 1 << (48 + k)
                k += 1
        if side is row.west:
            nwest = k
    return key | (nwest << 60)


def key_row(key: int) -> Row:
    nwest = key >> 60
    sides = ([], [])
    for k in range(12):
        s = 0 if k < nwest else 1
        pid = (key >> (4 * k)) & 15
        if (key >> (48 + k)) & 1 or k == nwest:
            sides[s].append([])
        sides[s][-1].append(pid)
    return Row(tuple(tuple(tuple(st) for st in side) for side in sides))


def move_code(move: Move) -> int:
    kind = KINDS.index(move.kind)
    low = move.other if kind >= 2 else (1 if move.direction > 0 else 0)
    return kind << 8 | move.pid << 4 | low


def code_move(code: int) -> Move:
    kind, pid, low = KINDS[code >> 8], (code >> 4) & 15, code & 15
    if kind in ("switch", "king"):
        return Move(kind, pid, low)
    return Move(kind, pid, direction=1 if low else -1)
