"""The engine's settings, without numpy: :class:`AlignConfig` and the work a second buys.

Kept apart from :mod:`mrkit.align.engine` so that the compiled Smatch path (which needs
the settings but not the Python engine) starts without loading numpy's share of it."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Literal

    ExactMode = Literal["auto", "always", "never"]


def __getattr__(name: str):
    if name == "ExactMode":  # the alias, built on first use (the Python engine re-exports it)
        from typing import Literal

        value = globals()["ExactMode"] = Literal["auto", "always", "never"]
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _DataclassFields:
    """``AlignConfig.__dataclass_fields__``, built on first use from the dataclass twin
    (:func:`_twin`): ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass``
    then work on :class:`AlignConfig` as on the dataclass it was, without ``dataclasses``
    being imported by every command that only builds one."""

    def __get__(self, obj, cls=None):
        fields = _twin().__dataclass_fields__
        type.__setattr__(AlignConfig, "__dataclass_fields__", fields)  # the next use is plain
        return fields


class AlignConfig:
    """How hard to search.

    ``restarts``: random restarts of the hill-climber after the smart start.
    ``seed``: seed of the random starts.  ``exact``: ``"auto"`` solves the ILP only when
    the bound is not reached, ``"always"`` proves every pair with the ILP when the bound
    is not reached and with no time limit, ``"never"`` reports the bound instead.
    ``time_limit``: seconds per pair for the ILP in ``"auto"`` mode.
    """

    # Written out as ``@dataclass(frozen=True)`` generates it (same __init__, __repr__,
    # __eq__, __hash__, refused assignment, __match_args__, class defaults): ``dataclasses``
    # imports ``re``, ``enum``, ``copy`` and ``weakref``, about 8 ms of every ``mrkit smatch``
    # (issue 14).  The align floor may import nothing of mrkit's (``model.frozen`` is above
    # it), so the class is written here; tests/align/test_config_record.py compares it with
    # the dataclass twin.
    restarts: int = 4
    seed: int = 0
    exact: ExactMode = "auto"
    time_limit: float | None = 10.0

    __match_args__ = ("restarts", "seed", "exact", "time_limit")
    __dataclass_fields__ = _DataclassFields()

    def __init__(self, restarts: int = 4, seed: int = 0, exact: ExactMode = "auto",
                 time_limit: float | None = 10.0) -> None:
        put = object.__setattr__
        put(self, "restarts", restarts)
        put(self, "seed", seed)
        put(self, "exact", exact)
        put(self, "time_limit", time_limit)

    def _key(self) -> tuple:
        return (self.restarts, self.seed, self.exact, self.time_limit)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(restarts={self.restarts!r}, seed={self.seed!r}, "
                f"exact={self.exact!r}, time_limit={self.time_limit!r})")

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value) -> None:
        if type(self) is AlignConfig or name in self.__match_args__:
            raise _frozen_error(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if type(self) is AlignConfig or name in self.__match_args__:
            raise _frozen_error(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    def __replace__(self, **changes):
        """``copy.replace`` (Python 3.13 gives dataclasses this method): a new config with
        ``changes`` applied, as ``dataclasses.replace``."""
        return self.__class__(**{name: getattr(self, name) for name in self.__match_args__} | changes)


def _frozen_error(message: str) -> Exception:
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)


def _twin():
    """The dataclass :class:`AlignConfig` was (its fields serve ``dataclasses``' functions)."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class AlignConfig:
        """The dataclass twin of :class:`mrkit.align.config.AlignConfig`."""

        restarts: int = 4
        seed: int = 0
        exact: ExactMode = "auto"
        time_limit: float | None = 10.0

    return AlignConfig


WORK_PER_SECOND = 3e7
"""How ``time_limit`` maps to work: one second buys this many steps (a step is about one
move evaluation of the climber per incident edge, one inner step of an assignment, one
simplex iteration per row and column of the LP; see :class:`~mrkit.align.engine.Budget`).  Calibrated once
on one core of the development machine (2 cores, shared) and fixed: the outcome of a
limited pair depends on the work done, never on the clock or the machine's load."""
