"""Plain-HTTP access to the clinic console (no browser): a signed-in cookie session, its CSRF token, and calls
with or without them. Used by the session and CSRF tests."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class ConsoleClient:
    """A cookie jar signed in through the console's own form; `csrf` is read from a page's meta tag."""

    def __init__(self, base: str, mount: str = "/clinic"):
        self.base = base
        self.mount = mount
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())
        self.csrf = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        req = urllib.request.Request(self.base + path, data=body, method=method)
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        try:
            with self.opener.open(req, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode(errors="replace")

    def sign_in(self, username: str, password: str) -> None:
        form = urllib.parse.urlencode({"username": username, "password": password}).encode()
        status, headers, body = self.request("POST", self.mount + "/login", form,
                                             {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303, (status, body[:300])
        self.csrf = self.page_csrf()

    def page_csrf(self, path: str | None = None) -> str:
        status, _, body = self.request("GET", path or self.mount + "/my-pets")
        if status in (301, 302, 303):
            status, _, body = self.request("GET", self.mount + "/")
        match = re.search(r'<meta name="csrf-token" content="([0-9a-f]+)"', body)
        assert match, (status, body[:300])
        return match.group(1)

    def api(self, method: str, path: str, body=None, csrf: str | None = "session"):
        headers = {"Accept": "application/json"}
        if csrf == "session":
            headers["X-CSRF-Token"] = self.csrf
        elif csrf is not None:
            headers["X-CSRF-Token"] = csrf
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        status, _, text = self.request(method, path, data, headers)
        try:
            return status, json.loads(text) if text else None
        except ValueError:
            return status, text

    def session_cookie(self) -> str | None:
        for cookie in self.jar:
            if cookie.name == "helppet_session":
                return cookie.value
        return None
