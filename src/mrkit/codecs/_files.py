"""Small file helpers shared by every codec and command.

This module is the one place that turns file-system failures into mrkit's one-line errors:
readers (:func:`numbered_lines`, :func:`json_lines`, :func:`read_text`) raise
:class:`~mrkit.errors.InputError` naming the file and line, and every output file goes
through :func:`atomic_write` (:func:`check_writable` runs before any work), which raises
:class:`~mrkit.errors.OutputError` (``cannot write PATH: reason``).
"""

from __future__ import annotations

import os
import stat
import sys

from ..errors import InputError, OutputError
from ._gc_paused import gc_paused  # noqa: F401  (its own module: scoring without writing a file loads no more)

TYPE_CHECKING = False  # typing, tempfile, signal and threading load when used: start-up of every command
if TYPE_CHECKING:
    from typing import Iterator


def contextmanager(gen):
    """``contextlib.contextmanager(gen)``, with :mod:`contextlib` imported at the first call
    instead of at start-up (about 1 ms of every command, issue 14)."""
    made = []

    def call(*args, **kwargs):
        if not made:
            from contextlib import contextmanager as real

            made.append(real(gen))
        return made[0](*args, **kwargs)

    call.__name__, call.__qualname__, call.__doc__, call.__wrapped__ = gen.__name__, gen.__qualname__, gen.__doc__, gen
    return call


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


def _resolve(path: str) -> str:
    """The file a write to ``path`` lands in: symlinks followed (also dangling ones).
    Special files are opened by their own name (``/dev/stdout`` links to
    ``/proc/self/fd/1``, whose link text is no path)."""
    if _is_special(path):
        return path
    return os.path.realpath(path)


_DESCRIPTOR_DIRS = ("/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/")
_STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _descriptor(path: str) -> int | None:
    """The file descriptor that ``path`` names when it is ``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N`` (or a link to one): another name of an open file of this process,
    written through the descriptor itself (same offset; never truncated, never replaced), as
    the shell does with ``-``."""
    p = os.path.abspath(path)
    for _ in range(40):
        if p in _STANDARD:
            return _STANDARD[p]
        for d in _DESCRIPTOR_DIRS:
            if p.startswith(d) and p[len(d):].isdigit():
                return int(p[len(d):])
        try:
            link = os.readlink(p)
        except (OSError, ValueError):
            return None
        p = os.path.normpath(os.path.join(os.path.dirname(p), link))
    return None


def _write_descriptor(fd: int, data: bytes) -> None:
    if fd == 1:
        sys.stdout.flush()
    elif fd == 2:
        sys.stderr.flush()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _is_special(path: str) -> bool:
    """A FIFO, character or block device or socket: written in place, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_writable(path: str | os.PathLike) -> None:
    """Fail early (before any work) when ``path`` cannot be written by :func:`atomic_write`.

    ``-`` is stdout.  A special file (FIFO, device) must be writable; otherwise the
    folder that will hold the file must accept a new (temporary) file, which is created
    and removed again to be sure (permission bits do not bind root; a read-only file
    system does)."""
    name = os.fspath(path)
    if name == "-":
        return
    if name == "":
        raise OutputError("cannot write '': empty file name")
    fd = _descriptor(name)
    if fd is not None:
        try:
            import fcntl

            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except (OSError, ImportError):
            raise OutputError(f"cannot write {name}: bad file descriptor") from None
        if flags & os.O_ACCMODE == os.O_RDONLY:
            raise OutputError(f"cannot write {name}: not open for writing")
        return
    target = _resolve(name)
    if os.path.isdir(target):
        raise OutputError(f"cannot write {name}: is a directory")
    if _is_special(target):
        if not os.access(target, os.W_OK):
            raise OutputError(f"cannot write {name}: permission denied")
        return
    directory = os.path.dirname(target) or "."
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"cannot write {name}: {_reason(exc)}") from None
    os.close(fd)
    os.unlink(tmp)


@contextmanager
def _cleanup_on_termination() -> Iterator[None]:
    """Turn SIGTERM (and SIGHUP) into an exception while a temporary file exists, so that the
    ``except BaseException`` below removes it; SIGINT already raises KeyboardInterrupt."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}

    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is None:
            continue
        try:
            old = signal.getsignal(sig)
            if old is signal.SIG_IGN:
                continue
            previous[sig] = old
            signal.signal(sig, terminate)
        except (ValueError, OSError):
            pass
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _write_stream(fh, text: str | bytes) -> None:
    if isinstance(text, bytes):
        fh.write(text)
    else:
        fh.write(text.encode("utf-8"))


