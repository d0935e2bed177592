"""Inputs that can be read only once, read once (the command line's :func:`spool`).

A pipe, a named FIFO, process substitution (``<(cmd)``: ``/dev/fd/63``), ``/dev/stdin`` or
a device gives its bytes to the first reader only, and cannot seek; but mrkit's readers
may open an input more than once (the format told from its first kilobytes, then read; a
graph's bytes read again by position; a gold file read once per system).  ``-`` is read
once by each command's own path; every other input that names a file that is neither
regular nor a directory is copied here, once, before the command runs, into an unlinked
temporary file, and from then on read as a regular file with the same bytes:

* a name of one of this process's descriptors (``/dev/fd/N``, ``/proc/self/fd/N``,
  ``/dev/stdin``, or a link to one): the copy takes descriptor N's place (``dup2``), so
  that the same name now opens the copy, and every message names the file as given;
* any other name (a FIFO, a socket, a device): the command reads ``DIR/BASENAME`` in a
  private temporary folder instead (the same suffix, so the same format); :func:`shown`
  turns that name back into the one given, in the lines mrkit prints.

Resources: the copy is the input's size on disk (in ``$TMPDIR``), never held in memory.
"""

from __future__ import annotations

import os
import stat

from ..errors import InputError

CHUNK = 1 << 20
_SHOWN: dict[str, str] = {}  # a copy's name -> the name that was given
_COPIES: dict[str, str] = {}  # a name that was given (not a descriptor) -> its copy's name
_FOLDERS: list[str] = []


def needs_spool(name: object) -> bool:
    """Whether ``name`` names a file that is neither regular nor a directory (``-`` and
    names that do not exist are not: their readers handle them)."""
    if not isinstance(name, str) or not name or name == "-":
        return False
    try:
        mode = os.stat(name).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _reason(exc: OSError) -> str:
    from ._files import _reason as reason

    return reason(exc)


def _copy(read, name: str):
    """An unlinked temporary file holding what ``read(n)`` gives until it gives nothing,
    positioned at its start."""
    import tempfile

    tmp = tempfile.TemporaryFile()
    try:
        while True:
            try:
                block = read(CHUNK)
            except OSError as exc:
                raise InputError(f"cannot read: {_reason(exc)}", name) from None
            if not block:
                break
            tmp.write(block)
        tmp.flush()
        tmp.seek(0)
    except BaseException:
        tmp.close()
        raise
    return tmp


def spool(name: str) -> str:
    """The name to read ``name`` by from now on (see the module's docstring): ``name``
    itself unless it names a file that is neither regular nor a directory, which is then
    read here, once.  A failure to read raises :class:`~mrkit.errors.InputError` naming
    ``name``."""
    if name in _COPIES:
        return _COPIES[name]
    if not needs_spool(name):
        return name
    from ._files import _descriptor

    fd = _descriptor(name)
    if fd is not None:
        tmp = _copy(lambda n: os.read(fd, n), name)
        with tmp:
            os.dup2(tmp.fileno(), fd)  # fd now reads the copy (from its start): so does ``name``
        return name
    try:
        source = open(name, "rb")
    except OSError as exc:
        raise InputError(f"cannot read: {_reason(exc)}", name) from None
    with source:
        tmp = _copy(source.read, name)
    import tempfile

    folder = tempfile.mkdtemp(prefix="mrkit-input-")
    _FOLDERS.append(folder)
    if len(_FOLDERS) == 1:
        import atexit

        atexit.register(_remove_folders)
    copy = os.path.join(folder, os.path.basename(os.path.normpath(name)) or "input")
    if os.path.isdir("/proc/self/fd"):
        # the copy stays unlinked (nothing of it is left behind if the process is killed):
        # its name links to this process's descriptor (also that of a forked worker)
        os.symlink(f"/proc/self/fd/{tmp.fileno()}", copy)
        _KEEP.append(tmp)
    else:  # pragma: no cover - systems without /proc
        with tmp, open(copy, "wb") as out:
            while True:
                block = tmp.read(CHUNK)
                if not block:
                    break
                out.write(block)
    _COPIES[name] = copy
    _SHOWN[copy] = name
    return copy


_KEEP: list = []  # the open copies that the links of :func:`spool` point to


def _remove_folders() -> None:
    import shutil

    for folder in _FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)


def _plain(name: str) -> bool:
    """Whether ``name`` is written the same in plain text, TSV, JSON and HTML (printable
    ASCII without quotes, backslashes, ``&``, ``<``, ``>``)."""
    return all(" " <= c <= "~" and c not in "\"'\\&<>" for c in name)


def shown(text, output: bool = False):
    """``text`` (str or bytes) with the name of every copy made by :func:`spool` replaced
    by the name it was given by: in messages always, in outputs (``output``: standard
    output, files written) only where both names are :func:`_plain` (a name written
    escaped, in JSON or HTML, cannot be told from the text: the copy's name stays)."""
    for copy, name in _SHOWN.items():
        if output and not (_plain(copy) and _plain(name)):
            continue
        if isinstance(text, str):
            text = text.replace(copy, name)
        else:
            text = text.replace(copy.encode("utf-8", "surrogateescape"), name.encode("utf-8", "surrogateescape"))
    return text


class ShownStream:
    """Standard output while copies exist: what is written passes through :func:`shown`."""

    def __init__(self, stream, binary: bool = False) -> None:
        self._stream, self._binary = stream, binary

    def write(self, text):
        self._stream.write(shown(text, output=True))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    @property
    def buffer(self):
        return ShownStream(self._stream.buffer, True)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def copies() -> bool:
    """Whether :func:`spool` made a copy under another name."""
    return bool(_SHOWN)
