"""The engine's settings, without numpy: :class:`AlignConfig` and the work a second buys.

Kept apart from :mod:`mrkit.align.engine` so that the compiled Smatch path (which needs
the settings but not the Python engine) starts without loading numpy's share of it."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class AlignConfig:
    """How hard to search.

    ``restarts``: random restarts of the hill-climber after the smart start.
    ``seed``: seed of the random starts.  ``exact``: ``"auto"`` solves the ILP only when
    the bound is not reached, ``"always"`` proves every pair with the ILP when the bound
    is not reached and with no time limit, ``"never"`` reports the bound instead.
    ``time_limit``: seconds per pair for the ILP in ``"auto"`` mode.
    """

    restarts: int = 4
    seed: int = 0
    exact: ExactMode = "auto"
    time_limit: float | None = 10.0


WORK_PER_SECOND = 3e7
"""How ``time_limit`` maps to work: one second buys this many steps (a step is about one
move evaluation of the climber per incident edge, one inner step of an assignment, one
simplex iteration per row and column of the LP; see :class:`~mrkit.align.engine.Budget`).  Calibrated once
on one core of the development machine (2 cores, shared) and fixed: the outcome of a
limited pair depends on the work done, never on the clock or the machine's load."""
