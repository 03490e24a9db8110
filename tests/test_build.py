"""build.py: failing set-up steps name themselves and their cause; the server's contract
(only files inside the site, no listings, malformed paths refused, idle clients dropped);
the level blocks laid out beside the wheel."""

from __future__ import annotations

import ast
import hashlib
import json
import select
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from gridforge.snakes.game.mainline import LEVELS

from buildsys import cli, website
from buildsys.levels import lay_out_levels, mainline_size
from buildsys.offline import write_offline_manifest
from buildsys.paths import LEVEL_DATA, venv_python
from buildsys.server import make_server, start_in_thread
from buildsys.steps import StepFailed, node_summary, run_step

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.cpython_only  # runs processes and a server


def test_failed_step_names_the_step_and_the_cause():
    with pytest.raises(StepFailed) as info:
        run_step("pip install the project", [sys.executable, "-c",
                 "import sys; print('No matching distribution found for nothing==9');"
                 " sys.exit(3)"])
    message = str(info.value)
    assert "step 'pip install the project' failed with exit code 3" in message
    assert "No matching distribution found for nothing==9" in message


def test_missing_command_names_the_step():
    with pytest.raises(StepFailed, match="step 'npm ci' failed: command not found"):
        run_step("npm ci", ["surely-no-such-command-gridforge", "ci"])


def test_main_turns_a_failed_step_into_exit_code_1(monkeypatch, capsys):
    def broken() -> None:
        raise StepFailed("step 'npm ci' failed with exit code 1; its last output:\nE404")

    monkeypatch.setattr(cli, "build_all", broken)
    assert cli.main(["build"]) == 1
    assert "step 'npm ci' failed" in capsys.readouterr().err


def test_server_answers_404_for_a_missing_file_and_keeps_serving(tmp_path: Path):
    (tmp_path / "index.html").write_text("<p>hi</p>")
    (tmp_path / "x.wasm").write_bytes(b"\0asm")
    server = make_server(tmp_path, port=0)
    thread = start_in_thread(server)
    host, port = server.server_address[:2]
    try:
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(f"http://{host}:{port}/missing.js", timeout=5)
        assert info.value.code == 404
        with urllib.request.urlopen(f"http://{host}:{port}/x.wasm", timeout=5) as response:
            assert response.headers["Content-Type"] == "application/wasm"
            assert response.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
        with urllib.request.urlopen(f"http://{host}:{port}/", timeout=5) as response:
            assert b"hi" in response.read()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert not thread.is_alive()
    assert threading.active_count() >= 1


# ---------------------------------------------------------------------------- the server

