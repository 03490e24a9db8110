"""The main line's build (spec section 8): levels designed anywhere, written in blocks.

:func:`build_mainline` designs the levels a range asks for (:func:`designed`, in this
process, a local process pool or a Dask cluster; a level's bytes are the same on any of them)
and writes one block file per block of :data:`BLOCK` levels (or the part of a block the range
asks for) as soon as its levels are in, then ``progress.json``. ``resume`` trusts nothing: the
progress file is validated whole, a block file that is missing or changed is named and
rebuilt, and nothing but the builder's own block names inside the output folder is ever
replaced or removed. Ctrl-C, a full disk or a lost worker stop the build with every finished
block kept and listed.

Imports the assembly (:mod:`~gridforge.snakes.design.line_levels`), the block file format
(:mod:`~gridforge.snakes.design.blocks`) and the band table; it is the top of the main line's
modules, and only the command line imports it.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridforge.errors import Cancelled, GridforgeError, is_int
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.design.blocks import (
    BlockFile,
    block_of,
    progress_json,
    read_block,
    read_progress,
    unlisted,
    write_block,
    write_progress,
)
from gridforge.snakes.design.board_line import BOARD_FROM, lane_levels
from gridforge.snakes.design.files import FileRefused, WriteError
from gridforge.snakes.design.line_levels import EDITIONS, design_level
from gridforge.snakes.design.line_plan import LEVELS, breather
from gridforge.snakes.design.line_report import Row, band_table
from gridforge.snakes.design.reports import BuildState
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.levelfile import LevelJson

__all__ = ["BLOCK", "build_mainline", "designed", "designed_task", "tasks"]

BLOCK = 25
PACE_WINDOW = 40  # completions the time-left estimate looks back over


@dataclass
class _BuildPlan:
    """What a build writes: per block index, the span of levels its file will hold."""

    spans: dict[int, tuple[int, int]]
    valid: dict[int, BlockFile]  # listed block files whose bytes match their SHA-256
    keep: dict[int, BlockFile]  # those of them that stay as they are
    rows: dict[int, list[Row]]  # the band report rows of the valid files
    notes: list[str]


def _build_plan(files: list[BlockFile], out: Path, first: int, last: int, block: int,
                seed: int) -> _BuildPlan:
    spans: dict[int, tuple[int, int]] = {}
    valid: dict[int, BlockFile] = {}
    rows: dict[int, list[Row]] = {}
    notes: list[str] = []
    for f in files:
        b = block_of(f.first, block)
        try:
            rows[b] = read_block(out, f, seed)[1]
        except FileRefused as exc:
            notes.append(f"{f.name} {exc.reason}: rebuilding it")
        else:
            valid[b] = f
        spans[b] = (f.first, f.last)
    keep = dict(valid)
    for b in range(block_of(first, block), block_of(last, block) + 1):
        lo = max(first, b * block + 1)
        hi = min(last, (b + 1) * block)
        if b in spans:
            # A block file holds one contiguous span: a wider request widens it (gaps filled).
            lo, hi = min(lo, spans[b][0]), max(hi, spans[b][1])
            if (lo, hi) != spans[b] and b in keep:
                del keep[b]
        spans[b] = (lo, hi)
    return _BuildPlan(spans, valid, keep, rows, notes)


def _executor(workers: int, scheduler: str | None) -> tuple[cf.Executor | None, Any]:
    """An executor for level tasks: None (this process) for one local worker, a process pool
    for several, or a Dask cluster's executor; and the Dask client to close (or None)."""
    if scheduler is not None:
        try:
            # Imported by name: Dask is an optional extra, and has no type information.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise GridforgeError("--scheduler needs Dask: pip install 'gridforge[cluster]'"
                                 ) from None
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except OSError as exc:
            raise GridforgeError(f"--scheduler: cannot reach {scheduler}: {exc}") from None
        executor: cf.Executor = client.get_executor(pure=False)
        return executor, client
    if workers <= 1:
        return None, None
    return cf.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts), None


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the builder, which stops it (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_workers(executor: cf.Executor) -> None:
    """Stop a local pool's workers now, running levels included (shutdown alone waits for
    them; Python has no public call for this before 3.14's ``terminate_workers``)."""
    # Taken before the shutdown, which forgets them (then the running levels were waited
    # for at exit: Ctrl-C took as long as the slowest level in flight).
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)


