"""Immutable value classes written out, not built by ``@dataclass(frozen=True)``.

Building a frozen dataclass costs about a millisecond at import (the decorator writes and
compiles six methods), paid by every command that imports the module (start-up, issue 14).
A class derived from :class:`Frozen` lists its fields in ``__slots__`` and sets them in its
``__init__`` with :func:`setfields`; it then compares, hashes, prints, pickles and refuses
assignment as the frozen dataclass of the same fields does (tests compare the two:
``tests/model/test_frozen.py``)."""

from __future__ import annotations


def setfields(obj, *values) -> None:
    """Set the fields of a :class:`Frozen` instance, in the order of its ``__slots__``."""
    for name, value in zip(obj.__slots__, values):
        object.__setattr__(obj, name, value)


class Valued:
    """Base of :class:`Frozen` and :class:`~mrkit.model.record.Record`: fields named by
    :meth:`_names`, printed and compared as the dataclass of the same fields (equal only to
    an instance of the same class with equal fields)."""

    __slots__ = ()

    def _names(self) -> tuple[str, ...]:
        return self.__slots__

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._names())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names())
        return f"{self.__class__.__qualname__}({inner})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented


class Frozen(Valued):
    """Base of an immutable value class whose fields are its ``__slots__`` (see the module
    docstring)."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value) -> None:
        raise _frozen(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise _frozen(f"cannot delete field {name!r}")

    def __reduce__(self):
        return (self.__class__, self._values())


def _frozen(message: str) -> Exception:
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)