@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, int, Path]]:
    """A small site beside a folder outside it, served with a 1 s request timeout."""
    site = tmp_path / "site"
    outside = tmp_path / "outside"
    (site / "bare").mkdir(parents=True)
    (site / "bare" / "secret-name.js").write_text("//")
    (site / "game").mkdir()
    (site / "game" / "index.html").write_text("<p>game</p>")
    (site / "index.html").write_text("<p>home</p>")
    (site / "x.wasm").write_bytes(b"\0asm")
    outside.mkdir()
    (outside / "secret.txt").write_text("not for the web")
    (site / "leak.txt").symlink_to(outside / "secret.txt")
    (site / "leakdir").symlink_to(outside, target_is_directory=True)
    (site / "alias.wasm").symlink_to(site / "x.wasm")  # a link that stays inside is fine
    server = make_server(site, port=0, request_timeout=1.0)
    thread = start_in_thread(server)
    host, port = server.server_address[:2]
    try:
        yield host, port, site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def raw_get(host: str, port: int, target: str, method: str = "GET") -> tuple[int, bytes]:
    """Send one request line exactly as given (no client-side normalisation); the status
    and the body."""
    with socket.create_connection((host, port), timeout=10) as conn:
        conn.sendall(f"{method} {target} HTTP/1.0\r\nHost: x\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_server_is_bound_to_the_loopback_address_only(served):
    host, _port, _site = served
    assert host == "127.0.0.1"


def test_a_folder_answers_its_index_or_404_never_a_listing(served):
    host, port, _site = served
    for target in ("/bare/", "/bare"):
        status, body = raw_get(host, port, target)
        assert status == 404
        assert b"secret-name" not in body
    assert raw_get(host, port, "/game/") == (200, b"<p>game</p>")
    assert raw_get(host, port, "/game")[0] == 301
    assert raw_get(host, port, "/") == (200, b"<p>home</p>")


def test_a_symlink_out_of_the_site_is_refused(served):
    host, port, _site = served
    for target in ("/leak.txt", "/leakdir/secret.txt", "/leakdir/"):
        status, body = raw_get(host, port, target)
        assert status == 403, target
        assert b"not for the web" not in body
    assert raw_get(host, port, "/alias.wasm") == (200, b"\0asm")


@pytest.mark.parametrize("target", [
    "/index.html%00.js",        # NUL
    "/index.html%0a",           # control character
    "/%zz",                     # bad percent-encoding
    "/index.html%",             # truncated percent-encoding
    "/%ff%fe",                  # not UTF-8
    "/../outside/secret.txt",   # dot segments
    "/game/%2e%2e/%2e%2e/outside/secret.txt",
    "/game/./index.html",
    "/game%5c..%5cindex.html",  # backslash
    "index.html",               # not an absolute path
])
def test_malformed_paths_are_answered_400_without_a_traceback(served, target, capfd):
    host, port, _site = served
    status, body = raw_get(host, port, target)
    assert status == 400
    assert b"Traceback" not in body
    assert raw_get(host, port, "/x.wasm") == (200, b"\0asm")  # and the server lives
    assert "Traceback" not in capfd.readouterr().err


def test_a_half_sent_request_is_dropped_after_the_timeout(served, capfd):
    host, port, _site = served
    stalled = []
    for _ in range(20):
        conn = socket.create_connection((host, port), timeout=10)
        conn.sendall(b"GET /index.html HTTP/1.1\r\nHost: x\r\n")  # no blank line: unfinished
        stalled.append(conn)
    try:
        # The stalled clients hold no one up...
        assert raw_get(host, port, "/index.html") == (200, b"<p>home</p>")
        # ...and each is dropped: the server closes (recv returns b"") long before the
        # client's own 10 s timeout would raise.
        for conn in stalled:
            assert conn.recv(1024) == b""
    finally:
        for conn in stalled:
            conn.close()
    assert "Traceback" not in capfd.readouterr().err


def test_a_path_that_goes_on_past_a_file_is_404(served):
    host, port, _site = served
    for target in ("/index.html/", "/x.wasm/", "/alias.wasm/", "/index.html%2F",
                   "/game/index.html/", "/index.html/more"):
        assert raw_get(host, port, target)[0] == 404, target
    assert raw_get(host, port, "/game/") == (200, b"<p>game</p>")
    assert raw_get(host, port, "/index.html") == (200, b"<p>home</p>")


def trickle(host: str, port: int, every: float, give_up: float) -> dict[str, float | bool]:
    """A client that sends a request one header line every ``every`` seconds and never ends
    it; how long the server let it stay (``closed``: whether the server closed it before the
    client gave up after ``give_up`` seconds)."""
    started = time.monotonic()
    conn = socket.create_connection((host, port), timeout=give_up)
    try:
        conn.sendall(b"GET /index.html HTTP/1.1\r\nHost: x\r\n")
        line = 0
        while time.monotonic() - started < give_up:
            readable, _, _ = select.select([conn], [], [], every)
            if readable:
                try:
                    data = conn.recv(1024)
                except OSError:  # reset: closed as well
                    data = b""
                if not data:
                    return {"closed": True, "after": time.monotonic() - started}
                continue
            try:
                conn.sendall(b"X-Slow-%d: y\r\n" % line)
            except OSError:  # the server closed it while we slept
                return {"closed": True, "after": time.monotonic() - started}
            line += 1
        return {"closed": False, "after": time.monotonic() - started}
    finally:
        conn.close()


def test_slow_trickle_connections_are_closed_at_the_request_deadline(tmp_path: Path, capfd):
    # Each client sends a header line every 0.3 s, well within any per-read timeout: only a
    # deadline per request ends them. All ten are closed by the server (a client gives up
    # only after 30 s, fifteen deadlines), never before the deadline, while a normal request
    # is still answered. (How soon after the deadline depends on the machine's load: the
    # server checks it at each read, every 0.3 s here; no bound on durations is asserted.)
    (tmp_path / "index.html").write_text("<p>hi</p>")
    deadline = 2.0
    server = make_server(tmp_path, port=0, request_timeout=deadline)
    thread = start_in_thread(server)
    host, port = server.server_address[:2]
    results: list[dict[str, float | bool]] = []
    clients = [threading.Thread(target=lambda: results.append(trickle(host, port, 0.3, 30)))
               for _ in range(10)]
    try:
        for client in clients:
            client.start()
        assert raw_get(host, port, "/index.html") == (200, b"<p>hi</p>")
        for client in clients:
            client.join(timeout=60)
        assert len(results) == 10
        assert all(r["closed"] for r in results), results
        assert min(float(r["after"]) for r in results) >= deadline, results
        assert raw_get(host, port, "/index.html") == (200, b"<p>hi</p>")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert "Traceback" not in capfd.readouterr().err


def test_connections_beyond_the_bound_are_answered_503_without_a_thread(tmp_path: Path):
    (tmp_path / "index.html").write_text("<p>hi</p>")
    server = make_server(tmp_path, port=0, request_timeout=30.0, max_connections=3)
    thread = start_in_thread(server)
    host, port = server.server_address[:2]
    stalled = []
    try:
        stalled = _stall(host, port, 3)
        # The server accepts in order: the three stalled clients hold every slot, so the
        # fourth gets an answer at once and is closed (it sends nothing, so that the answer
        # is not lost to a reset).
        with socket.create_connection((host, port), timeout=10) as extra:
            data = b""
            while chunk := extra.recv(1024):
                data += chunk
        assert data.startswith(b"HTTP/1.0 503 ")
        assert sum("process_request" in t.name for t in threading.enumerate()) == 3
        for conn in stalled:
            conn.close()
        # The slots come back as the stalled connections end: a request is served again.
        for _ in range(100):
            status, body = raw_get(host, port, "/index.html")
            if status == 200:
                break
            time.sleep(0.1)
        assert (status, body) == (200, b"<p>hi</p>")
    finally:
        for conn in stalled:
            conn.close()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.mark.parametrize("bound", [0, -1, 1.5])
def test_a_connection_bound_that_is_not_a_positive_integer_is_refused(bound):
    with pytest.raises(ValueError, match="max_connections"):
        make_server(Path("."), port=0, max_connections=bound)


def test_plain_host_mode_sends_no_isolation_headers(tmp_path: Path):
    (tmp_path / "index.html").write_text("<p>hi</p>")
    server = make_server(tmp_path, port=0, isolation=False)
    thread = start_in_thread(server)
    host, port = server.server_address[:2]
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/", timeout=5) as response:
            assert response.read() == b"<p>hi</p>"
            for header in ("Cross-Origin-Opener-Policy", "Cross-Origin-Embedder-Policy",
                           "Cross-Origin-Resource-Policy", "Cache-Control"):
                assert header not in response.headers
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf")])
def test_a_request_timeout_that_is_not_positive_is_refused(timeout):
    with pytest.raises(ValueError, match="request_timeout"):
        make_server(Path("."), port=0, request_timeout=timeout)


@pytest.mark.parametrize(("argv", "flag"), [
    (["serve", "--port", "0"], "--port"),
    (["serve", "--port", "http"], "--port"),
    (["test", "--only", "lint"], "--only"),
])
def test_bad_flags_are_refused_naming_the_flag(argv, flag, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    assert flag in capsys.readouterr().err


# ---------------------------------------------------------------------------- site layout

def write_block(folder: Path, first: int, last: int, count: int | None = None) -> Path:
    path = folder / f"main-{first:04d}-{last:04d}.json"
    levels = [{"n": n} for n in range((last - first + 1) if count is None else count)]
    path.write_text(json.dumps({"format": "gridforge.snakes.batch/1", "levels": levels}))
    return path


def test_level_blocks_are_laid_out_with_an_index_of_files_ranges_and_hashes(tmp_path: Path):
    source, dest = tmp_path / "data", tmp_path / "site" / "levels"
    source.mkdir()
    second = write_block(source, 26, 50)
    first = write_block(source, 1, 25)
    (source / "progress.json").write_text('{"done": 50}')
    (source / "samples.json").write_text("{}")  # not a block: stays out
    lay_out_levels(source, dest, 60)
    index = json.loads((dest / "index.json").read_text())
    assert index["format"] == "gridforge.levels-index/1"
    assert index["levels"] == 60
    assert [(b["file"], b["first"], b["last"]) for b in index["blocks"]] == [
        (first.name, 1, 25), (second.name, 26, 50)]
    for block in index["blocks"]:
        data = (dest / block["file"]).read_bytes()
        assert block["sha256"] == hashlib.sha256(data).hexdigest()
        assert block["bytes"] == len(data)
    assert index["progress"]["file"] == "progress.json"
    assert (dest / "progress.json").read_text() == '{"done": 50}'
    assert not (dest / "samples.json").exists()


def test_the_shipped_level_blocks_are_valid(tmp_path: Path):
    blocks = lay_out_levels(LEVEL_DATA, tmp_path, LEVELS)
    assert blocks and blocks[0]["first"] == 1
    assert json.loads((tmp_path / "index.json").read_text())["levels"] == LEVELS


@pytest.mark.requires(venv_python().exists(), "the build's own Python (.venv)")
def test_the_index_names_the_main_lines_size_as_python_defines_it():
    assert mainline_size() == LEVELS


@pytest.mark.parametrize(("make", "message"), [
    (lambda d: (d / "main-1-25.json").write_text("{}"), "main-1-25.json: not a block name"),
    (lambda d: write_block(d, 1, 25, count=3),
     "main-0001-0025.json: levels: expected 25 levels, got 3"),
    (lambda d: (write_block(d, 1, 25), write_block(d, 20, 30)),
     "main-0020-0030.json: overlaps main-0001-0025.json"),
    (lambda d: (d / "main-0001-0025.json").write_bytes(b'{"format": '), "not JSON"),
    (lambda d: (d / "main-0001-0025.json").write_bytes(b'{"format": "\xff"}'), "not JSON"),
    (lambda d: (d / "main-0001-0025.json").write_text('{"format": "x"}'), "format: expected"),
    (lambda d: (d / "main-0003-0002.json").write_text("{}"), "levels 3..2"),
    (lambda d: write_block(d, 51, 75), "main-0051-0075.json: levels past the main line's last, 60"),
])
def test_a_broken_level_block_fails_the_build_naming_the_file(tmp_path: Path, make, message):
    source = tmp_path / "data"
    source.mkdir()
    make(source)
    with pytest.raises(StepFailed, match="lay out the level blocks") as info:
        lay_out_levels(source, tmp_path / "out", 60)
    assert message in str(info.value)


def offline_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "pyodide").mkdir(parents=True)
    (site / "index.html").write_text("<p>hi</p>")
    (site / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (site / "sw.js").write_text((ROOT / "web" / "sw.js").read_text())
    return site


def built_info(site: Path) -> dict:
    source = (site / "sw.js").read_text()
    line = next(line for line in source.splitlines() if line.startswith("const BUILD = "))
    return json.loads(line.removeprefix("const BUILD = ").removesuffix(";"))


def test_the_service_worker_gets_every_file_with_its_hash_and_a_build_version(tmp_path):
    site = offline_site(tmp_path)
    version = write_offline_manifest(site)
    info = built_info(site)
    assert info == json.loads((site / "sw-manifest.json").read_text())
    assert info["version"] == version
    assert [f["path"] for f in info["files"]] == ["index.html", "pyodide/pyodide.asm.wasm"]
    assert info["files"][1]["sha256"] == hashlib.sha256(b"\0asm").hexdigest()


def test_the_build_version_changes_with_any_file_and_only_then(tmp_path: Path):
    first = write_offline_manifest(offline_site(tmp_path / "a"))
    assert write_offline_manifest(offline_site(tmp_path / "b")) == first
    site = offline_site(tmp_path / "c")
    (site / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm\1")
    assert write_offline_manifest(site) != first


def test_a_service_worker_without_its_placeholder_fails_the_build(tmp_path: Path):
    site = offline_site(tmp_path)
    (site / "sw.js").write_text("// no placeholder")
    with pytest.raises(StepFailed, match=r"web/sw\.js must hold the line"):
        write_offline_manifest(site)


@pytest.mark.slow  # one Pyodide start under Node.js
@pytest.mark.requires((ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists(),
                      "node_modules/pyodide is missing: run `python3 build.py build`")
def test_precompile_adds_bytecode_that_pyodide_takes_and_keeps_the_rest(tmp_path: Path):
    import zipfile

    source = tmp_path / "in.zip"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("pkg/__init__.py", "VALUE = 6 * 7\n")
        archive.writestr("pkg/old.py", "print 'python 2'\n")
        archive.writestr("pkg/data.json", "{}")
    target = tmp_path / "out.zip"
    summary = node_summary("precompile", [ROOT / "tools" / "precompile.mjs",
                                          source, target])
    assert summary["modules"] == 2 and summary["compiled"] == 1
    with zipfile.ZipFile(target) as archive:
        names = set(archive.namelist())
        pyc = archive.read("pkg/__init__.pyc")
    assert names == {"pkg/__init__.py", "pkg/__init__.pyc", "pkg/old.py", "pkg/data.json"}
    # An unchecked hash-based pyc (PEP 552: magic, flags 0b01, source hash, code).
    assert pyc[2:4] == b"\r\n" and int.from_bytes(pyc[4:8], "little") == 0b01
    assert len(pyc) > 16
    # The site's wheel: bytecode in place of every source that compiles, the rest kept.
    alone = tmp_path / "alone.zip"
    summary = node_summary("precompile", [ROOT / "tools" / "precompile.mjs",
                                          source, alone, "--bytecode-only"])
    assert summary["modules"] == 2 and summary["compiled"] == 1
    with zipfile.ZipFile(alone) as archive:
        assert set(archive.namelist()) == {"pkg/__init__.pyc", "pkg/old.py", "pkg/data.json"}
        assert archive.read("pkg/__init__.pyc") == pyc


def test_the_snapshot_lists_every_stdlib_module_the_code_imports_and_nothing_else(tmp_path):
    import zipfile

    wheel = tmp_path / "w.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("pkg/a.py", "from __future__ import annotations\nimport json\n"
                                     "from typing import Any\nfrom importlib import resources\n"
                                     "from . import b\nimport pkg.b\n")
        archive.writestr("pkg/b.py", "def later():\n    import heapq\n    return heapq\n")
        archive.writestr("pkg/data.json", "import os")
    assert website.stdlib_imports(wheel) == ["heapq", "importlib", "importlib.resources",
                                             "json", "typing"]


def test_the_site_wheel_leaves_the_main_line_to_the_level_blocks(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(website, "BUILD", tmp_path / "build")
    wheel = tmp_path / "gridforge-0.1.0-py3-none-any.whl"
    kept = ["gridforge/__init__.py", "gridforge/snakes/data/samples.json",
            "gridforge/snakes/data/main-notes.json", "gridforge/mines/data/run.json"]
    dropped = ["gridforge/snakes/data/main-0001-0025.json", "gridforge/snakes/data/progress.json"]
    record = "".join(f"{name},sha256=x,1\n" for name in kept + dropped)
    with zipfile.ZipFile(wheel, "w") as archive:
        for name in kept + dropped:
            archive.writestr(zipfile.ZipInfo(name, (2020, 2, 2, 0, 0, 0)), "{}")
        archive.writestr("gridforge-0.1.0.dist-info/RECORD", record)
    site = website.without_mainline(wheel)
    first = site.read_bytes()
    with zipfile.ZipFile(site) as archive:
        names = archive.namelist()
        assert names == [*kept, "gridforge-0.1.0.dist-info/RECORD"]
        assert archive.read("gridforge-0.1.0.dist-info/RECORD").decode().splitlines() == [
            f"{name},sha256=x,1" for name in kept]
        assert all(i.date_time == (2020, 2, 2, 0, 0, 0) for i in archive.infolist()[:4])
    assert website.without_mainline(wheel).read_bytes() == first  # the same bytes again


def test_the_build_parts_import_only_the_standard_library_and_each_other():
    # build.py runs on a fresh machine's bare Python, before .venv exists.
    for path in [ROOT / "build.py", *sorted((ROOT / "buildsys").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                assert top in sys.stdlib_module_names or top in ("buildsys", "__future__"), (
                    f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")


def test_no_test_or_benchmark_edits_sys_path():
    # They import the build's package, each other's helpers and gridforge as installed
    # packages (the editable install puts the root on sys.path), never by editing the path.
    edits = []
    for folder in ("tests", "e2e", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                target = node.func.value if (isinstance(node, ast.Call) and isinstance(
                    node.func, ast.Attribute)) else node.value if isinstance(
                    node, ast.Subscript) else None
                if (isinstance(target, ast.Attribute) and target.attr == "path"
                        and isinstance(target.value, ast.Name) and target.value.id == "sys"):
                    edits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert edits == []


def _stall(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` connections that each send a request's first lines and never finish it."""
    stalled = []
    for _ in range(count):
        conn = socket.create_connection((host, port), timeout=10)
        conn.sendall(b"GET /index.html HTTP/1.1\r\nHost: x\r\n")  # never finished
        stalled.append(conn)
    return stalled


def _answers(host: str, port: int, count: int) -> list[bytes]:
    """``count`` clients connecting at once, each sending a request at once: the first
    bytes each got back within 10 s (b"" for none)."""
    start = threading.Barrier(count)
    got: list[bytes] = [b""] * count

    def client(i: int) -> None:
        start.wait()
        try:
            with socket.create_connection((host, port), timeout=10) as conn:
                conn.sendall(b"GET /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                got[i] = conn.recv(64)
        except OSError:
            got[i] = b""  # no answer at all: the caller's assertion counts it

    threads = [threading.Thread(target=client, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return got


def test_three_hundred_connections_at_once_are_each_answered(tmp_path: Path):
    # issue 54: socketserver's listen queue of 5 left 147 of 300 without any answer
    (tmp_path / "index.html").write_text("<p>hi</p>")
    server = make_server(tmp_path, port=0, request_timeout=30.0, max_connections=4)
    thread = start_in_thread(server)
    host, port = server.server_address[:2]
    stalled = []
    try:
        answers = _answers(host, port, 300)
        assert all(a.startswith((b"HTTP/1.0 200 ", b"HTTP/1.0 503 ")) for a in answers), \
            sum(not a for a in answers)
        # Every slot held (the server accepts in order, so these four come first): each of
        # 300 more is answered 503.
        stalled = _stall(host, port, 4)
        answers = _answers(host, port, 300)
        assert all(a.startswith(b"HTTP/1.0 503 ") for a in answers), \
            sorted({a[:12] for a in answers})
    finally:
        for conn in stalled:
            conn.close()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
