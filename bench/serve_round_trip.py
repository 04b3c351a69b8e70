"""`polynav serve`'s round trip for one plan (POST /api/plan over one kept-alive connection,
as the page sends while a marker is dragged) against the search and smoothing inside it
(the plan's own search_ms + smooth_ms), on the same random queries, in the same run.

    /usr/bin/python3 bench/serve_round_trip.py --polynav build/release/src/cli/polynav \\
        [--scene scenes/warehouse.yaml] [--methods grid,navmesh] [--queries 1000]
"""

import argparse
import http.client
import json
import pathlib
import random
import statistics
import subprocess
import time


def main():
    source = pathlib.Path(__file__).parents[1]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polynav", default="polynav", help="the command-line tool")
    parser.add_argument("--scene", default=str(source / "scenes" / "warehouse.yaml"))
    parser.add_argument("--methods", default="grid,navmesh,quadtree,visgraph")
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    server = subprocess.Popen([args.polynav, "serve", args.scene, "--port", "0", "--quiet",
                               "--rate", "100000"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        host, port = line[line.index("http://") + 7:].split("/")[0].rsplit(":", 1)
        connection = http.client.HTTPConnection(host, int(port))

        def post(path, body):
            connection.request("POST", path, json.dumps(body),
                               {"Content-Type": "application/json"})
            reply = connection.getresponse()
            return reply.status, json.loads(reply.read())

        scene = post("/api/scene", {"scene": args.scene})[1]
        (minx, miny, maxx, maxy) = scene["picture"]["transform"]["world"]
        print(f"{args.queries} random plans on {pathlib.Path(args.scene).name}, one connection")
        print("| method | round trip median ms | p95 ms | search + smooth median ms | "
              "outside the plan median ms |")
        print("|---|---|---|---|---|")
        for method in args.methods.split(","):
            key = {"scene": args.scene, "method": method}
            while post("/api/build", key)[0] == 202:
                time.sleep(0.05)
            rng = random.Random(args.seed)
            trips, inside = [], []
            for _ in range(args.queries):
                body = {**key, "start": [rng.uniform(minx, maxx), rng.uniform(miny, maxy)],
                        "goal": [rng.uniform(minx, maxx), rng.uniform(miny, maxy)]}
                t = time.perf_counter()
                status, answer = post("/api/plan", body)
                trips.append((time.perf_counter() - t) * 1000)
                assert status == 200, answer
                stats = answer["plan"]["stats"]
                inside.append(stats["search_ms"] + stats["smooth_ms"])
            outside = [a - b for a, b in zip(trips, inside)]
            print(f"| {method} | {statistics.median(trips):.3f} | "
                  f"{sorted(trips)[int(0.95 * len(trips))]:.3f} | {statistics.median(inside):.3f} "
                  f"| {statistics.median(outside):.3f} |")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
