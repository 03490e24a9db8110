"""The gridforge command: version, help, and errors as one clear line."""

from __future__ import annotations

import subprocess
import sys

import pytest
from gridforge import __version__, cli


def test_version_flag_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"gridforge {__version__}"


def test_no_command_prints_help(capsys):
    assert cli.main([]) == 0
    assert "usage: gridforge" in capsys.readouterr().out


@pytest.mark.cpython_only
def test_python_dash_m_runs_the_same_command():
    result = subprocess.run([sys.executable, "-m", "gridforge", "--version"],
                            capture_output=True, text=True, check=True)
    assert result.stdout.strip() == f"gridforge {__version__}"
