"""The graphs of a PENMAN file as byte ranges ("units"), found by the compiled scanner
:mod:`mrkit.codecs._cut` without a Python object per graph, and the text of a run of them.

A unit is a block of :func:`mrkit.codecs.penman.iter_block_lists` (``content_only``) or,
with ``graphs``, one graph of a block that holds several graphs without blank lines
between them (the same graph, first line and line numbers as parsing the whole block
gives).  The parent of a parallel run finds the units of two files, pairs them by
position and hands workers nothing but byte ranges; each worker reads its own ranges
(:func:`unit_texts`) and parses them.  Units are bytes of int64 triples (start, end,
first line): 24 bytes per graph.

A regular file is read through a read-only mapping (:func:`map_file`,
:mod:`mrkit.codecs._mapped`): the scanner and the coders read the page cache where it is,
with no copy into memory touched for the first time; pipes, standard input and empty
files are read (``MRKIT_NO_MAP=1``: every file is read).
"""

from __future__ import annotations

import os
from array import array

from ..errors import InputError

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Iterator

UNIT = 24
"""Bytes per unit (three int64)."""

WINDOW = 1 << 20
"""Bytes read at a time (completed to the end of a line when :func:`unit_pieces` keeps the
bytes; else scanned in place, :func:`_units_in_place`)."""

FIRST_WINDOW = 1 << 16
"""Bytes read first: the first units come out after a 64 KB scan, not a 1 MB one (with
``-j 2`` the worker waits for the first chunk, ~5 ms of cutting with 1 MB windows).  The
windows after it double up to :data:`WINDOW` (64 KB, 128 KB, ...): the first chunks of a
parallel run, which double from 128 pairs, are cut as they are needed (session 28: the
second window at 1 MB held the worker's first or second chunk back 8-13 ms)."""


