"""The accessibility audit of both consoles: Deque's axe-core, taken from the PyPI wheel `axe-playwright-python`
(installed with --no-deps: only its bundled axe.min.js is used, never Playwright), injected into the page Selenium
drives. `audit(driver, name)` fails on any critical or serious violation of the WCAG 2.0/2.1 A and AA rules and
records the moderate and minor ones, which docs/accessibility.md lists.
"""

from __future__ import annotations

import importlib.resources
import json
from functools import cache

# The rule sets the issue asks for (WCAG 2 A and AA), with their 2.1 additions.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"critical", "serious"}
# Every moderate or minor finding seen in this test session, by page: printed at the end of the session
# (conftest's pytest_terminal_summary) so that docs/accessibility.md can list them.
REMAINING: dict[str, list[str]] = {}


@cache
def axe_source() -> str:
    """axe.min.js from the installed wheel; a missing package is a failure, not a skip (the audit is part of CI)."""
    try:
        script = importlib.resources.files("axe_playwright_python") / "axe.min.js"
    except ModuleNotFoundError as error:
        raise AssertionError("axe-core is missing: pip install --no-deps axe-playwright-python") from error
    return script.read_text(encoding="utf-8")


def axe_version(driver) -> str:
    inject(driver)
    return driver.execute_script("return axe.version")


def inject(driver) -> None:
    # The console's CSP forbids inline <script> elements, but WebDriver's script evaluation is not subject to it.
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(axe_source())


def violations(driver, context=None) -> list[dict]:
    inject(driver)
    driver.set_script_timeout(60)
    raw = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        // A fading toast measured halfway through its transition has a blended colour no reader ever sees
        // for long: wait for the finite animations and transitions to settle, then audit what stays on screen.
        const settling = document.getAnimations()
          .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
          .map(a => a.finished.catch(() => null));
        Promise.all(settling).then(() => axe.run(arguments[0] || document, {runOnly: {type: 'tag', values: arguments[1]}, resultTypes: ['violations']})
           .then(result => done(JSON.stringify(result.violations)), error => done(JSON.stringify({error: String(error)}))));
        """, context, WCAG_TAGS)
    parsed = json.loads(raw)
    if isinstance(parsed, dict):
        raise AssertionError(f"axe.run failed: {parsed['error']}")
    return parsed


def describe(violation: dict) -> list[str]:
    lines = []
    for node in violation["nodes"]:
        summary = " ".join(node.get("failureSummary", "").split())
        lines.append(f"{violation['impact']} {violation['id']} at {' '.join(map(str, node['target']))}: {summary}")
    return lines


def audit(driver, name: str, context=None) -> list[dict]:
    """Audits the page as it is now; asserts no critical or serious violation and returns the others."""
    found = violations(driver, context)
    blocking = [v for v in found if v["impact"] in BLOCKING]
    others = [v for v in found if v["impact"] not in BLOCKING]
    if others:
        REMAINING.setdefault(name, [])
        for violation in others:
            for line in describe(violation):
                if line not in REMAINING[name]:
                    REMAINING[name].append(line)
    assert not blocking, f"accessibility audit of {name} ({driver.current_url}):\n" + "\n".join(
        line for violation in blocking for line in describe(violation))
    return others
