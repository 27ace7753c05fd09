"""The browser suites' harness: the real `server` binary (SQLite, or a fresh PostgreSQL database when DATABASE_URL
is set), Debian's Chromium driven by Selenium through Debian's chromedriver (never a downloaded browser), with
Chromium's fake capture devices so a WAV file is the microphone.

Fixtures:
- `server`: one server per test session (demo data seeded, in-process worker), `.base` its URL.
- `browser_factory(audio=None, width=1280, height=900)`: a new headless Chromium; `audio` is a WAV file fed as the
  microphone. Every browser is quit at the end of the test.
- `browser`: one such browser without audio.
Helpers: `own_server` (a second server with its own data and environment), `sign_in`, `api_json`, `screenshot`.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "lib"))
from local_server import (  # noqa: E402
    create_postgres_database, drop_postgres_database, free_port, is_postgres, start_server, stop_server)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException, StaleElementReferenceException, TimeoutException, WebDriverException)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BINARY", "/usr/bin/chromedriver")
SCREENSHOTS = ROOT / "docs" / "screenshots"
# The AutoDetail admin's first password (ADMIN_PASSWORD), so the studio suite can sign in.
STUDIO_ADMIN_PASSWORD = "studio-admin-password-1"


@dataclass
class Server:
    base: str
    data_dir: Path
    log: Path
    env: dict


@pytest.fixture(scope="session")
def server():
    data_dir = Path(tempfile.mkdtemp(prefix="browser-suite-"))
    log = data_dir / "server.log"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "DATA_DIR": str(data_dir),
        "BCRYPT_COST": "4",
        "ADMIN_PASSWORD": STUDIO_ADMIN_PASSWORD,
        "LOG_LEVEL": "info",
        "TRANSCRIPTION_POLL_INTERVAL_SECONDS": "0.5",
    }
    for passthrough in ("TRANSCRIPTION_PYTHON", "TRANSCRIPTION_ENGINE", "WHISPER_MODEL_DIR", "HF_HOME"):
        if passthrough in os.environ:
            env[passthrough] = os.environ[passthrough]
    if "TRANSCRIPTION_PYTHON" not in env and (ROOT / ".venv-transcription" / "bin" / "python3").exists():
        env["TRANSCRIPTION_PYTHON"] = str(ROOT / ".venv-transcription" / "bin" / "python3")
    admin_url = os.environ.get("DATABASE_URL")
    database = None
    if is_postgres(admin_url):
        env["DATABASE_URL"], database = create_postgres_database(admin_url, "browser")
    port = free_port()
    process = start_server(env, log, port)
    try:
        yield Server(base=f"http://127.0.0.1:{port}", data_dir=data_dir, log=log, env=env)
    finally:
        stop_server(process)
        if database:
            drop_postgres_database(admin_url, database)
        if os.environ.get("KEEP_BROWSER_SUITE_DATA") != "1":
            shutil.rmtree(data_dir, ignore_errors=True)


@contextlib.contextmanager
def own_server(server: Server, name: str, **overrides: str):
    """A server of its own, for a test that would disturb the shared one (many sign-ins, another mount): the shared
    server's environment with `overrides`, a fresh data folder and, on PostgreSQL, a fresh database. Yields its URL."""
    data_dir = Path(tempfile.mkdtemp(prefix=f"browser-{name}-"))
    env = dict(server.env, DATA_DIR=str(data_dir), **overrides)
    admin_url = os.environ.get("DATABASE_URL")
    database = None
    if is_postgres(admin_url):
        env["DATABASE_URL"], database = create_postgres_database(admin_url, f"browser_{name}")
    port = free_port()
    process = start_server(env, data_dir / "server.log", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(process)
        if database:
            drop_postgres_database(admin_url, database)
        shutil.rmtree(data_dir, ignore_errors=True)


def make_browser(audio: Path | None = None, width: int = 1280, height: int = 900) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     "--autoplay-policy=no-user-gesture-required", f"--window-size={width},{height}",
                     "--disable-features=MediaRouter,OptimizationHints", "--no-first-run"):
        options.add_argument(argument)
    if audio is not None:
        options.add_argument(f"--use-file-for-fake-audio-capture={audio}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(width, height)
    driver.implicitly_wait(0)
    return driver


@pytest.fixture
def browser_factory():
    made: list[webdriver.Chrome] = []

    def factory(audio: Path | None = None, width: int = 1280, height: int = 900) -> webdriver.Chrome:
        driver = make_browser(audio, width, height)
        made.append(driver)
        return driver

    yield factory
    for driver in made:
        try:
            driver.quit()
        except Exception:  # noqa: BLE001 - a browser a test already killed
            pass


@pytest.fixture
def browser(browser_factory):
    return browser_factory()


def wait_for(driver, condition, timeout: float = 15):
    """Waits until `condition(driver)` is truthy. Elements that vanish while a page navigates or re-renders (stale
    references, nodes no longer in the document) count as "not yet", not as failures."""
    return WebDriverWait(driver, timeout, ignored_exceptions=(
        NoSuchElementException, StaleElementReferenceException, TimeoutException, WebDriverException)).until(condition)


def wait_for_text(driver, css: str, expected, timeout: float = 15) -> str:
    """The text of the element at `css` once `expected(text)` holds. The element is looked up afresh on every try, so
    a node of the page being left (a stale reference while the next page loads) is never the one checked. Fails with
    the last text seen."""
    seen: list[str] = []

    def check(d):
        text = d.find_element(By.CSS_SELECTOR, css).text
        seen.append(text)
        return text if expected(text) else None

    try:
        return wait_for(driver, check, timeout)
    except TimeoutException:
        raise AssertionError(f"{css} never read as expected; last text: {seen[-1] if seen else '(no such element)'}")


def sign_in(driver, base: str, username: str, password: str, mount: str = "/clinic") -> None:
    """Signs in through the console's own form and waits for the page after it."""
    driver.get(base + mount + "/login")
    driver.find_element(By.NAME, "username").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_for(driver, lambda d: "/login" not in d.current_url or d.find_elements(By.CSS_SELECTOR, ".form-error"))
    assert "/login" not in driver.current_url, driver.find_element(By.CSS_SELECTOR, ".form-error").text


def api_json(base: str, method: str, path: str, token: str | None = None, body=None, headers=None):
    """(status, parsed JSON or None) of a plain HTTP call to the API, outside any browser."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw) if raw else None
        except ValueError:
            return error.code, raw.decode(errors="replace")


def helppet_token(base: str, username: str, password: str) -> str:
    status, body = api_json(base, "POST", "/api/v1/auth/token", body={"username": username, "password": password})
    assert status == 200, body
    return body["access_token"]


def screenshot(driver, name: str) -> Path:
    """Saves the current page under docs/screenshots/{name}.png (full page height)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    width = driver.execute_script("return window.innerWidth")
    height = driver.execute_script("return Math.max(document.body.scrollHeight, window.innerHeight)")
    original = driver.get_window_size()
    driver.set_window_size(original["width"], min(max(height + 120, 600), 4000))
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    driver.set_window_size(original["width"], original["height"])
    assert width > 0
    return path


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "database_free: the result does not depend on the database engine (layout, accessibility, headers, redirects)")


def pytest_collection_modifyitems(config, items):
    """SKIP_DATABASE_FREE_TESTS=1 (.ci/run's second engine) leaves out the tests marked `database_free`: they gave
    their answer on the first engine, and a second run only costs minutes of Chromium."""
    if os.environ.get("SKIP_DATABASE_FREE_TESTS") != "1":
        return
    skip = pytest.mark.skip(reason="database-free: ran on the first engine (SKIP_DATABASE_FREE_TESTS=1)")
    for item in items:
        if "database_free" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter):
    """The moderate and minor accessibility findings the audits saw (they do not fail a test; docs/accessibility.md
    lists them)."""
    from accessibility import REMAINING
    if not REMAINING:
        return
    terminalreporter.section("accessibility: moderate and minor findings")
    for page, lines in sorted(REMAINING.items()):
        for line in lines:
            terminalreporter.write_line(f"{page}: {line}")
