"""What every browser test shares: Debian's chromium found on the PATH (the tests are
skipped with the reason when it is not: .ci/run installs it), the flags that keep it
offline and quiet, the two screen sizes screenshots are taken at, and a tab that blocks
and records every network request and every script error — a catalog or a report is one
offline folder, so any request is a failure the test reports."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: ``pytestmark = needs_chromium`` in a browser test module.
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                    "(.ci/run installs it)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def launch(playwright):
    """Chromium launched headless and offline, with empty ``blocked`` (network requests
    refused) and ``errors`` (script errors) lists that its tabs fill."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    browser.blocked, browser.errors = [], []
    return browser


def open_tab(browser, url: str, viewport=DESKTOP):
    """A new tab of ``browser`` at ``url``: every http(s) request refused and noted in
    ``browser.blocked``, every uncaught script error noted in ``browser.errors``."""
    tab = browser.new_page(viewport=viewport)
    tab.route("http*://**", lambda route: (browser.blocked.append(route.request.url),
                                          route.abort()))
    tab.on("pageerror", lambda error: browser.errors.append(str(error)))
    tab.goto(url)
    return tab


def open_catalog(browser, url: str | None = None, viewport=DESKTOP):
    """A tab of ``catalog_browser`` at ``url`` (default: the catalog's index)."""
    return open_tab(browser, url or browser.index.as_uri(), viewport)
