"""実行先 — where the lab's battles are played: in this process, on the local cores, or on
a Ray cluster (``BACKENDS``).

A runner (``open_runner``) is opened once per lab run: ``prepare(shared)`` makes what every
task reads (the tables, from their literals) once per worker. Then each round is a list of
tasks and a module-level ``work(context, task)`` that plays one. Results come back in the
order of the tasks, whatever order the workers finish in, so the number of workers and the
backend never change a figure; ``on_done(index, result)`` hears of each as it finishes (for
a progress bar only).

Ray is imported only when its backend is opened; a backend that cannot be opened (Ray not
installed, a cluster that does not answer) raises ``BackendError``, one line for the user.

A worker lost on the way (killed, out of memory) costs nothing the first time: its tasks are
played again on a fresh worker, and since a result depends on the task's seeds alone the
report does not change. A second loss (``RETRIES``) ends the run with ``WorkerLost``, one line
and no partial report. Workers also end with the process that started them: a lab whose main
process is killed leaves no worker behind."""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Callable

from contract.disk import reason

Prepare = Callable[[object], object]
Work = Callable[[object, object], object]
OnDone = Callable[[int, object], None]


class BackendError(RuntimeError):
    """A 実行先 that cannot be opened (Ray not installed, a cluster not reachable): the
    message is one line meant for the user, in Japanese."""


class WorkerLost(BackendError):
    """A worker process ended while it held tasks (killed, out of memory, a crash), once
    more than RETRIES allows: the run stops without a report."""

    def __init__(self, losses: int):
        super().__init__(f"作業プロセスが {losses} 回失われたので中止しました"
                         f"（強制終了やメモリ不足。1 回目はやり直しました）。報告は作っていません")


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Runner:
    """A backend opened for a lab run: ``prepare(shared)`` done once per worker, then any
    number of ``run(work, tasks, on_done)`` on the same workers; ``close()`` ends them."""

    def run(self, work: Work, tasks: list, on_done: OnDone | None = None) -> list:
        """Every task's result, in task order."""
        raise NotImplementedError

    def run_counted(self, work: Work, tasks: list, tell: Callable[[int], None] | None, *,
                    done: int = 0, size: Callable[[object], int] = lambda result: 1) -> list:
        """Every task's result in task order, as ``run``; ``tell(units)`` hears the units of
        work done so far (for a progress bar): ``done`` before the first task starts, then
        ``size(result)`` more as each task finishes (a game each, or the battles a task
        played). Both labs count their progress here."""
        if tell is None:
            return self.run(work, tasks)
        finished = [done]

        def on_done(index: int, result) -> None:
            finished[0] += size(result)
            tell(finished[0])

        tell(done)
        return self.run(work, tasks, on_done)

    def close(self) -> None:
        """Stop the workers."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_runner(prepare: Prepare, shared, *, workers: int = 1, backend: str = "local",
                address: str | None = None) -> Runner:
    """The runner of ``backend`` (BACKENDS) with ``workers`` workers."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}")
    return BACKENDS[backend](prepare, shared, workers, address)


class InProcess(Runner):
    """This process only: no pool, no pickling."""

    def __init__(self, prepare: Prepare, shared):
        self.context = prepare(shared)

    def run(self, work, tasks, on_done=None):
        """Every task's result, played here one after another."""
        results = []
        for index, task in enumerate(tasks):
            results.append(work(self.context, task))
            if on_done:
                on_done(index, results[-1])
        return results


# ----------------------------------------------------------- local processes

#: Worker losses a runner survives: the lost worker's tasks are played once more on fresh
#: workers; the loss after that is ``WorkerLost``.
RETRIES = 1
#: Seconds between a worker's looks at its parent: how long a worker may outlive a killed
#: main process.
PARENT_POLL = 0.5

_context = None


def _initialise(prepare: Prepare, shared, parent: int) -> None:
    import signal

    # A Ctrl-C is the main process's to answer (it stops the pool): a worker ignores it,
    # from its fork on (_held_interrupt), rather than dying with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _follow_parent(parent)
    global _context
    _context = prepare(shared)


