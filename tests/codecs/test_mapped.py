"""Regular files mapped read-only for the byte readers (codecs/_mapped.c,
``penman_units.map_file``): the bytes of the file, ``line_end`` as its definition says, ``None``
for what must be read instead (pipes are never opened), and a file shortened while it is
mapped ending the process as bad input does (one line naming the file, exit status 2),
while a SIGBUS elsewhere still ends it with the signal."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mrkit.codecs import penman_units as U

_mapped = pytest.importorskip("mrkit.codecs._mapped")
pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")


def _line_end_reference(data: bytes, pos: int) -> int:
    """Where data[:pos] completed to the end of its line ends: after the first newline at
    or after pos, else len(data)."""
    j = data.find(b"\n", pos)
    return j + 1 if j >= 0 else len(data)


def test_bytes_and_length(tmp_path):
    p = tmp_path / "f.amr"
    data = b"# ::id a\n(a / b)\n\n(c / d\n  :ARG0 (e / f))"
    p.write_bytes(data)
    m = U.map_file(p, str(p))
    assert m is not None
    assert len(m) == len(data)
    assert bytes(m) == data
    v = memoryview(m)
    assert v.readonly and v[3:9].tobytes() == data[3:9]
    with pytest.raises(TypeError):
        v[0] = 1


@pytest.mark.parametrize("size", [4095, 4096, 4097, 8192])
def test_files_at_page_boundaries(tmp_path, size):
    """A file whose end is a page's end (the readers see the zero page after it) and one
    byte either side: the whole file, and the scanner's units those of the read path."""
    body = (b"(a / b :ARG0 (c / d))\n\n" * (size // 23 + 1))[:size - 1] + b")"
    p = tmp_path / "b.amr"
    p.write_bytes(body)
    m = U.map_file(p, str(p))
    assert bytes(m) == body
    for graphs in (True, False):
        got = _units(p, graphs)
        os.environ["MRKIT_NO_MAP"] = "1"
        try:
            assert got == _units(p, graphs)
        finally:
            del os.environ["MRKIT_NO_MAP"]


def _units(p, graphs: bool):
    out = []
    try:
        for piece, offset, units in U.unit_pieces(p, str(p), graphs, 4096):
            a = memoryview(units).cast("q")
            out += [(a[i + 2], bytes(piece[a[i] - offset:a[i + 1] - offset])) for i in range(0, len(a), 3)]
    except U.CutDeclined as exc:
        return "declined", exc.args
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(min_size=1, max_size=200).map(lambda b: b.replace(b"\x00", b"\n")), pos=st.integers(0, 200))
def test_line_end_is_where_a_readline_ends(data, pos, tmp_path):
    p = tmp_path / "c.bin"
    p.write_bytes(data)
    m = U.map_file(p, "c")
    pos = min(pos, len(data))
    assert m.line_end(pos) == _line_end_reference(data, pos)
    with open(p, "rb") as fh:  # the read path: pos bytes, then the rest of their line
        raw = fh.read(pos + 1)
        if raw and not raw.endswith(b"\n"):
            raw += fh.readline()
    assert m.line_end(pos) == (len(raw) if pos < len(data) else len(data))


def test_line_end_refuses_positions_outside(tmp_path):
    p = tmp_path / "c.amr"
    p.write_bytes(b"(a / b)\n")
    m = U.map_file(p, "c")
    for pos in (-1, 9):
        with pytest.raises(ValueError):
            m.line_end(pos)


def test_what_is_read_instead(tmp_path, monkeypatch):
    empty = tmp_path / "empty.amr"
    empty.write_bytes(b"")
    fifo = tmp_path / "pipe.amr"
    os.mkfifo(fifo)  # never opened: opening it would wait for a writer
    assert U.map_file(empty, "e") is None
    assert U.map_file(tmp_path, "dir") is None
    assert U.map_file(fifo, "pipe") is None
    assert U.map_file(tmp_path / "missing.amr", "m") is None
    if os.path.exists("/dev/null"):
        assert U.map_file("/dev/null", "null") is None
    full = tmp_path / "full.amr"
    full.write_bytes(b"(a / b)\n")
    monkeypatch.setenv("MRKIT_NO_MAP", "1")
    assert U.map_file(full, "f") is None


def test_mapping_outlives_its_file_name_and_descriptor(tmp_path):
    """The descriptor is closed once mapped; the bytes stay readable after the name is
    gone (a rename or unlink does not shorten the file)."""
    p = tmp_path / "gone.amr"
    p.write_bytes(b"(a / b)\n" * 1000)
    before = len(os.listdir(f"/proc/{os.getpid()}/fd")) if os.path.isdir("/proc/self/fd") else None
    m = U.map_file(p, "gone")
    if before is not None:
        assert len(os.listdir(f"/proc/{os.getpid()}/fd")) == before
    p.unlink()
    assert bytes(m)[-8:] == b"(a / b)\n"


def test_scorer_sent_elsewhere_reads_the_files(tmp_path):
    """Pickled (an executor that sends its function), the Smatch chunk scorer leaves its
    mappings behind: the other process reads the files."""
    from mrkit.pipeline.amr import _UnitsScorer

    p = tmp_path / "s.amr"
    p.write_bytes(b"(a / b)\n")
    m = U.map_file(p, "s")
    scorer = _UnitsScorer("config", frozenset(), False, ("s", "s"), (str(p), str(p)), sources=(m, m))
    back = pickle.loads(pickle.dumps(scorer))
    assert back.settings == scorer.settings
    assert back.sources == (None, None)


_SHORTENED = """
import os, sys
from mrkit.codecs import penman_units as U
from mrkit.errors import InputError
path = sys.argv[1]
with open(path, "wb") as fh:
    fh.write(b"(a / b)\\n" * 4096)  # 32 KB: eight pages
m = U.map_file(path, "gold file.amr")
head = bytes(memoryview(m)[:16])
U.check_whole(m, "gold file.amr")  # nothing lost yet
os.truncate(path, 100)
past = bytes(memoryview(m)[20000:20010])  # a page past the new end: zeros, the mapping marked
print(head == b"(a / b)\\n" * 2, past == bytes(10), m.shortened(), bytes(memoryview(m)[:8]) == b"(a / b)\\n")
try:
    U.check_whole(memoryview(m)[5:9], "gold file.amr")
except InputError as exc:
    print(exc)
"""


def test_file_shortened_while_mapped_reads_zeros_and_is_reported(tmp_path):
    """The pages lost to a file shortened while it is mapped read as zeros instead of
    ending the process (a thread of an abandoned run may still read them); the mapping is
    marked, and the readers' check reports the file as bad input."""
    r = subprocess.run([sys.executable, "-c", _SHORTENED, str(tmp_path / "g.amr")], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert r.stdout.splitlines() == ["True True True True",
                                     "gold file.amr: cannot read: the file was shortened, or its storage failed, "
                                     "while it was read"]


_OTHER_SIGBUS = """
import mmap, os, sys
from mrkit.codecs import penman_units as U
mine, other = sys.argv[1], sys.argv[2]
for path in (mine, other):
    with open(path, "wb") as fh:
        fh.write(b"(a / b)\\n" * 4096)
m = U.map_file(mine, "mine")  # the handler is installed
with open(other, "rb") as fh:
    o = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
os.truncate(other, 100)
o[20000]  # not one of mrkit's mappings
"""


def test_other_sigbus_still_ends_with_the_signal(tmp_path):
    r = subprocess.run([sys.executable, "-c", _OTHER_SIGBUS, str(tmp_path / "a.amr"), str(tmp_path / "b.amr")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == -signal.SIGBUS, (r.returncode, r.stderr)
    assert "mrkit:" not in r.stderr


def test_mappings_beyond_the_table_are_read(tmp_path):
    """More mappings at once than the SIGBUS table holds: the rest are read (None)."""
    held = []
    for k in range(80):
        p = tmp_path / f"f{k}.amr"
        p.write_bytes(b"(a / b)\n")
        held.append(U.map_file(p, str(p)))
    assert held[0] is not None
    assert None in held  # the table is full
    assert sum(m is not None for m in held) <= 64
    del held
    p = tmp_path / "after.amr"
    p.write_bytes(b"(a / b)\n")
    assert U.map_file(p, "after") is not None  # slots come back when mappings go


_COMMAND_SHORTENED = textwrap.dedent("""
    import os, sys
    from mrkit.codecs import penman_units as U
    from mrkit.cli import console
    system = sys.argv[-1]
    real = U.map_file
    def map_then_shorten(path, label):
        m = real(path, label)
        if str(path) == system:
            os.truncate(path, 10)
        return m
    U.map_file = map_then_shorten
    sys.argv = ["mrkit"] + sys.argv[1:]
    sys.exit(console())
""")


@pytest.mark.parametrize("command", [["smatch"], ["smatch", "-j", "2"], ["score", "-m", "sema"],
                                     ["score", "-m", "sembleu", "-j", "2"]])
def test_command_on_a_file_shortened_while_mapped(tmp_path, command):
    """The whole command: the system file shrinks right after it is mapped; the run ends
    with one line naming it and status 2, no traceback, no score printed."""
    g, s = tmp_path / "g.amr", tmp_path / "s.amr"
    text = "".join(f"# ::id {k}\n(a{k} / b :ARG0 (c / d))\n\n" for k in range(3000))
    g.write_text(text)
    s.write_text(text)
    r = subprocess.run([sys.executable, "-c", _COMMAND_SHORTENED, *command, str(g), str(s)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert r.stdout == ""
    assert r.stderr.splitlines() == [f"mrkit: {s}: cannot read: the file was shortened, or its storage failed, "
                                     "while it was read"]


def _resident_pages() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1])


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="Linux /proc")
def test_release_gives_pages_back_and_keeps_the_bytes(tmp_path):
    """release(start, end): the whole pages of the range leave the process's resident set
    (resident memory stays flat however large the file), and the bytes read again are the
    same; a partial page at either end stays (a neighbour may still read it)."""
    p = tmp_path / "big.amr"
    data = bytes(range(256)) * (8 * 4096)  # 8 MB: 2,048 pages
    p.write_bytes(data)
    m = U.map_file(p, "big")
    before = _resident_pages()
    assert bytes(m) == data  # every page mapped
    touched = _resident_pages() - before
    assert touched > 1800
    U.release(memoryview(m)[10:20], 0, len(m))  # through a view, as the pipelines call it
    assert _resident_pages() - before < touched - 1800
    assert bytes(m) == data  # mapped again, the same bytes
    m.release(100, 4096 * 3 - 1)  # only page 1 is whole in the range
    assert bytes(memoryview(m)[:4096 * 3]) == data[:4096 * 3]
    U.release(b"read bytes", 0, 10)  # bytes that were read: nothing to give back


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="Linux /proc")
def test_release_with_a_stride_gives_pages_back_a_stride_at_a_time(tmp_path, monkeypatch):
    """release(start, end, stride): the ranges released are gathered, in any order, and
    their pages given back in one call once they span ``stride`` bytes or reach the file's
    end; until then they stay resident.  penman_units.release passes RELEASE_STRIDE."""
    p = tmp_path / "big.amr"
    mb = 1 << 20
    data = bytes(range(256)) * (8 * 4096)  # 8 MB
    p.write_bytes(data)
    m = U.map_file(p, "big")
    before = _resident_pages()
    assert bytes(m) == data
    touched = _resident_pages() - before
    assert touched > 1800  # 2,048 pages
    m.release(mb, 2 * mb, 3 * mb)  # 1 MB gathered: nothing given back yet
    m.release(0, mb, 3 * mb)  # an earlier range, after a later one: 2 MB
    assert _resident_pages() - before > touched - 100
    m.release(2 * mb, 3 * mb, 3 * mb)  # 3 MB: the span given back
    assert touched - 868 < _resident_pages() - before < touched - 700  # 768 pages
    m.release(3 * mb, 4 * mb, 6 * mb)  # 1 MB gathered again
    m.release(7 * mb, 8 * mb, 6 * mb)  # the file's end: the span from 3 MB (5 MB, under the stride) given back
    assert _resident_pages() - before < touched - 1800
    assert bytes(m) == data  # mapped again, the same bytes
    assert U.RELEASE_STRIDE >= mb
    calls = []

    class Owner:
        def release(self, *a):
            calls.append(a)

    monkeypatch.setattr(U, "mapping_of", lambda view: Owner())
    U.release(b"x", 5, 9)
    assert calls == [(5, 9, U.RELEASE_STRIDE)]