def _fmt_seconds(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds} s"


def _check_build_arguments(seed: object, levels: object, first: object, last: object,
                           workers: object, block: object) -> None:
    """:raises GridforgeError: naming the first argument of a build that is out of range."""
    if not is_int(seed) or not 0 <= seed < 2**31:
        raise GridforgeError(f"--seed: an integer in 0..2**31-1, got {seed!r}")
    if not (is_int(first) and is_int(last) and 1 <= first <= last <= LEVELS):
        raise GridforgeError(f"--levels: a range inside 1..{LEVELS}, got {levels!r}")
    if not is_int(workers) or not 1 <= workers <= 256:
        raise GridforgeError(f"--workers: an integer in 1..256, got {workers!r}")
    if not is_int(block) or not 1 <= block <= LEVELS:
        raise GridforgeError(f"block: an integer in 1..{LEVELS}, got {block!r}")


def _resumed_files(out: Path, seed: int, block: int, resume: bool) -> list[BlockFile]:
    """The block files ``out``'s progress.json lists (none without one).

    :raises GridforgeError: when it exists and ``resume`` is false, or lists another seed.
    """
    state_path = out / "progress.json"
    if not os.path.lexists(state_path):  # (a dangling symbolic link exists too)
        return []
    if not resume:
        raise GridforgeError(f"{state_path} exists: pass --resume to go on with it")
    old_seed, _block, files = read_progress(out, block)
    if old_seed != seed:
        raise GridforgeError(f"--seed: {state_path} was built with seed {old_seed}, not {seed}")
    return files


