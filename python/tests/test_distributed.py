"""Experiments on a Dask cluster (two local worker processes on the loopback interface): the
merged rows equal a single-process run's, also when a worker is killed mid-run."""

import os
import pathlib
import signal
import threading
import time

import pytest

import polynav

distributed = pytest.importorskip("distributed")
import polynav.distributed  # noqa: E402

SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
SCENES = [str(SOURCE / "scenes" / "maze.yaml"), str(SOURCE / "scenes" / "office.yaml")]
OPTIONS = dict(methods=["grid", "visgraph"], smoothers=["none", "shortcut"], random=40, seed=9)


def strip(rows):
    return [{k: v for k, v in r.items() if not k.endswith(("_ms", "_us"))} for r in rows]


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def test_distributed_rows_equal_the_local_run(client):
    local = polynav.run_experiment(SCENES, **OPTIONS)
    remote = polynav.distributed.run_experiment(client, SCENES, shards=5, **OPTIONS)
    assert strip(remote) == strip(local)


def test_a_worker_killed_mid_run_loses_no_rows(client):
    options = dict(OPTIONS, random=150)
    local = polynav.run_experiment(SCENES, **options)
    pids = list(client.run(os.getpid).values())
    killer = threading.Timer(1.0, lambda: os.kill(pids[0], signal.SIGKILL))
    killer.start()
    started = time.monotonic()
    remote = polynav.distributed.run_experiment(client, SCENES, shards=12, **options)
    killer.join()
    assert time.monotonic() - started > 1.0, "the run ended before the worker was killed"
    assert strip(remote) == strip(local)
