"""実行先 ray (sim/backends.py ``RayRunner``): the same results as the local cores, Ray
imported only when asked for, and clear failures.

One local Ray is started for the module (through the backend, ``address=None``) and
stopped at its end; what needs a Ray of its own, or none, runs in a subprocess.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import ROOT

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

if importlib.util.find_spec("ray") is None:
    pytest.skip("ray is not installed (pip install 'jibunki[ray]', or the test extra)",
                allow_module_level=True)

from compiler.build import compile_content  # noqa: E402
from runtime.tables import from_dicts  # noqa: E402
from sim.backends import BackendError, RayRunner, open_runner  # noqa: E402
from sim.lab import Lab, Settings, Task, prepare, work  # noqa: E402

SMALL = Settings(enemies=("haguruma",), ladder=("random",), pages=("sakamichi", "byouin"),
                 precision=0.1, max_pairs=100, batch=40)


@pytest.fixture(scope="module")
def literal() -> dict:
    return compile_content(ROOT / "content").tables


@pytest.fixture(scope="module")
def ray_runner(literal):
    """A local Ray started by the backend, kept open for the module, stopped at its end."""
    import ray

    assert not ray.is_initialized(), "a Ray left running by an earlier test"
    runner = RayRunner(prepare, literal, workers=2)
    try:
        yield runner
    finally:
        runner.close()
    assert not ray.is_initialized()


def tasks_of(literal) -> list[Task]:
    """A dozen tasks of both policies, decks with and without a page, two enemies."""
    deck = tuple(from_dicts(literal).starter())
    out = []
    for i, (page, policy) in enumerate([("sakamichi", "random"), ("byouin", "greedy"),
                                        (None, "greedy"), ("byouin", "random")] * 3):
        battles = tuple((seed, ("haguruma",) if seed % 2 else ("haguruma", "haguruma"))
                        for seed in range(5 * i, 5 * i + 5))
        out.append(Task(deck + ((page,) if page else ()), policy, 60, page, battles))
    return out


def test_ray_gives_the_local_results_in_task_order(ray_runner, literal):
    tasks = tasks_of(literal)
    heard = []
    got = ray_runner.run(work, tasks, lambda index, result: heard.append((index, result)))
    with open_runner(prepare, literal, workers=1) as local:
        want = local.run(work, tasks)
    assert got == want
    assert sorted(i for i, _ in heard) == list(range(len(tasks)))
    assert all(result == want[i] for i, result in heard)
    # A second round on the same actors (the lab plays many).
    assert ray_runner.run(work, tasks[:3]) == want[:3]
    assert ray_runner.run(work, []) == []


def test_a_lab_run_on_ray_is_byte_for_byte_the_local_one(ray_runner, literal):
    tables = from_dicts(literal)
    on_ray = Lab(literal, tables, SMALL, workers=2, backend="ray").run()
    local = Lab(literal, tables, SMALL, workers=1, backend="local").run()
    assert json.dumps(on_ray, sort_keys=True) == json.dumps(local, sort_keys=True)
    assert on_ray["run"]["battles"] > 0


def test_a_failing_task_raises_its_error_and_the_runner_plays_on(ray_runner, literal):
    import ray

    def fails(context, task):  # local: sent by value (the workers cannot import tests/)
        if task == 3:
            raise ValueError(f"task {task} fails")
        return task

    with pytest.raises(ValueError, match="task 3 fails"):
        ray_runner.run(fails, [1, 2, 3, 4, 5, 6, 7])
    assert ray.is_initialized()  # the module's Ray: not this runner's to stop
    first = tasks_of(literal)[0]
    assert ray_runner.run(work, [first]) == [work(from_dicts(literal), first)]


def _python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_ray_is_imported_only_when_its_backend_is_opened():
    done = _python("""
        import sys
        from click.testing import CliRunner
        import cli
        import sim.backends
        assert "ray" not in sys.modules, "import sim.backends"
        for args in (["--help"], ["sim", "--help"]):
            assert CliRunner().invoke(cli.main, args).exit_code == 0
        assert "ray" not in sys.modules, "jibunki --help"
        from compiler.build import compile_content
        from runtime.tables import from_dicts
        from sim.lab import Lab, Settings
        literal = compile_content(__import__("pathlib").Path("content")).tables
        settings = Settings(enemies=("haguruma",), ladder=("random",), pages=("sakamichi",),
                            precision=0.2, max_pairs=40, batch=20)
        for workers in (1, 2):
            Lab(literal, from_dicts(literal), settings, workers=workers).run()
        assert "ray" not in sys.modules, "a local lab run"
        print("ok")
    """)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_ray_it_started_is_stopped_when_a_task_fails():
    # In a process of its own: the module's Ray is running here, and would be reused.
    done = _python("""
        import ray
        from sim.backends import open_runner

        def fails(context, task):
            raise KeyError(task)

        try:
            with open_runner(dict, {}, workers=1, backend="ray") as runner:
                runner.run(fails, ["x"])
        except KeyError as error:
            assert not ray.is_initialized()
            print("stopped", type(error).__name__)
    """, timeout=180)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == ["stopped", "RayTaskError(KeyError)"], done.stdout


def test_an_address_that_does_not_answer_fails_at_once_in_one_line():
    # ray.init itself retries such an address for minutes; the backend asks first.
    started = time.monotonic()
    done = _python("""
        from sim.backends import BackendError, open_runner
        from sim.lab import prepare
        try:
            open_runner(prepare, {}, workers=1, backend="ray", address="127.0.0.1:1")
        except BackendError as error:
            print(error)
    """, timeout=60)
    assert time.monotonic() - started < 30
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Ray の実行先 127.0.0.1:1 に接続できません（"), \
        done.stdout
    assert issubclass(BackendError, RuntimeError)  # what the command turns into its message


def test_without_ray_the_backend_says_how_to_install_it():
    done = _python("""
        import sys
        sys.modules["ray"] = None  # as if not installed
        from sim.backends import BackendError, open_runner
        try:
            open_runner(lambda shared: shared, {}, backend="ray")
        except BackendError as error:
            print(error)
    """)
    assert done.returncode == 0, done.stderr
    assert "pip install 'jibunki[ray]'" in done.stdout and "\n" not in done.stdout.strip()


def test_a_lab_run_on_ray_with_a_warm_cache_is_the_local_one_without(ray_runner, literal,
                                                                     tmp_path, monkeypatch):
    """Ray filling the results cache, then a local run reading it whole: the same report
    as a local run with no cache."""
    from sim.cache import ResultCache
    from sim.lab import Outcome

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    tables = from_dicts(literal)
    reports = []
    for backend, workers in (("ray", 2), ("local", 1)):
        results = ResultCache.open(literal, Outcome._make, Outcome._fields)
        try:
            lab = Lab(literal, tables, SMALL, workers=workers, backend=backend, cache=results)
            reports.append(json.dumps(lab.run(), sort_keys=True))
        finally:
            results.close()
    assert lab.played == 0
    bare = Lab(literal, tables, SMALL, workers=1).run()
    assert reports[0] == reports[1] == json.dumps(bare, sort_keys=True)



@pytest.mark.parametrize("answer", [b"", b"SSH-2.0-OpenSSH_9.2\r\n"])
def test_an_address_that_answers_but_is_no_cluster_fails_at_once_in_one_line(answer):
    """A port that accepts and is no Ray cluster's (silent, or another server): ray.init
    tried it for minutes, its core writing English warnings (gcs_client.cc … Failed to
    get cluster ID) all the while, and said Ray's English at the end."""
    started = time.monotonic()
    done = _python(f"""
        import socket, threading, time
        from sim.backends import BackendError, open_runner
        from sim.lab import prepare
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        port = listener.getsockname()[1]
        held = []
        def serve():
            while True:
                connection = listener.accept()[0]
                connection.sendall({answer!r})
                held.append(connection)
        threading.Thread(target=serve, daemon=True).start()
        try:
            open_runner(prepare, {{}}, workers=1, backend="ray", address=f"127.0.0.1:{{port}}")
        except BackendError as error:
            print(error)
    """, timeout=60)
    assert time.monotonic() - started < 30
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    assert line.startswith("Ray の実行先 127.0.0.1:") and "Ray のクラスタではないようです" in line
    assert done.stderr == "", done.stderr