def build_mainline(out_dir: str | os.PathLike[str], seed: int = 2026,
                   levels: tuple[int, int] = (1, LEVELS), *, resume: bool = False,
                   workers: int = 1, scheduler: str | None = None,
                   progress: Progress = NO_PROGRESS, block: int = BLOCK,
                   count: int | None = None, edition: str = "chambers") -> BuildState:
    """Build main-line levels ``levels[0]..levels[1]`` into ``out_dir``: block files
    ``main-NNNN-NNNN.json`` and ``progress.json``; returns the progress data with ``notes``
    (what resume found and rebuilt), ``warnings`` (entries of ``out_dir`` that are not
    listed, and so never read) and ``built`` (levels designed by this run).

    ``workers`` local processes share the levels (one: this process); ``scheduler`` sends them
    to a Dask cluster instead. Either way a block's bytes are the same. ``count`` (the older
    keyword) means ``levels=(1, count)``. ``edition`` is the line's edition
    (:data:`~gridforge.snakes.design.line_levels.EDITIONS`); a resumed folder must be
    continued in the edition it was begun in. In "board" a task is a lane (its levels
    depend on each other, :func:`~gridforge.snakes.design.board_line.line_level`), so a
    block is written once every lane through it is in.

    :raises GridforgeError: for bad arguments; when ``out_dir`` holds a main line and
        ``resume`` is false; when ``resume`` meets one of another seed or block size.
    :raises ValidationError: when ``progress.json`` is not valid (each bad field named).
    :raises GridforgeError: when ``progress.json`` is a symbolic link or not a regular file,
        and when a file cannot be written (named; nothing half-written stays behind).
    :raises Cancelled: when ``progress`` asks to stop; finished blocks stay saved and listed.
    """
    first, last = (1, count) if count is not None else levels
    _check_build_arguments(seed, levels, first, last, workers, block)
    if edition not in EDITIONS:
        raise GridforgeError(f"--edition: one of {', '.join(EDITIONS)}, got {edition!r}")
    out = Path(out_dir)
    state_path = out / "progress.json"
    files = _resumed_files(out, seed, block, resume)
    executor, client, plan = _start(out, files, (first, last), block, seed, workers, scheduler)
    records = dict(plan.valid)  # a valid file stays listed until its replacement is written
    rows = dict(plan.rows)  # the band report rows of the listed files
    todo = {b: span for b, span in plan.spans.items() if b not in plan.keep}
    wanted = [n for b in sorted(todo) for n in range(todo[b][0], todo[b][1] + 1)]
    results: dict[int, tuple[LevelJson, Certificate]] = {}
    cpu: dict[int, float] = {}  # each level's design in CPU seconds (printed, never written)
    total = len(wanted)
    started = time.monotonic()
    running: dict[int, float] = {}

    pace: list[tuple[float, int]] = [(started, 0)]  # (when, levels done) as levels come in

    def report(label: str = "") -> None:
        done = len(results)
        now = time.monotonic()
        if done != pace[-1][1]:
            pace.append((now, done))
            del pace[:-PACE_WINDOW]
        left = ""
        if done and done < total:
            # The recent pace, not the whole run's: later levels cost more than early ones.
            (t0, d0), (t1, d1) = pace[0], pace[-1]
            per = (t1 - t0) / max(1, d1 - d0)
            left = f"; about {_fmt_seconds(per * (total - done))} left"
        slow = ""
        if running:
            n0 = min(running, key=lambda k: running[k])
            slow = f"; slowest: level {n0} ({_fmt_seconds(time.monotonic() - running[n0])})"
        progress.step(done, max(total, 1), label or f"levels{slow}{left}")

    def finish_blocks() -> None:
        for b in sorted(todo):
            lo, hi = todo[b]
            if all(n in results for n in range(lo, hi + 1)):
                old = records.get(b)
                new, new_rows = write_block(out, seed, lo, hi, results)
                write_progress(state_path, seed, block, {**records, b: new})
                records[b], rows[b] = new, new_rows
                del todo[b]
                if old is not None and old.name != records[b].name:
                    # The narrower block file this one replaces: a validated name of the
                    # builder's own pattern, so the path is inside ``out``.
                    (out / old.name).unlink(missing_ok=True)

    try:
        for note in plan.notes:
            report(note)
        _design_wanted(executor, client, tasks(wanted, seed, edition), seed, edition, workers,
                       results, cpu, running, report, finish_blocks)
    except KeyboardInterrupt:
        raise Cancelled(f"stopped by Ctrl-C with {_kept(records)}: run the same command with "
                        "--resume to go on") from None
    except WriteError as exc:  # a full disk, say: the temporary file is already removed
        raise GridforgeError(f"{exc}; {_kept(records)}: make room and run the same command "
                             "with --resume to go on") from None
    except cf.BrokenExecutor:  # (a broken process pool; the name needs no multiprocessing)
        raise GridforgeError(f"a worker process ended abruptly (killed, or out of memory) with "
                             f"{_kept(records)}: run the same command with --resume to go on"
                             ) from None
    finally:
        _shut_down(executor, client)
    report("done")
    # From what was checked or written, not read back: nothing unlisted is ever read.
    return {**progress_json(seed, block, records), "notes": plan.notes,
            "warnings": unlisted(out, {f.name for f in records.values()}), "built": total,
            "cpu_seconds": sum(cpu.values()),
            "bands": band_table({records[b].first: rows[b] for b in records}, 100)}


def tasks(wanted: list[int], seed: int, edition: str) -> list[tuple[int, ...]]:
    """The ``wanted`` levels as tasks, in the order of their first levels: one level a task,
    but in "board" the wanted levels of one lane are one task (a lane is built in order in
    one process; two processes would each build its levels before theirs)."""
    if edition != "board":
        return [(n,) for n in wanted]
    lanes: dict[int, list[int]] = {}
    for n in wanted:
        if n < BOARD_FROM or breather(n):
            lanes[n] = [n]
        else:
            lanes.setdefault(lane_levels(n, seed)[0], []).append(n)
    return [tuple(lanes[first]) for first in sorted(lanes, key=lambda f: lanes[f][0])]


