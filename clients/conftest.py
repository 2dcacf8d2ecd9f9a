"""Fixtures shared by the Python flows: the sandbox the check started, and a local webhook endpoint."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass(frozen=True)
class Sandbox:
    """Where the sandbox server listens and the API token it was started with."""

    base_url: str
    client_id: str
    client_secret: str


def known(value: str) -> str:
    """The enum value a flow expects; through the additive proxy (PAYMENTS_ADDITIVE_CHANGE set) every
    enum in an answer is that unknown value instead, which the client must hand over as it came."""
    return os.environ.get("PAYMENTS_ADDITIVE_CHANGE") or value


@pytest.fixture(scope="session")
def sandbox() -> Sandbox:
    names = ("PAYMENTS_BASE_URL", "PAYMENTS_CLIENT_ID", "PAYMENTS_CLIENT_SECRET")
    missing = [name for name in names if not os.environ.get(name)]
    if missing:
        pytest.fail(f"{', '.join(missing)} not set: run the flows with `npm run check:clients`")
    return Sandbox(*(os.environ[name] for name in names))


@dataclass(frozen=True)
class Delivery:
    """One webhook delivery as it arrived: the raw body is what the signature covers."""

    headers: dict[str, str]
    body: bytes


class WebhookInbox:
    """An HTTP endpoint on 127.0.0.1 that keeps every POST it receives and answers 204."""

    def __init__(self) -> None:
        self._deliveries: queue.Queue[Delivery] = queue.Queue()
        inbox = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the name http.server calls)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                inbox._deliveries.put(Delivery({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/webhooks"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def next(self, timeout: float = 15.0) -> Delivery:
        """The next delivery, waiting for it."""
        try:
            return self._deliveries.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no webhook arrived at {self.url} within {timeout} s") from None

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def webhook_inbox() -> Iterator[WebhookInbox]:
    inbox = WebhookInbox()
    yield inbox
    inbox.close()