def atomic_write(path: str | os.PathLike, text: str | bytes) -> None:
    """Write ``text`` (str as UTF-8, or bytes as is) to ``path`` so that readers see the old
    file or the whole new one.

    ``-`` is stdout, and so are ``/dev/stdout``, ``/dev/fd/N`` (written through the descriptor).  A symlink is written through: its target is replaced (atomically, when
    a regular file).  A FIFO or a device (``/dev/stdout``, ``/dev/null``) is written
    directly.  A new file gets the umask's mode (0o666 & ~umask), an existing file keeps
    its mode.  The temporary file is removed on any error, SIGINT or SIGTERM.  Failures
    raise :class:`~mrkit.errors.OutputError` ``cannot write PATH: reason``."""
    name = os.fspath(path)
    spool = sys.modules.get("mrkit.codecs._spool")
    if spool is not None and spool.copies():  # an input read under another name: the name given
        text = spool.shown(text, output=True)
    if name == "-":
        out = sys.stdout
        if isinstance(text, bytes):
            out.flush()
            out.buffer.write(text)
            out.buffer.flush()
        else:
            out.write(text)
            out.flush()
        return
    if name == "":
        raise OutputError("cannot write '': empty file name")
    target = _resolve(name)
    try:
        if os.path.isdir(target):
            raise IsADirectoryError(21, "Is a directory")
        fd = _descriptor(name)
        if fd is not None:
            _write_descriptor(fd, text if isinstance(text, bytes) else text.encode("utf-8"))
            return
        if _is_special(target):
            with open(target, "wb") as fh:
                _write_stream(fh, text)
            return
        owner = None
        try:
            st = os.stat(target)
            mode = stat.S_IMODE(st.st_mode)
            owner = (st.st_uid, st.st_gid)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        directory = os.path.dirname(target) or "."
        import tempfile

        with _cleanup_on_termination():
            fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
            try:
                with os.fdopen(fd, "wb") as fh:
                    _write_stream(fh, text)
                    fh.flush()
                os.chmod(tmp, mode)
                if owner is not None and hasattr(os, "geteuid") and os.geteuid() == 0:
                    try:  # root rewriting someone's file: it stays theirs
                        os.chown(tmp, *owner)
                    except OSError:
                        pass
                os.replace(tmp, target)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
    except OSError as exc:
        raise OutputError(f"cannot write {name}: {_reason(exc)}") from None


@contextmanager
def atomic_stream(path: str | os.PathLike) -> Iterator:
    """A binary file to write an output that is too large to hold whole, piece by piece,
    with :func:`atomic_write`'s promise: readers see the old file or the whole new one.

    The pieces go to a temporary file beside ``path`` that replaces it when the ``with``
    block ends without an error; on any error, SIGINT or SIGTERM the temporary file is
    removed and ``path`` is untouched.  ``-``, FIFOs and devices are written directly (a
    stream cannot be taken back).  Failures raise :class:`~mrkit.errors.OutputError`."""
    name = os.fspath(path)
    if name == "-":
        sys.stdout.flush()
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    if name == "":
        raise OutputError("cannot write '': empty file name")
    target = _resolve(name)
    if os.path.isdir(target):
        raise OutputError(f"cannot write {name}: is a directory")
    if _descriptor(name) is not None or _is_special(target):
        try:
            fh = open(target, "wb")
        except OSError as exc:
            raise OutputError(f"cannot write {name}: {_reason(exc)}") from None
        with fh:
            yield fh
        return
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    except OSError as exc:
        raise OutputError(f"cannot write {name}: {_reason(exc)}") from None
    import tempfile

    with _cleanup_on_termination():
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                       dir=os.path.dirname(target) or ".")
        except OSError as exc:
            raise OutputError(f"cannot write {name}: {_reason(exc)}") from None
        try:
            with os.fdopen(fd, "wb") as fh:
                yield fh
                fh.flush()
            try:
                os.chmod(tmp, mode)
                os.replace(tmp, target)
            except OSError as exc:
                raise OutputError(f"cannot write {name}: {_reason(exc)}") from None
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def _open_error(exc: OSError, name: str) -> InputError:
    return InputError(f"cannot read: {_reason(exc)}", name)


