"""Commands that print a table stay at the import floor: tabulate loads,
but neither importlib.metadata (tabulate 0.10 reads its version with it; 0.9, which narateer asks for,
does not) nor wcwidth (tabulate imports it whenever installed; narateer hands it over only for a table
whose text needs it). A table with wide East Asian text still lines up by display width.

The probe runs each command in a fresh interpreter without `site` (tests/cli/test_startup.py)."""

from __future__ import annotations

import pytest

from narateer_cli.render import table
from tests.cli.test_startup import probe
from tests.conftest import run

HEAVY = ["importlib.metadata", "wcwidth", "tabulate"]


@pytest.mark.parametrize("args", [["show", "selka"], ["odds", "3", "--dr", "3"], ["readiness", "selka"],
                                  ["encounter", "log", "--in", "ambush"], ["stats"],
                                  ["encounter", "show", "--in", "ambush"]],
                         ids=lambda args: " ".join(args[:2]))
def test_a_table_command_imports_neither_importlib_metadata_nor_wcwidth(camp, tmp_path, args):
    roll = ["roll", "selka", "stealth", "--dr", "3", "--reaction", "--in", "ambush", "--seed", "1", "--force"]
    assert run(camp, *roll).code == 0  # a logged roll, so the log and stats have a row
    got = probe(["--campaign", str(camp), *args], HEAVY, tmp_path)
    assert got["code"] == 0
    assert got["loaded"] == ["tabulate"]  # the table was printed with tabulate, and nothing else came


def test_the_installed_tabulate_reads_its_version_without_importlib_metadata():
    import tabulate

    assert tabulate.__version__.startswith("0.9"), "pyproject.toml asks for tabulate>=0.9,<0.10"


def test_a_table_of_wide_text_lines_up_by_display_width():
    wcwidth = pytest.importorskip("wcwidth")
    text = table([("塞尔卡", 3), ("Selka", 12), ("Zoë", 1)], ["who", "ready"])
    widths = {wcwidth.wcswidth(line) for line in text.splitlines()}
    assert len(widths) == 1, text
    assert text.splitlines()[2].startswith("塞尔卡  ")


def test_an_ascii_or_one_column_table_measures_with_len():
    from narateer_cli.render import _needs_wide

    assert not _needs_wide(["who", "ready"], [("Selka", 3), ("Zoë", 1), {"a": "Ångström"}])
    assert _needs_wide(["who"], [("塞尔卡",)]) and _needs_wide(["who"], [("Zoe\u0308",)])
