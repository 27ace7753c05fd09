"""200% zoom and a 320 px screen (WCAG 1.4.10 reflow): the main pages of both consoles never scroll sideways
(only the boxes that scroll by design: tables, the week calendars, the chart) and no control reaches past the screen.

200% zoom is emulated as Chromium's own zoom works: a 1280×900 window at 200% lays the page out in a 640×450 CSS-pixel
viewport and paints it with two device pixels per CSS pixel. DevTools' Emulation.setDeviceMetricsOverride sets exactly
that (640 wide, deviceScaleFactor 2), so media queries, rem sizes and the screenshots (1280 device pixels wide) are the
zoomed page's, not a CSS `zoom` imitation. The 320 px case is the same override at 320 CSS pixels, factor 1.
"""

from __future__ import annotations

import pytest
from conftest import SCREENSHOTS, STUDIO_ADMIN_PASSWORD, sign_in, wait_for
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.database_free

BELLA = "d3000000-0000-4000-8000-000000000001"
SMITH = "d2000000-0000-4000-8000-000000000001"
# (CSS width, device pixels per CSS pixel, file suffix)
VIEWS = [(640, 2, "zoom200-desktop"), (320, 1, "320")]
# Boxes that scroll sideways on purpose; what is inside them may reach past the screen.
OWN_SCROLL_BOXES = ".table-wrap, .week, .chart, pre, .visually-hidden, .skip-link, dialog:not([open])"

CLINIC_PAGES = {
    "clinic-board": "/clinic/", "clinic-week": "/clinic/week", "clinic-owners": "/clinic/owners",
    "clinic-owner": f"/clinic/owners/{SMITH}", "clinic-pet": f"/clinic/pets/{BELLA}", "clinic-admin": "/clinic/admin",
}
STUDIO_PAGES = {
    "studio-overview": "/studio/", "studio-bookings-week": "/studio/bookings",
    "studio-bookings-list": "/studio/bookings/list", "studio-services": "/studio/services",
    "studio-settings-studio": "/studio/settings/studio", "studio-settings-api-keys": "/studio/settings/api-keys",
}


def emulate(driver, width: int, scale: int, height: int = 900) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height // scale, "deviceScaleFactor": scale, "mobile": False})


def controls_cut_off(driver) -> list[str]:
    """Visible links, buttons and fields outside the screen's width, unless inside a box that scrolls on its own."""
    return driver.execute_script("""
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, h1, h2')]
          .filter(e => e.getClientRects().length && !e.closest(arguments[0]))
          .filter(e => { const r = e.getBoundingClientRect(); return r.left < -1 || r.right > width + 1; })
          .map(e => `${e.tagName.toLowerCase()} "${(e.textContent || e.name || '').trim().slice(0, 40)}"`);
        """, OWN_SCROLL_BOXES)


def full_page_screenshot(driver, name: str, width: int, scale: int) -> None:
    height = driver.execute_script("return Math.max(document.body.scrollHeight, window.innerHeight)")
    emulate(driver, width, scale, min(height, 3000) * scale)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
    emulate(driver, width, scale)


def check_pages(driver, base: str, pages: dict[str, str]) -> None:
    problems = []
    for width, scale, suffix in VIEWS:
        emulate(driver, width, scale)
        for name, path in pages.items():
            driver.get(base + path)
            wait_for(driver, lambda d: d.find_element(By.TAG_NAME, "h1"))
            assert driver.execute_script("return document.documentElement.clientWidth") <= width
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if overflow > 1:
                problems.append(f"{name} at {suffix}: the page scrolls sideways by {overflow}px")
            cut = controls_cut_off(driver)
            if cut:
                problems.append(f"{name} at {suffix}: cut off: {', '.join(cut[:8])}")
            full_page_screenshot(driver, f"{name}-{suffix}", width, scale)
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert not problems, "\n".join(problems)


def test_the_clinic_consoles_main_pages_reflow_at_200_percent_zoom_and_320_pixels(server, browser):
    sign_in(browser, server.base, "admin", "admin123")
    check_pages(browser, server.base, CLINIC_PAGES)


def test_the_studio_consoles_main_pages_reflow_at_200_percent_zoom_and_320_pixels(server, browser):
    sign_in(browser, server.base, "admin", STUDIO_ADMIN_PASSWORD, mount="/studio")
    check_pages(browser, server.base, STUDIO_PAGES)