def _design_wanted(executor: cf.Executor | None, client: Any, wanted: list[tuple[int, ...]],
                   seed: int, edition: str, workers: int,
                   results: dict[int, tuple[LevelJson, Certificate]],
                   cpu: dict[int, float], running: dict[int, float],
                   report: Callable[[], None], finish_blocks: Callable[[], None]) -> None:
    """Design the ``wanted`` tasks' levels into ``results`` (their CPU seconds into ``cpu``),
    in this process when ``executor`` is None, else on it; ``running`` holds the tasks in
    progress by first level with their start times, ``finish_blocks`` writes every block
    whose levels are all in."""
    if executor is None:  # a lane's levels one by one (this process keeps the lane)
        for n in (n for task in wanted for n in task):
            running.clear()
            running[n] = time.monotonic()
            report()
            level, cert, cpu[n] = designed(n, seed, edition)
            results[n] = level, cert
            running.clear()
            finish_blocks()
        return
    if client is not None:  # one task in flight per thread of the cluster
        workers = max(workers, sum(client.nthreads().values()))
    _run_pool(executor, wanted, seed, edition, workers, results, cpu, running, report,
              finish_blocks)


def _start(out: Path, files: list[BlockFile], levels: tuple[int, int], block: int, seed: int,
           workers: int, scheduler: str | None) -> tuple[cf.Executor | None, Any, _BuildPlan]:
    """Reach the workers, then make ``out`` and plan the build in it, listing the files kept
    in ``progress.json``: the executor, the Dask client and the plan. The workers come
    first, so that a build that cannot start leaves no folder behind."""
    executor, client = _executor(workers, scheduler)
    try:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteError(out, exc) from None
        plan = _build_plan(files, out, levels[0], levels[1], block, seed)
        write_progress(out / "progress.json", seed, block, dict(plan.valid))
    except BaseException:
        _shut_down(executor, client)
        raise
    return executor, client, plan


def _shut_down(executor: cf.Executor | None, client: Any) -> None:
    """Stop the workers of a build, or close its Dask client."""
    if client is not None and executor is not None:
        executor.shutdown(wait=False)  # Dask's executor cancels nothing on its own
        client.close()
    elif executor is not None:
        _stop_workers(executor)


def _kept(records: dict[int, BlockFile]) -> str:
    done = sum(f.last - f.first + 1 for f in records.values())
    return f"{done} levels kept in {len(records)} block files"


TaskLevels = list[tuple[int, LevelJson, Certificate, float]]  # designed_task's answer


def designed(n: int, seed: int, edition: str = "chambers"
             ) -> tuple[LevelJson, Certificate, float]:
    """:func:`design_level` and the CPU seconds it took in the process that ran it (what a
    build costs, whichever machines share it; the seconds go to the summary, not the files)."""
    started = time.process_time()
    level, cert = design_level(n, seed, edition)
    return level, cert, time.process_time() - started


def designed_task(task: tuple[int, ...], seed: int, edition: str) -> TaskLevels:
    """The levels of one task (:func:`tasks`), each with the CPU seconds it took."""
    return [(n, *designed(n, seed, edition)) for n in task]



def _run_pool(executor: cf.Executor, wanted: list[tuple[int, ...]], seed: int, edition: str,
              workers: int, results: dict[int, tuple[LevelJson, Certificate]],
              cpu: dict[int, float], running: dict[int, float], report: Callable[[], None],
              finish_blocks: Callable[[], None]) -> None:
    """Keep ``workers`` tasks in flight (so that 'running' means running), in level
    order, and write each block as soon as its levels are in."""
    queue = list(reversed(wanted))
    flight: dict[cf.Future[TaskLevels], int] = {}
    while queue or flight:
        while queue and len(flight) < workers:
            task = queue.pop()
            flight[executor.submit(designed_task, task, seed, edition)] = task[0]
            running[task[0]] = time.monotonic()
        done, _ = cf.wait(list(flight), timeout=1.0, return_when=cf.FIRST_COMPLETED)
        for future in sorted(done, key=lambda f: flight[f]):
            del running[flight.pop(future)]
            for n, level, cert, seconds in future.result():
                results[n], cpu[n] = (level, cert), seconds
        report()
        if done:
            finish_blocks()
