"""The site's web server (what `build.py serve`, the e2e tests and the benchmarks use):
loopback only, the right MIME types, cross-origin isolation headers unless plain, no
listings, no symlinks out of the site, malformed paths answered 400, each request under a
deadline and the connections served at once bounded."""

from __future__ import annotations

import functools
import http.server
import io
import math
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
from http import HTTPStatus
from pathlib import Path
from typing import Any, BinaryIO

from buildsys.paths import SITE

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
}
SITE_TYPES = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}


class BadPath(ValueError):
    """A request path that names no file of any site: answered 400 with this reason."""


_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def site_path_parts(path: str) -> list[str]:
    """The segments of a request's URL path, decoded; BadPath when it is malformed.

    Refused: a path that does not start with ``/``, a ``%`` not followed by two hex digits,
    bytes that are not UTF-8, control characters (NUL included), backslashes, and the dot
    segments ``.`` and ``..`` (a browser removes them before sending; anything else that
    sends them is probing).
    """
    if not path.startswith("/"):
        raise BadPath("the path must start with /")
    if _PERCENT.search(path):
        raise BadPath("bad percent-encoding")
    try:
        text = urllib.parse.unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise BadPath("the path is not UTF-8") from None
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text):
        raise BadPath("control character in the path")
    if "\\" in text:
        raise BadPath("backslash in the path")
    segments = text.split("/")[1:]
    if any(segment in (".", "..") for segment in segments):
        raise BadPath("dot segment in the path")
    return [segment for segment in segments if segment]


class _Deadline:
    """The deadline of the request a connection is on: every read and write of the
    connection waits at most until then (a per-request limit, not a per-read one)."""

    def __init__(self, sock: socket.socket, seconds: float) -> None:
        self.sock = sock
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def restart(self) -> None:
        """A new request begins (the first, or the next one on a kept-alive connection)."""
        self.at = time.monotonic() + self.seconds

    def arm(self) -> None:
        """Let the next socket call wait only for what is left; TimeoutError when nothing is."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request deadline passed")
        self.sock.settimeout(left)


class _DeadlineReader(io.RawIOBase):
    """The reading side of a connection under its request's deadline."""

    def __init__(self, deadline: _Deadline) -> None:
        self.deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self.deadline.arm()
        return self.deadline.sock.recv_into(buffer)


class _DeadlineWriter(io.BufferedIOBase):
    """The writing side of a connection under its request's deadline (unbuffered)."""

    def __init__(self, deadline: _Deadline) -> None:
        self.deadline = deadline

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.deadline.arm()
        self.deadline.sock.sendall(data)
        with memoryview(data) as view:
            return view.nbytes


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files of one folder, with the right MIME types and, unless the server is a
    plain host, cross-origin isolation headers.

    Only regular files inside the folder are served: a folder answers its index.html (a
    redirect adds the trailing slash) or 404, never a listing; a path that goes on past a
    file (``/index.html/``) is 404; a symlink whose target lies outside the folder is
    refused (403); a malformed path is answered 400. Each request, from its first byte to
    the last byte of its answer (and the wait for it on a kept-alive connection), must be
    done within the server's ``request_timeout``, however slowly the client trickles it.
    """

    server: SiteServer
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # The site's types over the standard ones; set before the base class handles the
        # request (its __init__ does), read by guess_type.
        self.extensions_map = SITE_TYPES
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        # Reads and writes go through the request's deadline, so a client that sends half a
        # request, trickles it a line at a time, reads the answer slowly or idles on a
        # kept-alive connection is dropped when its request's time is up.
        self.connection = self.request
        self.deadline = _Deadline(self.connection, self.server.request_timeout)
        self.rfile = io.BufferedReader(_DeadlineReader(self.deadline))
        self.wfile = _DeadlineWriter(self.deadline)

    def handle_one_request(self) -> None:
        self.deadline.restart()
        super().handle_one_request()

    def end_headers(self) -> None:
        if self.server.isolation:
            # COOP + COEP make the page cross-origin isolated: SharedArrayBuffer, and so an
            # interrupt buffer that stops long Python work without killing the worker.
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self) -> BinaryIO | None:
        """Resolve the request to a file inside the site and send its headers."""
        split = urllib.parse.urlsplit(self.path)
        try:
            parts = site_path_parts(split.path)
        except BadPath as exc:
            self.send_error(HTTPStatus.BAD_REQUEST, str(exc))
            return None
        root = Path(self.directory).resolve()
        try:
            # strict: every link followed; a dangling one is a missing file
            real = root.joinpath(*parts).resolve(strict=True)
        except (OSError, RuntimeError):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        if not real.is_relative_to(root):
            self.send_error(HTTPStatus.FORBIDDEN, "outside the site")
            return None
        if urllib.parse.unquote(split.path).endswith("/") and not real.is_dir():
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")  # nothing below a file
            return None
        if real.is_dir():
            index = real / "index.html"
            if not index.is_file():
                self.send_error(HTTPStatus.NOT_FOUND, "File not found")  # no listings
                return None
            if not split.path.endswith("/"):
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", urllib.parse.urlunsplit(
                    (split.scheme, split.netloc, split.path + "/", split.query, "")))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            real = index.resolve()
            if not real.is_relative_to(root):
                self.send_error(HTTPStatus.FORBIDDEN, "outside the site")
                return None
        if not real.is_file():
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            f = real.open("rb")
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            stat = os.fstat(f.fileno())
            # A validator, so that a revalidation (Cache-Control: no-cache, or the service
            # worker filling its cache right after the first visit) costs a 304, not the
            # file again. A build re-creates every file, so inode and mtime both change.
            etag = f'"{stat.st_ino:x}-{stat.st_size:x}-{stat.st_mtime_ns:x}"'
            if etag in (self.headers.get("If-None-Match") or ""):
                f.close()
                self.send_response(HTTPStatus.NOT_MODIFIED)
                self.send_header("ETag", etag)
                self.end_headers()
                return None
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", self.guess_type(str(real)))
            self.send_header("Content-Length", str(stat.st_size))
            self.send_header("ETag", etag)
            self.end_headers()
        except BaseException:
            f.close()
            raise
        return f

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """Never list a folder (send_head does not call this; kept as a guard)."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def log_message(self, format: str, *args: object) -> None:
        if self.server.verbose:
            super().log_message(format, *args)


BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 12\r\nRetry-After: 1\r\nConnection: close\r\n\r\nServer busy\n")


class SiteServer(http.server.ThreadingHTTPServer):
    """The site's server: one thread per connection, at most ``max_connections`` of them,
    bound to the loopback address. A connection beyond that is answered 503 and closed at
    once, without a thread."""

    daemon_threads = True
    verbose = False
    isolation = True
    request_timeout = 10.0
    max_connections = 64
    # The kernel's queue of connections not yet accepted (socketserver's default is 5: a
    # burst of connections past it waited for SYN retries, seconds, with no answer at all).
    request_queue_size = 1024

    def __init__(self, address: tuple[str, int], handler: Any, *,
                 max_connections: int = 64) -> None:
        self.max_connections = max_connections
        self.slots = threading.BoundedSemaphore(max_connections)
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            try:
                request.setblocking(False)  # a fresh socket takes these bytes at once
                request.send(BUSY)
                # What the client has sent already is read (not waited for): closing with
                # unread bytes would send a reset that could overtake the answer.
                request.recv(65536)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()  # no thread was started to release it
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request: socket.socket | tuple[bytes, socket.socket],
                     client_address: Any) -> None:
        # A browser closing a connection early is not a server fault; never crash on it.
        exc = sys.exc_info()[1]
        if not isinstance(exc, ConnectionError | TimeoutError):
            super().handle_error(request, client_address)


def make_server(root: Path = SITE, port: int = 8000, *, verbose: bool = False,
                isolation: bool = True, request_timeout: float = 10.0,
                max_connections: int = 64) -> SiteServer:
    """A server for ``root`` on 127.0.0.1 (never another interface); port 0 picks a free
    port (see ``server.server_address``).

    ``isolation=False`` serves as a plain static host would: no COOP/COEP/CORP and no
    Cache-Control header. ``request_timeout`` is the deadline (seconds) of each request,
    from the wait for its first byte to the last byte of its answer: a connection still on
    it then is dropped. ``max_connections`` bounds the connections (threads) served at once.
    """
    if not request_timeout > 0 or not math.isfinite(request_timeout):
        raise ValueError(f"request_timeout must be > 0, got {request_timeout!r}")
    if not isinstance(max_connections, int) or max_connections < 1:
        raise ValueError(f"max_connections must be an integer >= 1, got {max_connections!r}")
    handler = functools.partial(SiteHandler, directory=str(root))
    server = SiteServer(("127.0.0.1", port), handler, max_connections=max_connections)
    server.verbose = verbose
    server.isolation = isolation
    server.request_timeout = request_timeout
    return server


def start_in_thread(server: SiteServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    return thread

