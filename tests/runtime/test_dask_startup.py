"""``import mrkit``, ``mrkit --help`` and ``mrkit smatch --help`` (whose --executor offers
dask) load neither dask nor distributed: they load when a cluster starts."""

from __future__ import annotations

import pytest

from test_package import loaded_after, loaded_by_cli

DASK = ("dask", "distributed", "pyarrow")

pytestmark = pytest.mark.subprocess


def test_import_and_help_load_no_dask():
    assert loaded_after("import mrkit, mrkit.runtime.executor", DASK) == []
    assert loaded_by_cli(("--help",), DASK) == []
    assert loaded_by_cli(("smatch", "--help"), DASK) == []
