"""Stress-suite plumbing: print the figures the tests collected (see stats.py)."""

from __future__ import annotations

from .stats import STATS


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not STATS:
        return
    terminalreporter.section("narateer stress figures")
    for key in sorted(STATS):
        terminalreporter.write_line(f"{key}: {STATS[key]}")
