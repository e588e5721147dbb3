"""実行先 — where the lab's battles are played: in this process, on the local cores, or on
a Ray cluster (``BACKENDS``).

A runner (``open_runner``) is opened once per lab run: ``prepare(shared)`` makes what every
task reads (the tables, from their literals) once per worker. Then each round is a list of
tasks and a module-level ``work(context, task)`` that plays one. Results come back in the
order of the tasks, whatever order the workers finish in, so the number of workers and the
backend never change a figure; ``on_done(index, result)`` hears of each as it finishes (for
a progress bar only).

Ray is imported only when its backend is opened; a backend that cannot be opened (Ray not
installed, a cluster that does not answer) raises ``BackendError``, one line for the user."""

from __future__ import annotations

import os
from typing import Callable

Prepare = Callable[[object], object]
Work = Callable[[object, object], object]
OnDone = Callable[[int, object], None]


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

_context = None


def _initialise(prepare: Prepare, shared) -> None:
    global _context
    _context = prepare(shared)


def _play(work: Work, task):
    return work(_context, task)


class LocalPool(Runner):
    """The local cores: a process pool that lives for the whole lab run."""

    def __init__(self, prepare: Prepare, shared, workers: int):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # fork: the workers start with the modules loaded (no re-import per worker); the
        # shared data still goes through the initializer, as under spawn.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_initialise,
                                        initargs=(prepare, shared))

    def run(self, work, tasks, on_done=None):
        """Every task's result, in task order, played on the pool's processes."""
        from concurrent.futures import as_completed

        results: list = [None] * len(tasks)
        futures = {self.pool.submit(_play, work, task): index
                   for index, task in enumerate(tasks)}
        for future in as_completed(futures):
            index = futures[future]
            results[index] = future.result()
            if on_done:
                on_done(index, results[index])
        return results

    def close(self) -> None:
        """Stop the pool's processes (tasks not yet started are dropped)."""
        self.pool.shutdown(cancel_futures=True)


def _local(prepare, shared, workers, address) -> Runner:
    if address is not None:
        raise ValueError("--address は ray の実行先だけのものです")
    return InProcess(prepare, shared) if workers <= 1 else LocalPool(prepare, shared, workers)


# ----------------------------------------------------------- a Ray cluster


class BackendError(RuntimeError):
    """A 実行先 that cannot be opened (Ray not installed, a cluster not reachable): the
    message is one line meant for the user, in Japanese."""


#: Seconds to wait for a cluster's address to answer before saying it cannot be reached:
#: ray.init itself retries an address that refuses for many minutes.
CONNECT_TIMEOUT = 5.0
#: Tasks queued on each actor: the next is already there when one finishes, so an actor
#: never waits for the driver's round trip.
IN_FLIGHT = 2
#: The first-party packages a worker on a cluster needs: the sim layer imports only these
#: (tests/test_layers.py), so they are shipped and the cluster plays this checkout's code.
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
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as error:
        raise BackendError(f"Ray の実行先 {address} に接続できません"
                           f"（{error.strerror or error}）") from error


def _one_line(error: BaseException) -> str:
    """Ray's error as one line (its first), with a hint for a refused token."""
    said = str(error).strip()
    first = said.splitlines()[0] if said else type(error).__name__
    # Ray turns token authentication on by itself only for a cluster it starts, not for an
    # explicit address: the usual reason a cluster that answers refuses to be joined.
    if "InvalidAuthToken" in f"{said} {error.__cause__}":
        first += "（トークン認証のクラスタなら RAY_AUTH_MODE=token とそのトークンを設定してください）"
    return first


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
        # Disconnect (and, for a local Ray, stop it) on close only if this runner connected.
        self.owned = not ray.is_initialized()
        try:
            if self.owned:
                self._connect(workers, address)
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
            self.actors = [actor.remote(prepare, shared_ref) for _ in range(self.workers)]
            ray.get([a.ready.remote() for a in self.actors])
        except BaseException:
            self.close()
            raise

    def _connect(self, workers: int | None, address: str | None) -> None:
        ray = self.ray
        quiet = dict(log_to_driver=False, configure_logging=False, ignore_reinit_error=True)
        if address is None:
            import logging

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

    def run(self, work, tasks, on_done=None):
        """Every task's result, in task order: tasks are dealt to the actors as they free
        up (IN_FLIGHT queued on each) and ``on_done`` hears of each as it arrives."""
        ray = self.ray
        results: list = [None] * len(tasks)
        queue = iter(enumerate(tasks))
        pending: dict = {}  # object ref → (task index, its actor)

        def deal(actor) -> None:
            item = next(queue, None)
            if item is not None:
                pending[actor.play.remote(work, item[1])] = (item[0], actor)

        for actor in self.actors:
            for _ in range(IN_FLIGHT):
                deal(actor)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                index, actor = pending.pop(ref)
                # A task that raised raises here (RayTaskError, also an instance of the
                # original exception's class); close() then ends the actors.
                results[index] = ray.get(ref)
                deal(actor)
                if on_done:
                    on_done(index, results[index])
        return results

    def close(self) -> None:
        """End the actors; stop the local Ray this runner started, or disconnect from the
        cluster it joined (which keeps running). Safe to call twice."""
        ray, actors, self.actors = self.ray, self.actors, []
        if not ray.is_initialized():
            return
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


def _ray(prepare, shared, workers, address) -> Runner:
    return RayRunner(prepare, shared, workers, address)


#: Backend name → how it opens a runner (prepare, shared, workers, address).
BACKENDS: dict[str, Callable] = {"local": _local, "ray": _ray}