def map_file(path: str | os.PathLike, label: str):
    """The bytes of the regular file ``path`` mapped read-only (:mod:`mrkit.codecs._mapped`:
    a buffer of ``len()`` bytes with ``line_end(pos)``, the position after the first line
    end at or after ``pos``, ``release`` and ``shortened``), or ``None`` where the file is
    read instead: not a regular file (a pipe, a device, standard input), empty, not
    openable (the reading reports it), ``MRKIT_NO_MAP`` set, no compiled module.  The
    mapping lives as long as it or a view of it is referenced.  Pages lost to another
    process shortening the file meanwhile read as zeros, and :func:`check_whole` then
    raises the :class:`~mrkit.errors.InputError` naming ``label``."""
    if os.environ.get("MRKIT_NO_MAP"):
        return None
    try:
        from . import _mapped
    except ImportError:
        return None
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe is never opened here (its bytes are the reader's)
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    try:
        return _mapped.map(fd, str(label).encode("utf-8", "backslashreplace"))
    finally:
        os.close(fd)


SHORTENED = "cannot read: the file was shortened, or its storage failed, while it was read"
"""What a mapped file that lost pages while it was read reports (:func:`check_whole`)."""


def mapping_of(view):
    """The mapping (:func:`map_file`) that ``view`` (a piece, a view of one, or the mapping
    itself) reads, else ``None`` (bytes that were read)."""
    owner = view.obj if isinstance(view, memoryview) else view
    if owner is None or isinstance(owner, (bytes, bytearray)):
        return None
    from . import _mapped

    return owner if isinstance(owner, _mapped.Mapped) else None


def check_whole(view, label: str) -> None:
    """Raise the :class:`~mrkit.errors.InputError` of a file shortened (or whose storage
    failed) while it was mapped, when the mapping ``view`` reads lost pages: what was read
    of it since is zeros (:mod:`mrkit.codecs._mapped`).  The readers call it after each
    piece of work on a mapping, before they use what they read."""
    owner = mapping_of(view)
    if owner is not None and owner.shortened():
        raise InputError(SHORTENED, label)


RELEASE_STRIDE = 2 << 20
"""Bytes of a mapped file given back at a time (:func:`release`): every madvise that drops
pages of a process with two threads interrupts the other core to flush its TLB; SICK x5
``smatch -j 2`` made 67 such calls, one per chunk and file (~1-3 ms of CPU; the run's wall
time 1.3 ms less without them), 2 MB at a time 5.  At most this much of each file stays
mapped for nothing."""


def release(view, start: int, end: int) -> None:
    """Give back the pages of bytes ``[start, end)`` of the file that ``view`` (a piece of
    :func:`unit_pieces`, a view of :func:`unit_bytes`, or a :func:`map_file` mapping) maps,
    once the caller is done with them: resident memory then stays flat however large the
    file (the bytes stay in the page cache; read again, they are mapped again).  Given
    back :data:`RELEASE_STRIDE` bytes at a time (and at the file's end).  Nothing for
    bytes that were read."""
    owner = mapping_of(view)
    if owner is not None:
        owner.release(start, end, RELEASE_STRIDE)


def done_with(piece, offset: int, label: str) -> None:
    """The caller has read ``piece`` (bytes of a file from its offset ``offset``: a view of
    :func:`unit_bytes` or of a mapping) and is done with it: :func:`check_whole` (the file
    shortened meanwhile: its error), then :func:`release` of its bytes."""
    check_whole(piece, label)
    release(piece, offset, offset + len(piece))


def release_piece(piece, offset: int, following) -> None:
    """:func:`release` of a piece of :func:`unit_pieces` (file offset ``offset``) the caller
    is done with, up to where the ``following`` piece starts (it may begin inside this
    one), or to its end when ``following`` is None."""
    release(piece, offset, following[1] if following is not None else offset + len(piece))


class CutDeclined(Exception):
    """The file is not cut by the scanner (bytes that are not UTF-8, or a block whose graphs'
    ids would change when cut): read it the general way, which reports or handles it."""


def available() -> bool:
    try:
        from . import _cut  # noqa: F401
    except ImportError:
        return False
    return True


def unit_windows(path: str | os.PathLike, label: str, graphs: bool = True, source=None) -> Iterator[bytes]:
    """The units of a PENMAN file, as bytes of int64 triples, a window of the file at a
    time; :class:`CutDeclined` where the scanner gives up.  ``source``: the file's
    :func:`map_file` when the caller holds it (else the file is mapped or read here)."""
    for _, _, units in unit_pieces(path, label, graphs, keep_bytes=False, source=source):
        yield units


def unit_pieces(path: str | os.PathLike, label: str, graphs: bool = True, window: int | None = None,
                keep_bytes: bool = True, first: int | None = None,
                source=None) -> Iterator[tuple[bytes | memoryview | None, int, bytes]]:
    """``(piece, offset, units)`` of a PENMAN file a window at a time, for readers of the
    bytes themselves: the units that end in the window read (``window`` bytes completed to
    the end of a line, :data:`WINDOW` by default, the first read at most
    :data:`FIRST_WINDOW`, or ``first`` bytes when given; file offsets; every unit comes
    once), and the bytes that hold
    them all (from the end of the previous piece's last unit to the end of the window)
    with their offset in the file (``keep_bytes`` false: None and 0, and the reads are
    scanned in place, :func:`_units_in_place`: the same units, some a read later);
    :class:`CutDeclined` where the scanner gives up.  A regular file is scanned through
    its mapping (``source``, else :func:`map_file`; :func:`_units_mapped`): the same
    windows and units, the pieces views of the mapping instead of bytes read."""
    from . import _cut

    window = window or WINDOW
    size = min(first or FIRST_WINDOW, window)
    if source is None:
        source = map_file(path, label)
    if source is not None:
        yield from _units_mapped(source, label, graphs, window, size, keep_bytes)
        return
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", label) from None
    if not keep_bytes:
        with fh:
            yield from _units_in_place(fh, label, graphs, window, size)
        return
    state = None
    offset = 0
    carry = b""  # the bytes after the last unit found: the next unit starts in them or later
    with fh:
        while True:
            try:
                raw = fh.read(size)
                size = min(window, 2 * size)
                if raw and not raw.endswith(b"\n"):
                    raw += fh.readline()
            except OSError as exc:
                raise InputError(f"cannot read: {exc.strerror}", label) from None
            final = not raw.endswith(b"\n")  # the end of the file (b"" too)
            units, state, status = _cut.scan(raw, offset, state, final, graphs)
            if status:
                raise CutDeclined(status)
            if not keep_bytes:
                if units:
                    yield None, 0, units
            elif units:
                piece, at = (carry + raw, offset - len(carry)) if carry else (raw, offset)
                end = memoryview(units).cast("q")[-2]
                yield piece, at, units
                carry = piece[end - at:]
            else:
                carry += raw
            offset += len(raw)
            if final:
                return


def _units_in_place(fh, label: str, graphs: bool, window: int, size: int) -> Iterator[tuple[None, int, bytes]]:
    """:func:`unit_pieces` without the bytes (``keep_bytes`` false): each read scanned where
    it lies, its whole lines at once (a view, no copy) and the line it cuts scanned with the
    start of the next read, instead of the read joined to the rest of its last line (a copy
    of every window, and of pages touched for the first time: ~600 page faults of the
    ~3,000 of `mrkit smatch` on 25,000 SICK pairs, session 33).  The scanner's pieces
    still end at a line's end; the units are the same, some found one read later."""
    from . import _cut

    state = None
    offset = 0  # the file offset of the next byte to scan
    tail: list[bytes] = []  # the bytes read after the last line end scanned (a line not yet whole)

    def scan(piece, final: bool):
        nonlocal state, offset
        units, state, status = _cut.scan(piece, offset, state, final, graphs)
        if status:
            raise CutDeclined(status)
        offset += len(piece)
        return units

    while True:
        try:
            raw = fh.read(size)
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", label) from None
        size = min(window, 2 * size)
        if not raw:  # the end of the file: what is left is the last piece
            units = scan(b"".join(tail), True)
            if units:
                yield None, 0, units
            return
        first = raw.find(b"\n") + 1
        if not first:  # no line ends in this read (a line longer than a window)
            tail.append(raw)
            continue
        last = raw.rfind(b"\n") + 1
        body = memoryview(raw)[:last]
        if tail:  # the line the last read cut, made whole: a line copied, not a window
            tail.append(raw[:first])
            units = scan(b"".join(tail), False)
            if units:
                yield None, 0, units
            body = body[first:]
        if body:
            units = scan(body, False)
            if units:
                yield None, 0, units
        tail = [raw[last:]] if last < len(raw) else []


def _units_mapped(source, label: str, graphs: bool, window: int, size: int,
                  keep_bytes: bool) -> Iterator[tuple[memoryview | None, int, bytes]]:
    """:func:`unit_pieces` of a mapped file (:func:`map_file`): windows of ``size`` bytes
    (doubling up to ``window``) completed to the end of their last line, as a read and a
    readline would give them, scanned where they lie; with ``keep_bytes`` each piece is a
    view of the mapping from the end of the last unit handed out to the end of the window,
    else ``None, 0``."""
    from . import _cut

    view = memoryview(source)
    n = len(view)
    state = None
    offset = 0  # the next byte to scan
    start = 0  # the first byte of the next piece: after the last unit handed out
    while True:
        if offset < n:
            end = source.line_end(min(n, offset + size) - 1)
            size = min(window, 2 * size)
            final = end == n and view[n - 1] != 10  # the file's last line has no line end
            piece = view[offset:end]
        else:  # the file ends with a line end: what is left is the last (empty) piece
            end, final, piece = n, True, b""
        units, state, status = _cut.scan(piece, offset, state, final, graphs)
        check_whole(source, label)
        if status:
            raise CutDeclined(status)
        offset = end
        if units:
            if keep_bytes:
                yield view[start:end], start, units
                start = memoryview(units).cast("q")[-2]
            else:
                yield None, 0, units
        if final:
            return


def unit_texts(path: str | os.PathLike, label: str, units: bytes, source=None) -> list[tuple[int, str]]:
    """The (first line, text) of each unit of ``units`` (consecutive units of ``path``),
    read with one seek (or sliced from ``source``, the file's :func:`map_file`): what
    :func:`mrkit.codecs.penman.iter_block_lists` gives for them."""
    a = array("q")
    a.frombytes(units)
    if not a:
        return []
    buf, first = unit_bytes(path, label, units, source)
    if not isinstance(buf, bytes):
        buf = bytes(buf)
        check_whole(source, label)
    if buf.isascii():  # byte offsets are character offsets: decode once, slice the text
        text = buf.decode("ascii")
        return [(a[i + 2], text[a[i] - first:a[i + 1] - first]) for i in range(0, len(a), 3)]
    return [(a[i + 2], buf[a[i] - first:a[i + 1] - first].decode("utf-8")) for i in range(0, len(a), 3)]


def unit_bytes(path: str | os.PathLike, label: str, units: bytes, source=None) -> tuple[bytes | memoryview, int]:
    """``(piece, offset)``: the bytes of ``path`` that hold the units ``units`` (consecutive
    units), from the first one's start to the last one's end, and that start's file offset,
    read with one seek, or a view of ``source`` (the file's :func:`map_file`) when given
    (what :func:`unit_texts` decodes; the compiled coders read the bytes themselves)."""
    a = memoryview(units).cast("q")
    if not a:
        return b"", 0
    first, last = a[0], a[-2]
    if source is not None:
        return memoryview(source)[first:last], first
    try:
        with open(path, "rb") as fh:
            fh.seek(first)
            return fh.read(last - first), first
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", label) from None


def iter_units(path: str | os.PathLike, label: str | None = None, graphs: bool = True) -> Iterator[tuple[int, str]]:
    """Every unit of a file as (first line, text) (for tests and small tools)."""
    label = label or str(path)
    for units in unit_windows(path, label, graphs):
        yield from unit_texts(path, label, units)
