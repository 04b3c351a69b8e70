"""Experiments on a Dask cluster: the experiment split into shards (part K of N of every
scene's queries), each run by a worker with the bindings, failed shards retried, and the rows
merged into exactly what one process gives.

    from dask.distributed import Client
    import polynav.distributed
    client = Client("tcp://scheduler:8786")
    rows = polynav.distributed.run_experiment(client, ["maps/arena.map"], random=1000, shards=8)
"""

import polynav


def _shard(scenes, k, n, options):
    return polynav.run_experiment(scenes, shard=(k, n), **options)


def run_experiment(client, scenes, *, shards=None, retries=3, dataframe=False, out=None,
                   plot=None, **options):
    """Runs polynav.run_experiment(scenes, **options) as `shards` tasks on the client's cluster
    (default: two per worker) and returns the merged rows (a pandas DataFrame with
    dataframe=True; out and plot write the CSV and the figures, as in polynav.run_experiment).
    Scene and scenario paths must be readable by the workers (a shared file system, or the same
    checkout on every machine). A task whose worker dies is run again elsewhere (up to
    `retries` times); a task that raises InputError fails the whole call with that error."""
    if isinstance(scenes, (str, bytes)):
        scenes = [scenes]
    scenes = [str(s) for s in scenes]
    if shards is None:
        shards = max(1, 2 * len(client.scheduler_info().get("workers", {})))
    # The workers return plain rows; merging, writing and the DataFrame happen here, once.
    futures = [client.submit(_shard, scenes, k, shards, options, retries=retries, pure=False)
               for k in range(1, shards + 1)]
    rows = polynav.merge_shards(client.gather(futures))
    polynav._write_experiment(rows, out, plot)
    return polynav._rows_as_dataframe(rows) if dataframe else rows