def _follow_parent(parent: int) -> None:
    """End this worker as soon as ``parent`` (the pid of the process that opened the pool)
    is no longer its parent: a kill -9 of the main process runs none of its clean-up, and
    an idle worker would wait on the task queue for good.

    A thread polling ``os.getppid()`` rather than prctl(PR_SET_PDEATHSIG): that is Linux
    only (through ctypes) and fires when the *thread* that forked the worker ends — and the
    pool may start workers from its own manager thread. Polling works on every POSIX
    system, for a worker busy in a task as for an idle one; a pipe's EOF would not do with
    fork, where every sibling worker holds the pipe's other end too. The pid of the opener
    is passed in, not read here, so a parent already gone before this runs is seen too."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="jibunki-parent-watch", daemon=True).start()


def _play(work: Work, task):
    return work(_context, task)


class LocalPool(Runner):
    """The local cores: a process pool that lives for the whole lab run (a fresh one, once,
    when a worker is lost: RETRIES)."""

    def __init__(self, prepare: Prepare, shared, workers: int):
        self.opening = (prepare, shared, workers)
        self.losses = 0
        self.pool = self._open()

    def _open(self):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        prepare, shared, workers = self.opening
        # fork: the workers start with the modules loaded (no re-import per worker); the
        # shared data still goes through the initializer, as under spawn.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        return ProcessPoolExecutor(workers, mp_context=context, initializer=_initialise,
                                   initargs=(prepare, shared, os.getpid()))

    def run(self, work, tasks, on_done=None):
        """Every task's result, in task order, played on the pool's processes; the tasks of
        a lost worker are played again (RETRIES)."""
        from concurrent.futures.process import BrokenProcessPool

        results: dict[int, object] = {}
        while True:
            try:
                self._play_all(work, tasks, results, on_done)
                return [results[index] for index in range(len(tasks))]
            except BrokenProcessPool:
                # The pool cannot tell which worker held which task: every task without a
                # result yet is played again, on a fresh pool.
                self._replace()

    def _play_all(self, work, tasks, results: dict, on_done) -> None:
        from concurrent.futures import as_completed

        try:
            with _held_interrupt():  # the pool forks its workers in the first submit
                futures = {self.pool.submit(_play, work, task): index
                           for index, task in enumerate(tasks) if index not in results}
            for future in as_completed(futures):
                index = futures[future]
                results[index] = future.result()
                if on_done:
                    on_done(index, results[index])
        except KeyboardInterrupt:
            self._stop_now()
            raise

    def _stop_now(self) -> None:
        """End the workers at once (a Ctrl-C): the pool's own shutdown would wait for the
        tasks under way, and a pool interrupted while it started waits for good."""
        # _processes: the executor's own table of its workers (pid → process); a pool
        # stopped before it forked has none.
        for process in list((getattr(self.pool, "_processes", None) or {}).values()):
            process.terminate()
        self.pool.shutdown(wait=True, cancel_futures=True)  # quick: its workers are gone

    def _replace(self) -> None:
        """A fresh pool for a broken one, or WorkerLost when no retry is left."""
        self.pool.shutdown(cancel_futures=True)
        self.losses += 1
        if self.losses > RETRIES:
            raise WorkerLost(self.losses)
        self.pool = self._open()

    def close(self) -> None:
        """Stop the pool's processes (tasks not yet started are dropped)."""
        self.pool.shutdown(cancel_futures=True)


