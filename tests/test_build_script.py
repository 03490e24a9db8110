"""build.py: failing set-up steps name themselves and their cause; the server's contract."""

from __future__ import annotations

import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

pytestmark = pytest.mark.cpython_only  # runs processes and a server


def test_failed_step_names_the_step_and_the_cause():
    with pytest.raises(build.StepFailed) as info:
        build.run_step("pip install the project", [sys.executable, "-c",
                       "import sys; print('No matching distribution found for nothing==9');"
                       " sys.exit(3)"])
    message = str(info.value)
    assert "step 'pip install the project' failed with exit code 3" in message
    assert "No matching distribution found for nothing==9" in message


def test_missing_command_names_the_step():
    with pytest.raises(build.StepFailed, match="step 'npm ci' failed: command not found"):
        build.run_step("npm ci", ["surely-no-such-command-gridforge", "ci"])


def test_main_turns_a_failed_step_into_exit_code_1(monkeypatch, capsys):
    def broken() -> None:
        raise build.StepFailed("step 'npm ci' failed with exit code 1; its last output:\nE404")

    monkeypatch.setattr(build, "build_all", broken)
    assert build.main(["build"]) == 1
    assert "step 'npm ci' failed" in capsys.readouterr().err


def test_server_answers_404_for_a_missing_file_and_keeps_serving(tmp_path: Path):
    (tmp_path / "index.html").write_text("<p>hi</p>")
    (tmp_path / "x.wasm").write_bytes(b"\0asm")
    server = build.make_server(tmp_path, port=0)
    thread = build.start_in_thread(server)
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
