"""Mutable record classes written out, not built by ``@dataclass``.

``dataclasses`` imports ``re`` (and with it ``enum``, ``copy``, ``weakref``): about a quarter of
the start-up of ``mrkit score`` on a corpus, whose result (:class:`~mrkit.aggregate.corpus.CorpusResult`)
was the only dataclass on that path (issue 14).  A class derived from :class:`Record` lists its
fields, in order, in ``_fields`` (a subclass appends its own) and sets them in its own
``__init__``; it then prints, compares and refuses hashing as the dataclass of the same fields
does, and :meth:`Record.replace` is ``dataclasses.replace`` (tests compare the two:
``tests/model/test_record.py``)."""

from __future__ import annotations

from .frozen import Valued


class Record(Valued):
    """Base of a mutable record whose fields are named in ``_fields`` (see the module docstring)."""

    _fields: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value, as a dataclass

    def _names(self) -> tuple[str, ...]:
        return self._fields

    def replace(self, **changes):
        """A new record of the same class with ``changes`` applied to its fields (the others
        as stored: a field read through a descriptor is passed on as set, not as read)."""
        unknown = [name for name in changes if name not in self._fields]
        if unknown:
            raise TypeError(f"{self.__class__.__qualname__}.__init__() got an unexpected keyword "
                            f"argument {unknown[0]!r}")
        stored = self.__dict__
        values = {name: stored[name] if name in stored else getattr(self, name) for name in self._fields}
        values.update(changes)
        return self.__class__(**values)
