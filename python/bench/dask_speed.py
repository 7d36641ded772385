#!/usr/bin/env python3
"""Games per second of kifu.dask on a LocalCluster of 1 and 2 worker
processes (one thread each), beside the command line's `--to parquet`
over the same input (README, "Beyond one machine"). Each run writes the
three parquet tables into a fresh folder; every timing includes the scan
that cuts the input.

    python3 python/bench/dask_speed.py FILE.pgn [--cli target/release/kifu]
        [--blocksize 16MiB] [--workers 1,2]
"""

import argparse
import os
import shutil
import subprocess
import tempfile
import time

import dask
import distributed

import kifu.dask


def dask_run(path, workers, blocksize, out):
    cluster = distributed.LocalCluster(
        n_workers=workers,
        processes=True,
        threads_per_worker=1,
        dashboard_address=None,
    )
    with distributed.Client(cluster):
        t = time.perf_counter()
        tables = kifu.dask.tables([path], blocksize=blocksize)
        dask.compute(
            *[
                df.to_parquet(os.path.join(out, name), compute=False, write_index=False)
                for name, df in zip(("games", "tags", "moves"), tables)
            ]
        )
        seconds = time.perf_counter() - t
        games = len(dask.dataframe.read_parquet(os.path.join(out, "games")))
        parts = tables[0].npartitions
    cluster.close()
    return games, seconds, parts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--cli", default="target/release/kifu")
    ap.add_argument("--blocksize", default="16MiB")
    ap.add_argument("--workers", default="1,2")
    a = ap.parse_args()
    mb = os.path.getsize(a.path) / 1e6
    print(f"{a.path}: {mb:.1f} MB; load {os.getloadavg()}")
    tmp = tempfile.mkdtemp()
    try:
        if os.path.exists(a.cli):
            out = os.path.join(tmp, "cli")
            t = time.perf_counter()
            subprocess.run(
                [a.cli, "convert", a.path, "--to", "parquet", "--out-dir", out, "-q"],
                check=True,
            )
            s = time.perf_counter() - t
            import pyarrow.parquet as pq

            n = pq.read_metadata(os.path.join(out, "games.parquet")).num_rows
            print(f"cli --to parquet: {n} games in {s:.2f} s: {n / s:,.0f} games/s")
        for w in map(int, a.workers.split(",")):
            out = os.path.join(tmp, f"dask{w}")
            n, s, parts = dask_run(a.path, w, a.blocksize, out)
            print(
                f"kifu.dask, {w} worker(s), {parts} partitions: "
                f"{n} games in {s:.2f} s: {n / s:,.0f} games/s"
            )
        print(f"load after: {os.getloadavg()}")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
