"""A stand-in for APNs: an ASGI app served by hypercorn over TLS, HTTP/2 only (ALPN `h2`), that checks what a
provider must send (`POST /3/device/<hex token>`, `authorization: bearer <ES256 JWT>` signed by the expected key
with the expected `kid` and `iss`, `apns-topic`, `apns-push-type`, `apns-priority`, `apns-expiration`, a JSON
payload with `aps.alert`) and answers as APNs does: 200 with `apns-id`, or an error status with `{"reason": …}`.

Answers per device token are scripted (`answers[token] = [410, …]`, consumed one per request; 200 when none left).
A request that breaks a rule is answered 400 or 403 with the rule in `reason`, and recorded with `problems`.
"""

from __future__ import annotations

import asyncio
import base64
import json
import threading
import time
import uuid
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from hypercorn.asyncio import serve
from hypercorn.config import Config

REASONS = {410: "Unregistered", 429: "TooManyRequests", 500: "InternalServerError", 503: "ServiceUnavailable",
           400: "BadDeviceToken", 403: "ExpiredProviderToken"}


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Request:
    token: str
    http_version: str
    headers: dict[str, str]
    payload: dict | None
    claims: dict | None
    jwt_header: dict | None
    problems: list[str]
    status: int = 0
    apns_id: str | None = None


@dataclass
class APNsStandIn:
    public_key: ec.EllipticCurvePublicKey
    key_id: str
    team_id: str
    topic: str
    answers: dict[str, list[int]] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def check_jwt(self, authorization: str | None, problems: list[str]) -> tuple[dict | None, dict | None]:
        if not authorization or not authorization.startswith("bearer "):
            problems.append("MissingProviderToken")
            return None, None
        parts = authorization[len("bearer "):].split(".")
        if len(parts) != 3:
            problems.append("InvalidProviderToken: not a JWS")
            return None, None
        header, claims = json.loads(b64url_decode(parts[0])), json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
        if header.get("alg") != "ES256" or header.get("kid") != self.key_id:
            problems.append(f"InvalidProviderToken: header {header}")
        if claims.get("iss") != self.team_id or abs(time.time() - claims.get("iat", 0)) > 3600:
            problems.append(f"InvalidProviderToken: claims {claims}")
        try:
            if len(signature) != 64:
                raise InvalidSignature()
            der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            self.public_key.verify(der, f"{parts[0]}.{parts[1]}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            problems.append("InvalidProviderToken: bad signature")
        return header, claims

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        problems: list[str] = []
        path = scope["path"]
        token = path[len("/3/device/"):] if path.startswith("/3/device/") else ""
        if scope["method"] != "POST" or not token or not all(c in "0123456789abcdef" for c in token):
            problems.append(f"BadPath: {scope['method']} {path}")
        if scope.get("http_version") != "2":
            problems.append(f"not HTTP/2: {scope.get('http_version')}")
        jwt_header, claims = self.check_jwt(headers.get("authorization"), problems)
        if headers.get("apns-topic") != self.topic:
            problems.append(f"BadTopic: {headers.get('apns-topic')}")
        if headers.get("apns-push-type") != "alert":
            problems.append("InvalidPushType")
        if headers.get("apns-priority") not in ("5", "10"):
            problems.append("BadPriority")
        if not headers.get("apns-expiration", "").isdigit():
            problems.append("BadExpirationDate")
        if len(headers.get("apns-collapse-id", "").encode()) > 64:
            problems.append("BadCollapseId")
        payload = None
        try:
            payload = json.loads(body)
            if not isinstance(payload.get("aps", {}).get("alert"), dict):
                problems.append("aps.alert missing")
        except ValueError:
            problems.append("PayloadEmpty or not JSON")
        request = Request(token, scope.get("http_version", ""), headers, payload, claims, jwt_header, problems)
        with self.lock:
            scripted = self.answers.get(token, [])
            status = scripted.pop(0) if scripted else 200
            if problems:
                status = 403 if any("ProviderToken" in p for p in problems) else 400
            request.status = status
            if status == 200:
                request.apns_id = str(uuid.uuid4()).upper()
            self.requests.append(request)
        response_headers = [(b"content-type", b"application/json")]
        if request.apns_id:
            response_headers.append((b"apns-id", request.apns_id.encode()))
        if status == 200:
            response_body = b""
        else:
            reason = "; ".join(problems) if problems else REASONS.get(status, "Error")
            document = {"reason": reason}
            if status == 410:
                document["timestamp"] = int(time.time() * 1000)
            response_body = json.dumps(document).encode()
        await send({"type": "http.response.start", "status": status, "headers": response_headers})
        await send({"type": "http.response.body", "body": response_body})

    def to(self, token: str) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.token == token]


class Running:
    """hypercorn on its own event loop in a thread, HTTP/2 only."""

    def __init__(self, app: APNsStandIn, port: int, certfile: str, keyfile: str):
        self.config = Config()
        self.config.bind = [f"127.0.0.1:{port}"]
        self.config.certfile = certfile
        self.config.keyfile = keyfile
        self.config.alpn_protocols = ["h2"]
        self.config.accesslog = None
        self.app = app
        self.loop = asyncio.new_event_loop()
        self.stop_event: asyncio.Event | None = None
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        asyncio.set_event_loop(self.loop)

        async def main():
            self.stop_event = asyncio.Event()
            self.started.set()
            await serve(self.app, self.config, shutdown_trigger=self.stop_event.wait)
        self.loop.run_until_complete(main())

    def start(self):
        self.thread.start()
        self.started.wait(10)

    def stop(self):
        if self.stop_event is not None:
            self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(10)