def numbered_lines(path: str | os.PathLike) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a UTF-8 text file; a file that cannot be opened or read or
    is not UTF-8 raises :class:`~mrkit.errors.InputError` naming the file (and line)."""
    name = os.fspath(path)
    try:
        fh = open(name, encoding="utf-8")
    except OSError as exc:
        raise _open_error(exc, name) from None
    with fh:
        lineno = 0
        try:
            for lineno, line in enumerate(fh, 1):
                yield lineno, line
        except UnicodeDecodeError as exc:
            # text files are decoded in chunks: find the line of the first bad byte
            raise InputError(f"not UTF-8 text ({exc.reason})", name, _bad_utf8_line(name, lineno + 1)) from None
        except OSError as exc:
            raise InputError(f"cannot read: {_reason(exc)}", name, lineno + 1) from None


def _bad_utf8_line(name: str, fallback: int) -> int:
    try:
        with open(name, "rb") as fh:
            data = fh.read()
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data.count(b"\n", 0, exc.start) + 1
    except OSError:
        pass
    return fallback


def read_text(path: str | os.PathLike) -> str:
    """The whole of a UTF-8 text file; failures raise :class:`~mrkit.errors.InputError`
    naming the file (and the line of the first byte that is not UTF-8)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise _open_error(exc, name) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"not UTF-8 text ({exc.reason})", name, line) from None


def lone_surrogate(value) -> str | None:
    """The first lone surrogate (``\\ud800``-``\\udfff``, written as its escape) in a string
    (key or value) of the decoded JSON ``value``, else None.  JSON allows such escapes, the
    standard library decodes them, but they are not Unicode text: no output can write them."""
    import re

    search = re.compile("[\ud800-\udfff]").search  # (compiled once: re's cache)
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            found = None if v.isascii() else search(v)
            if found:
                return f"\\u{ord(found.group()):04x}"
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return None


def may_hold_surrogate(text: str) -> bool:
    """Whether the JSON ``text`` may hold a lone surrogate escape (``\\ud...``): only then is
    the decoded value walked (:func:`refuse_surrogates`)."""
    return "\\ud" in text or "\\uD" in text


def refuse_surrogates(text: str, value, file: str | None = None, line: int | None = None,
                      record=None) -> None:
    """Raise :class:`~mrkit.errors.InputError` naming the file and line (of ``text``; of the
    escape when ``text`` has several lines) when ``value``, decoded from the JSON ``text``,
    holds a lone surrogate escape; ``record(value)`` gives the ``(id, unit)`` of the record
    to name too (a graph, a document, a topic)."""
    if not may_hold_surrogate(text):
        return
    bad = lone_surrogate(value)
    if bad is None:
        return
    graph, unit = None, "graph"
    if record is not None:
        try:
            graph, unit = record(value)
        except Exception:  # noqa: BLE001 - a record without a usable id: file and line say where
            graph = None
        if isinstance(graph, str):
            graph = graph.encode("utf-8", "backslashreplace").decode("utf-8")
    if line is not None and "\n" in text:
        at = text.lower().find(bad)
        line += text.count("\n", 0, at) if at >= 0 else 0
    raise InputError(f"lone surrogate escape {bad} in a string (not Unicode text)", file, line, graph, unit=unit)


def parse_json(text: str, file: str | None = None, line: int | None = None, check: bool = True):
    """``json.loads`` whose failures (syntax, nesting too deep for the parser, numbers too
    long to convert, with ``check`` a lone surrogate escape: :func:`refuse_surrogates`) raise
    :class:`~mrkit.errors.InputError` naming the file and line."""
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", file,
                         None if line is None else line + exc.lineno - 1) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", file, line) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise InputError(f"not JSON: {exc}", file, line) from None
    except MemoryError:
        raise InputError("JSON value too large", file, line) from None
    if check:
        refuse_surrogates(text, value, file, line)
    return value


def json_lines(path: str | os.PathLike, record=None) -> Iterator[tuple[int, object]]:
    """``(line number, value)`` of every non-blank line of a JSON-lines file; a line with a
    lone surrogate escape is an error naming the file, the line and ``record(value)``
    (see :func:`refuse_surrogates`)."""
    name = os.fspath(path)
    for lineno, line in numbered_lines(path):
        if not line.strip():
            continue
        text = line.rstrip("\r\n")
        value = parse_json(text, name, lineno, check=False)
        refuse_surrogates(text, value, name, lineno, record)
        yield lineno, value
