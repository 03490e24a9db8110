"""Every file a command writes (each ``--out``) and the designer reads back: whole or not at
all, durable once written, and never through a name someone else planted in the folder.

Writing (:func:`write_text`, :func:`write_json`): the bytes go to an unnamed file in the
target's folder (Linux ``O_TMPFILE``; a process killed mid-write leaves nothing), linked once
whole as a fresh temporary name, or else straight to a fresh temporary name in the
target's folder (``.<name>.<16 random hex digits>.tmp``), created with ``O_EXCL`` and
``O_NOFOLLOW`` (never an existing file, never through a symbolic link), are fsync'ed, and the
file is renamed over the target (a rename replaces the folder entry itself: a symbolic link
there is replaced, not followed); then the folder is fsync'ed so that the rename survives a
crash. On any failure (a full disk, an interrupt) the temporary file is removed and a
:class:`WriteError` names the target: a reader (or a resumed main-line build) never meets half
a file, and nothing is left behind.

Reading back (:func:`read_regular`): only a regular file is read, opened with ``O_NOFOLLOW``
(a symbolic link, a folder, a pipe or a device is refused before a byte is read), within a
size cap.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import Any

from gridforge.errors import GridforgeError, file_kind

__all__ = ["FileRefused", "WriteError", "dumps", "read_regular", "write_json", "write_text"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0) | _NOFOLLOW
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FLAGS
_TMPFILE = getattr(os, "O_TMPFILE", 0)
# Errors of an O_TMPFILE open that mean "not here" (the file system or kernel has none).
_NO_TMPFILE = {errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT}
# Errors of linking /proc/self/fd/N that mean "not here" (no such links on this system).
_NO_LINK = {errno.EXDEV, errno.ENOENT, errno.EPERM, errno.EOPNOTSUPP}
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _FLAGS  # a pipe does not block the open


class WriteError(GridforgeError):
    """A file could not be written; the message names it (its temporary file is removed)."""

    def __init__(self, path: str | os.PathLike[str], error: OSError) -> None:
        super().__init__(f"cannot write {os.fspath(path)}: {error.strerror or error}")
        self.path = os.fspath(path)


class FileRefused(GridforgeError):
    """A file is not read back: ``reason`` says why ("is missing", "is a symbolic link (not
    followed)", ...); the message is the path and the reason."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"{os.fspath(path)} {reason}")
        self.path = os.fspath(path)
        self.reason = reason


def dumps(data: Any, indent: int | None = 2) -> str:
    """The JSON text the designer writes (key order kept, NaN refused, one final newline)."""
    return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically and durably: the bytes go to a file
    without a name in the target's folder (Linux ``O_TMPFILE``: a process killed while
    writing leaves nothing behind), fsync'ed, then given a fresh temporary name and renamed
    over the target; where the system has no unnamed files, a fresh named temporary file
    (``O_EXCL``, no symbolic link followed) is written instead.

    :raises WriteError: naming ``path`` when the folder or the file cannot be written; the
        old file is then as it was and no temporary file stays behind.
    """
    out = Path(path)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: no UTF-8 for it
        raise WriteError(out, OSError(errno.EILSEQ, f"the text holds {exc.reason} "
                                      f"at character {exc.start}")) from None
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(out, exc) from None
    try:
        mode = os.stat(out).st_mode  # through a link: what a reader of the name would meet
    except (OSError, ValueError):
        mode = None  # nothing there (or a dangling link): the new file takes the name
    if mode is not None and not stat.S_ISREG(mode):
        # A folder, a pipe, a device (/dev/stdout): never replaced by a file (as root that
        # would replace the system's own entry), and no stream is a whole-or-nothing file.
        raise WriteError(out, OSError(errno.EINVAL, f"{file_kind(mode)}, not a regular file "
                                      "(nothing written)"))
    # Unpredictable and fresh: a name planted beforehand (a symbolic link out of the folder)
    # is never opened, and O_EXCL (or link) refuses one planted in between.
    tmp = out.with_name(f".{out.name[:64]}.{secrets.token_hex(8)}.tmp")
    if not _write_unnamed(out, tmp, data):
        _write_named(out, tmp, data)
    _sync_folder(out.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # pragma: no cover - a regular file raises instead
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]
    os.fsync(fd)


def _write_unnamed(out: Path, tmp: Path, data: bytes) -> bool:
    """Write ``data`` through an unnamed file linked as ``tmp``, then renamed over ``out``;
    False (nothing left behind) where unnamed files or ``/proc/self/fd`` links are not
    available."""
    # Linux only (Pyodide's file system, "emscripten", names the flag without the kernel).
    if not _TMPFILE or sys.platform != "linux" or not os.path.isdir("/proc/self/fd"):
        return False
    try:
        folder = os.open(out.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    except OSError as exc:
        raise WriteError(out, exc) from None
    try:
        try:
            fd = os.open(".", _TMPFILE | os.O_WRONLY | _CLOEXEC, 0o666, dir_fd=folder)
        except OSError as exc:
            if exc.errno in _NO_TMPFILE:
                return False  # this file system has none: a named temporary file instead
            raise WriteError(out, exc) from None
        named = False
        try:
            try:
                _write_all(fd, data)
                # The file gets a name only once it is whole: a kill before leaves nothing.
                # (A destination folder makes Python call linkat, which follows the link.)
                try:
                    os.link(f"/proc/self/fd/{fd}", tmp.name, dst_dir_fd=folder,
                            follow_symlinks=True)
                except OSError as exc:
                    if exc.errno in _NO_LINK:
                        return False
                    raise
                named = True
            finally:
                os.close(fd)
            os.replace(tmp.name, out.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException as exc:
            if named:
                with contextlib.suppress(OSError):
                    os.unlink(tmp.name, dir_fd=folder)
            if isinstance(exc, OSError):
                raise WriteError(out, exc) from None
            raise
    finally:
        os.close(folder)
    return True


def _write_named(out: Path, tmp: Path, data: bytes) -> None:
    try:
        fd = os.open(tmp, _CREATE, 0o666)
    except OSError as exc:
        raise WriteError(out, exc) from None
    try:
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, out)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise WriteError(out, exc) from None
        raise


def write_json(path: str | os.PathLike[str], data: Any, indent: int | None = 2) -> None:
    """Write ``data`` as JSON with :func:`dumps`, atomically and durably (:func:`write_text`)."""
    write_text(path, dumps(data, indent))


def read_regular(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them.

    :raises FileRefused: when ``path`` is missing, a symbolic link (never followed), not a
        regular file (a folder, a pipe, a device: never read), larger than ``max_bytes``, or
        cannot be read.
    """
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        raise FileRefused(path, "is missing") from None
    except OSError as exc:
        raise FileRefused(path, f"cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISLNK(before.st_mode):
        raise FileRefused(path, "is a symbolic link (not followed)")
    if not stat.S_ISREG(before.st_mode):
        raise FileRefused(path, "is not a regular file")
    try:
        fd = os.open(path, _READ)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # replaced by a link since the lstat
            raise FileRefused(path, "is a symbolic link (not followed)") from None
        raise FileRefused(path, f"cannot be read ({exc.strerror or exc})") from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (before.st_dev,
                                                                          before.st_ino):
            raise FileRefused(path, "is not a regular file")
        if now.st_size > max_bytes:
            raise FileRefused(path, f"is larger than {max_bytes} bytes")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileRefused(path, f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if size > max_bytes:  # it grew while being read
        raise FileRefused(path, f"is larger than {max_bytes} bytes")
    return b"".join(chunks)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a platform without folder handles (Windows)
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on folders
        pass
    finally:
        os.close(fd)