@contextmanager
def _held_interrupt():
    """A Ctrl-C held back until the block ends, then raised: while the pool forks its
    workers, a KeyboardInterrupt would land inside a fork's bookkeeping (where Python drops
    it, and the run went on to exit 0) or leave the pool half started (whose workers the
    exit then waited for, for good). The workers are forked with this handler and replace
    it with SIG_IGN (_initialise). Outside the main thread nothing is changed: a signal
    handler can only be set there."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is None:  # a handler Python did not set
        yield
        return
    held: list = []
    before = signal.signal(signal.SIGINT, lambda number, frame: held.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if held:
        raise KeyboardInterrupt


def _local(prepare, shared, workers, address) -> Runner:
    if address is not None:
        raise ValueError("--address は ray の実行先だけのものです")
    return InProcess(prepare, shared) if workers <= 1 else LocalPool(prepare, shared, workers)


# ----------------------------------------------------------- a Ray cluster


#: Seconds to wait for a cluster's address to answer before saying it cannot be reached:
#: ray.init itself retries an address that refuses for many minutes.
CONNECT_TIMEOUT = 5.0
#: Tasks queued on each actor: the next is already there when one finishes, so an actor
#: never waits for the driver's round trip.
IN_FLIGHT = 2
#: Seconds close() gives the reaper (sim/reaper.py) to clean up after a local Ray.
REAPER_WAIT = 5.0
#: The first-party packages a worker on a cluster needs: the sim layer and the journey's lab
#: (journey/lab/) import only these (tests/test_layers.py), so they are shipped and the
#: cluster plays this checkout's code.
SHIPPED = ("sim", "runtime", "journey", "contract")


def _import_ray():
    # Imported here, not at the top: the local backend and ``jibunki --help`` never pay for
    # (or need) Ray.
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # offline: no usage report, ever
    try:
        import ray
    except ImportError as error:
        raise BackendError("実行先 ray には Ray が要ります: pip install 'jibunki[ray]'") \
            from error
    return ray


def _probe(address: str) -> None:
    """Fail at once, with a clear message, when ``address`` (host:port or ray://host:port)
    does not answer; other spellings (``auto``) are left to Ray."""
    import socket

    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        connection = socket.create_connection((host.strip("[]"), int(port)),
                                              timeout=CONNECT_TIMEOUT)
    except OSError as error:
        # A name that does not resolve has no errno of the system, only its English.
        why = "ホスト名が見つかりません" if isinstance(error, socket.gaierror) else reason(error)
        raise BackendError(f"Ray の実行先 {address} に接続できません（{why}）") from error
    # A cluster on TLS would answer a cleartext preface with its handshake: only reached.
    tls = os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true")
    answer = b""
    with connection:
        # Ray's GCS and its client server speak gRPC: HTTP/2, whose server answers the
        # client's preface with a SETTINGS frame. A port that answers otherwise (or not
        # at all) is no cluster's, and ray.init would try it for minutes.
        try:
            if not tls:
                connection.sendall(_HTTP2_PREFACE)
            while not tls and len(answer) < 9:
                more = connection.recv(9 - len(answer))
                if not more:
                    break
                answer += more
        except OSError:  # reset, or silent past the timeout: no cluster's
            pass
    if not tls and (len(answer) < 9 or answer[3] != _HTTP2_SETTINGS):
        raise BackendError(f"Ray の実行先 {address} は Ray のクラスタではないようです（gRPC で"
                           "答えません。ray start --head が示したアドレスとポートを確かめてください）")


#: The HTTP/2 client connection preface and an empty SETTINGS frame (RFC 9113 §3.4), and
#: the type of the frame a server sends first (its SETTINGS, §6.5).
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
_HTTP2_SETTINGS = 0x04


def _one_line(error: BaseException) -> str:
    """Ray's error as one line: a cluster that refused this process's token, or that does
    not answer (Ray's ConnectionError, in English), said in Japanese with what to check;
    any other as Ray's first line."""
    said = str(error).strip()
    # Ray turns token authentication on by itself only for a cluster it starts, not for an
    # explicit address: the usual reason a cluster that answers refuses to be joined.
    if "InvalidAuthToken" in f"{said} {error.__cause__}":
        return ("クラスタがこのプロセスのトークンを受け付けません（トークン認証のクラスタなら "
                "RAY_AUTH_MODE=token とそのトークンを設定してください）")
    if isinstance(error, ConnectionError):
        return ("クラスタが応答しません（アドレスとポート、クラスタが動いているか、"
                "このマシンから届くかを確かめてください）")
    return said.splitlines()[0] if said else type(error).__name__


class _Worker:
    """One Ray actor: the prepared context (``prepare(shared)``), kept for the whole lab
    run, and the tasks played on it."""

    def __init__(self, prepare: Prepare, shared):
        self.context = prepare(shared)

    def ready(self) -> bool:
        """True once prepared (the driver waits for it, so a failing prepare surfaces at
        open)."""
        return True

    def play(self, work: Work, task):
        """One task's result."""
        return work(self.context, task)


class RayRunner(Runner):
    """実行先 ray: ``workers`` Ray actors, each holding the prepared context; the shared
    data is put in the object store once and every actor prepares it once.

    ``address=None`` starts a local Ray of ``workers`` CPUs (stopped on close);
    ``"host:port"`` or ``"ray://host:port"`` joins a running cluster (disconnected from,
    not stopped, on close) and ships this checkout's packages to it (SHIPPED). On a
    cluster of several nodes each actor reserves a CPU, so the actors spread over the
    nodes, and at most the CPUs free when it opens are used. ``workers=None``: every CPU
    of the Ray in use. A Ray the caller already initialised is used as it is (``address``
    is then not looked at) and left running."""

    def __init__(self, prepare: Prepare, shared, workers: int | None = 1,
                 address: str | None = None):
        ray = self.ray = _import_ray()
        self.actors: list = []
        self.losses = 0
        self.opening: tuple | None = None  # (actor class, prepare, shared data's ref)
        self.reaper = None  # the local Ray's 後始末 (sim/reaper.py), when this runner starts one
        self.saved_print = None  # Ray's own printer of published errors, while hushed
        # Disconnect (and, for a local Ray, stop it) on close only if this runner connected.
        self.owned = not ray.is_initialized()
        try:
            if self.owned:
                self._connect(workers, address)
                self._hush_published_errors()
            nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
            # Several nodes: a CPU reserved per actor spreads them (unreserved, Ray would
            # pack them onto one node). One node: the OS shares its cores anyway, and an
            # unreserved actor never waits for a CPU held by another runner's actors.
            reserve = nodes > 1 or (self.owned and address is not None)
            if workers is None:
                workers = int(ray.cluster_resources().get("CPU", 0)) or default_workers()
            if reserve:
                free = int(ray.available_resources().get("CPU", 0))
                if free < 1:
                    raise BackendError("Ray の実行先に空いている CPU がありません")
                # An actor beyond the free CPUs would wait for one forever.
                workers = min(workers, free)
            self.workers = max(1, workers)
            shared_ref = ray.put(shared)  # once, however many actors read it
            actor = ray.remote(num_cpus=1 if reserve else 0)(_Worker)
            self.opening = (actor, prepare, shared_ref)
            self.actors = [actor.remote(prepare, shared_ref) for _ in range(self.workers)]
            self._await_ready()
        except BaseException:
            self.close()
            raise

    def _connect(self, workers: int | None, address: str | None) -> None:
        ray = self.ray
        quiet = dict(log_to_driver=False, configure_logging=False, ignore_reinit_error=True)
        if address is None:
            import logging

            from .reaper import MARK

            os.environ[MARK] = self._start_reaper()  # inherited by every process Ray starts
            # Ray turns on token authentication for a local cluster and warns that it did
            # (to stderr, once per start): the default is kept, the notice is not shown.
            notice = logging.getLogger("ray._private.authentication.authentication_token_setup")
            level = notice.level
            notice.setLevel(logging.ERROR)
            try:
                # "local": always a new Ray of our own. With no address Ray would join
                # the last cluster `ray start` left on this machine (or RAY_ADDRESS).
                ray.init(address="local", num_cpus=workers or default_workers(),
                         include_dashboard=False, **quiet)
            finally:
                notice.setLevel(level)
                del os.environ[MARK]  # nothing else this process starts is Ray's
            return
        _probe(address)
        import importlib

        modules = [importlib.import_module(name) for name in SHIPPED]
        try:
            ray.init(address=address, runtime_env={"py_modules": modules,
                                                   "excludes": ["__pycache__/", "*.pyc"]},
                     **quiet)
        except Exception as error:
            raise BackendError(f"Ray の実行先 {address} に参加できません: {_one_line(error)}") \
                from error

    def _hush_published_errors(self, undo: bool = False) -> None:
        """Keep Ray's published errors off this process's stdout while the runner is open
        (``undo``: as they were). A driver's listener thread prints every error the cluster
        publishes for the job — a worker that died is several lines, on stdout, in the
        middle of a JSON report — while the runner already answers for a lost actor
        (RETRIES, WorkerLost) and a task's error reaches the caller as an exception. Ray
        offers no option for it; its listener calls the module's ``print_to_stdstream``
        by name, so that name is pointed at Ray's debug log for the time."""
        import logging

        from ray._private import worker as driver

        if undo:
            saved, self.saved_print = self.saved_print, None
            if saved is not None:
                driver.print_to_stdstream = saved
            return
        if not hasattr(driver, "print_to_stdstream"):
            return  # another Ray: its own way of printing, left as it is
        log = logging.getLogger("ray")
        self.saved_print = driver.print_to_stdstream

        def to_debug_log(data, ignore_prefix=False) -> None:
            for line in data.get("lines", ()):
                log.debug("%s: %s", data.get("pid"), line)

        driver.print_to_stdstream = to_debug_log

    def _start_reaper(self) -> str:
        """Start sim/reaper.py beside the local Ray about to be started; the token that
        marks that Ray's processes. The reaper kills them when its pipe from this process
        closes: at close(), or when this process dies, even by kill -9."""
        import secrets
        import subprocess
        import sys

        from . import reaper

        token = secrets.token_hex(8)
        # Its own session: a Ctrl-C at the terminal must not end it before it cleans up. No
        # stdout or stderr of ours: a caller reading ours to its end must not wait for it.
        try:
            self.reaper = subprocess.Popen(
                [sys.executable, "-I", reaper.__file__, token], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as error:
            raise BackendError(f"Ray の後始末をするプロセスを始められません: "
                               f"{reason(error)}") from error
        return token

    def run(self, work, tasks, on_done=None):
        """Every task's result, in task order: tasks are dealt to the actors as they free
        up (IN_FLIGHT queued on each) and ``on_done`` hears of each as it arrives. The
        tasks of an actor that dies are dealt again to a fresh one (RETRIES)."""
        ray = self.ray
        results: list = [None] * len(tasks)
        queue = list(enumerate(tasks))[::-1]  # dealt from the end
        pending: dict = {}  # object ref → (task index, the task, its actor)

        def deal(actor) -> None:
            if queue:
                index, task = queue.pop()
                pending[actor.play.remote(work, task)] = (index, task, actor)

        for actor in self.actors:
            for _ in range(IN_FLIGHT):
                deal(actor)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                if ref not in pending:
                    continue  # held by an actor found dead meanwhile: dealt again already
                index, task, actor = pending.pop(ref)
                try:
                    # A task that raised raises here (RayTaskError, also an instance of the
                    # original exception's class); close() then ends the actors.
                    results[index] = ray.get(ref)
                except ray.exceptions.RayActorError as error:
                    if error.actor_init_failed:
                        raise  # its prepare raised: no fresh actor would do better
                    held = [(index, task)]
                    for other in [r for r, (_, _, a) in pending.items() if a is actor]:
                        held.append(pending.pop(other)[:2])
                    queue.extend(sorted(held, reverse=True))
                    actor = self._replace(actor)
                    for _ in range(IN_FLIGHT):
                        deal(actor)
                    continue
                deal(actor)
                if on_done:
                    on_done(index, results[index])
        return results

    def _await_ready(self) -> None:
        """Wait until every actor is prepared (a failing prepare raises here, at open); an
        actor lost meanwhile is replaced (RETRIES)."""
        ray = self.ray
        waiting = {actor.ready.remote(): actor for actor in self.actors}
        while waiting:
            ready, _ = ray.wait(list(waiting), num_returns=1)
            actor = waiting.pop(ready[0])
            try:
                ray.get(ready[0])
            except ray.exceptions.RayActorError as error:
                if error.actor_init_failed:
                    raise
                fresh = self._replace(actor)
                waiting[fresh.ready.remote()] = fresh

    def _replace(self, lost):
        """A fresh actor in place of ``lost`` (dead), or WorkerLost when no retry is left."""
        self.losses += 1
        if self.losses > RETRIES:
            raise WorkerLost(self.losses)
        actor, prepare, shared_ref = self.opening
        fresh = actor.remote(prepare, shared_ref)
        self.actors[self.actors.index(lost)] = fresh
        return fresh

    def close(self) -> None:
        """End the actors; stop the local Ray this runner started, or disconnect from the
        cluster it joined (which keeps running). Safe to call twice."""
        ray, actors, self.actors = self.ray, self.actors, []
        if ray.is_initialized():
            for actor in actors:
                # On a cluster left running, the actors' CPUs are given back now. An actor
                # already gone is no reason to hide the error that brought us here.
                try:
                    ray.kill(actor)
                except Exception:
                    pass
            if self.owned:
                self.owned = False
                ray.shutdown()
        self._hush_published_errors(undo=True)
        self._stop_reaper()

    def _stop_reaper(self) -> None:
        """Let the reaper clean up what ray.shutdown left (it waits for nothing else)."""
        reaper, self.reaper = self.reaper, None
        if reaper is None:
            return
        import subprocess

        reaper.stdin.close()
        try:
            reaper.wait(timeout=REAPER_WAIT)
        except subprocess.TimeoutExpired:
            pass  # it finishes on its own; a lab never waits longer than this for it


def _ray(prepare, shared, workers, address) -> Runner:
    return RayRunner(prepare, shared, workers, address)


#: Backend name → how it opens a runner (prepare, shared, workers, address).
BACKENDS: dict[str, Callable] = {"local": _local, "ray": _ray}
