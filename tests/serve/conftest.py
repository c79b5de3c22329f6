"""Fixtures for `narateer serve`: a campaign with a creature hidden from the whole party, a real
server process on a free port (always stopped), and a headless Chromium when the machine has one."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import BROWSER_MISSING, ok

CHROMIUM = os.environ.get("NARATEER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("NARATEER_CHROMEDRIVER", "/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def hide_the_thief(camp: Path) -> Path:
    """selka and mira are the party; the thief hid from both of them (recorded Stealth 4)."""
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [selka, mira]\n")
    ok(camp, "encounter", "new", "alley", "selka", "mira", "thief")
    ok(camp, "turn", "start", "thief")
    ok(camp, "hide", "thief", "--from", "selka", "--from", "mira", "--boost", "1", "--faces", "2,2")
    return camp


@pytest.fixture
def hidden_camp(camp) -> Path:
    """selka and mira are the party; the thief hid from both of them (recorded Stealth 4)."""
    return hide_the_thief(camp)


class Server:
    """`narateer serve --port 0` in its own process; the URL and token are read from what it prints."""

    def __init__(self, camp: Path, *extra: str):
        pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install -e '.[test,serve]'")
        self.proc = subprocess.Popen([sys.executable, "-m", "narateer_cli", "--campaign", str(camp), "serve",
                                      "--port", "0", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.lines: queue.Queue = queue.Queue()
        self.err: list = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.err.append), daemon=True).start()
        self.url = self.token = None
        self.players = {}  # serve --act: character id -> its link's token (B-2)
        deadline = time.monotonic() + 60
        while self.token is None:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                self.stop()
                raise AssertionError(f"serve did not start: {''.join(self.err)}") from None
            if "party view " in line:
                self.url = line.split("party view ", 1)[1].split()[0].rstrip("/")
            if "'s link " in line:
                self.players[line.split("serve: ", 1)[1].split("'s link", 1)[0]] = line.strip().rsplit("?token=", 1)[1]
            elif "?token=" in line:
                self.token = line.strip().rsplit("?token=", 1)[1]
        self.wait_ready()

    @staticmethod
    def _pump(stream, put):
        for line in stream:
            put(line)

    def wait_ready(self, timeout: float = 30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.get("/data")
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def get(self, path: str, method: str = "GET", headers: dict | None = None, read: int | None = None):
        """(status, headers, body text); an HTTP error status is returned, not raised."""
        req = urllib.request.Request(self.url + path, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                body = resp.read(read) if read else resp.read()
                return resp.status, resp.headers, body.decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers, exc.read().decode("utf-8", "replace")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)


@pytest.fixture
def party_camp(camp) -> Path:
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [selka, mira]\n")
    ok(camp, "encounter", "new", "brawl", "selka", "mira", "sentry")
    ok(camp, "turn", "start", "selka")
    return camp


@pytest.fixture
def acting(party_camp):
    """`serve --act` on `party_camp` (selka and mira are the party; selka's activation in `brawl`)."""
    with Server(party_camp, "--act") as srv:
        yield srv


@pytest.fixture
def server(hidden_camp):
    with Server(hidden_camp) as srv:
        yield srv


# Every test that starts a Chromium is in this group: with `--dist loadgroup` (make test) they run one after the
# other on one worker, so two browsers (each several processes) never share the two cores with a server each
# and the other worker's tests; their waits for the page are the suite's most load-sensitive.
IN_BROWSER = pytest.mark.xdist_group("browser")


def browser_missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return path
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package"
    return None


def new_browser(width: int = 1100, height: int = 900):
    """A headless Chromium of this size (skips the test, loudly, when the machine has none)."""
    missing = browser_missing()
    if missing is not None:
        BROWSER_MISSING.append(missing)
        pytest.skip(f"no headless browser ({missing} missing)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture
def browser():
    driver = new_browser()
    try:
        yield driver
    finally:
        driver.quit()


def shot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def poll(predicate, timeout: float = 20, every: float = 0.05):
    """Wait until `predicate()` is true (its value), or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s")
        time.sleep(every)
