"""`polynav serve`'s JSON API against the command line: every answer equals what the CLI prints
for the same request, and bad requests get a clean 4xx with the CLI's message, never a crash."""

import concurrent.futures
import json
import random
import re
import shutil
import subprocess

import pytest

from conftest import CLI, SCENES, cli, start_server, stop_server

WAREHOUSE = str(SCENES / "warehouse.yaml")
TIMES = ("build_ms", "search_ms", "smooth_ms")


def untimed(plan):
    """A plan object without its timings (which differ run to run)."""
    plan = dict(plan)
    plan["stats"] = {k: v for k, v in plan["stats"].items() if k not in TIMES}
    return plan


def cli_plan(scene, start, goal, method="grid", smoother="shortcut", settings=None):
    args = ["plan", scene, "--start", f"{start[0]!r},{start[1]!r}",
            "--goal", f"{goal[0]!r},{goal[1]!r}", "--method", method, "--smooth", smoother,
            "--json"]
    for key, value in (settings or {}).items():
        args += ["--set", f"{key}={value}"]
    code, out, err = cli(*args)
    assert code in (0, 1, 2), err
    return json.loads(out)


def served_plan(server, scene, start, goal, method="grid", smoother="shortcut", settings=None):
    body = {"scene": scene, "method": method, "smoother": smoother, "set": settings or {}}
    assert server.built(body)[0] == 200
    status, answer = server.request("/api/plan", {**body, "start": start, "goal": goal})
    assert status == 200, answer
    return answer["plan"]


def cli_error(*args):
    """The message of the CLI's one `error:` line."""
    code, _, err = cli(*args)
    assert code == 2
    return err.strip().removeprefix("error: ")


def test_scenes_are_the_named_files_then_the_folders_scene_files(server):
    status, answer = server.request("/api/scenes")
    assert status == 200
    ids = [s["id"] for s in answer["scenes"]]
    assert ids[:2] == [WAREHOUSE, str(SCENES / "maze.yaml")]
    assert sorted(ids[2:]) == ["maps/arena.map", "office.yaml"]  # links that lead out: left out


def test_methods_are_the_clis_registry(server):
    code, out, _ = cli("methods", "--json")
    assert code == 0
    assert server.request("/api/methods") == (200, json.loads(out))


def test_the_scene_picture_is_the_clis_render(server):
    for scene, width in [(WAREHOUSE, 1000), ("maps/arena.map", 640)]:
        status, answer = server.request("/api/scene", {"scene": scene, "width": width})
        assert status == 200, answer
        path = server.folder / scene if not scene.startswith("/") else scene
        code, svg, _ = cli("render", path, "-o", "-", "--width", width)
        assert code == 0
        assert answer["picture"]["svg"] == svg
        assert answer["picture"]["width"] > 0 and answer["picture"]["height"] > 0
    status, answer = server.request("/api/scene", {"scene": WAREHOUSE})
    code, out, _ = cli("validate", WAREHOUSE, "--json")
    names = [q["name"] for q in answer["queries"]]
    assert names and len(names) == len(set(names))


def test_the_transform_maps_world_points_to_the_svgs_pixels(server):
    # The scene's first query is drawn as a start marker: its centre is where the transform says.
    status, answer = server.request("/api/scene", {"scene": WAREHOUSE})
    picture = answer["picture"]
    t = picture["transform"]
    x, y = answer["queries"][0]["start"]
    px = t["origin"][0] + (x - t["world"][0]) * t["scale"]
    py = t["origin"][1] + (t["world"][3] - y) * t["scale"]
    queries = picture["svg"].split('<g id="queries">')[1].split("</g>")[0]
    centres = [(float(a), float(b)) for a, b in re.findall(r'<circle cx="([-\d.]+)" cy="([-\d.]+)"',
                                                             queries)]
    assert any(abs(a - px) < 0.01 and abs(b - py) < 0.01 for a, b in centres), (px, py, centres)


@pytest.mark.parametrize("method,smoother,settings", [
    ("grid", "shortcut", {}),
    ("grid", "none", {"grid.resolution": 0.25, "grid.connectivity": 4}),
    ("quadtree", "shortcut", {}),
    ("visgraph", "none", {}),
    ("navmesh", "funnel", {}),
    ("grid", "shortcut", {"grid.search": "jps"}),
])
def test_plans_equal_the_clis(server, method, smoother, settings):
    rng = random.Random(7)
    status, scene = server.request("/api/scene", {"scene": WAREHOUSE})
    queries = [(q["start"], q["goal"]) for q in scene["queries"]]
    queries += [([rng.uniform(0, 40), rng.uniform(0, 25)], [rng.uniform(0, 40), rng.uniform(0, 25)])
                for _ in range(4)]
    for start, goal in queries:
        served = served_plan(server, WAREHOUSE, start, goal, method, smoother, settings)
        assert untimed(served) == untimed(cli_plan(WAREHOUSE, start, goal, method, smoother,
                                                   settings))


def test_a_folder_scene_plans_as_the_cli_does(server):
    served = served_plan(server, "maps/arena.map", [3.5, 10.5], [40.5, 30.5], "grid", "none",
                         {"grid.search": "jps"})
    assert served["status"] == "found"
    expected = cli_plan(server.folder / "maps" / "arena.map", [3.5, 10.5], [40.5, 30.5], "grid",
                        "none", {"grid.search": "jps"})
    assert untimed(served) == untimed(expected)


def test_a_query_outside_free_space_is_answered_as_the_cli_answers_it(server):
    served = served_plan(server, WAREHOUSE, [-5, -5], [10, 10])
    assert served["status"] == "invalid_query"
    assert untimed(served) == untimed(cli_plan(WAREHOUSE, [-5, -5], [10, 10]))


def test_expanded_nodes_come_when_asked(server):
    body = {"scene": WAREHOUSE, "start": [1, 1], "goal": [30, 20]}
    server.built({"scene": WAREHOUSE})
    _, plain = server.request("/api/plan", body)
    _, with_nodes = server.request("/api/plan", {**body, "expanded": True})
    assert "expanded" not in plain
    assert len(with_nodes["expanded"]) == with_nodes["plan"]["stats"]["expanded"] > 0


def test_reach_equals_the_clis(server):
    body = {"scene": WAREHOUSE, "method": "quadtree"}
    assert server.built(body)[0] == 200
    status, answer = server.request("/api/reach", {**body, "from": [2, 1.5], "cost": 10})
    assert status == 200, answer
    code, out, _ = cli("reach", WAREHOUSE, "--method", "quadtree", "--from", "2,1.5", "--cost",
                       "10", "--json")
    assert code == 0
    assert answer["reach"] == json.loads(out)
    assert answer["reach"]["nodes"]


def test_a_build_is_shared_and_reported_in_the_status(server):
    body = {"scene": WAREHOUSE, "method": "visgraph", "set": {"search.weight": 1.5}}
    status, first = server.built(body)
    assert status == 200, first
    status, again = server.request("/api/build", body)
    assert status == 200 and again["build_ms"] == first["build_ms"]  # the same build, not a new one
    status, answer = server.request("/api/status")
    assert any(p["method"] == "visgraph" and p["state"] == "ready" for p in answer["planners"])


@pytest.mark.parametrize("scene", ["../warehouse.yaml", "maps/../../x.yaml", "/etc/passwd",
                                   "escape.yaml", "outside/forest.yaml", "missing.yaml", "maps",
                                   "maps/./arena.map"])
def test_nothing_outside_what_was_named_is_served(server, scene):
    for path, body in [("/api/scene", {"scene": scene}),
                       ("/api/build", {"scene": scene}),
                       ("/api/plan", {"scene": scene, "start": [1, 1], "goal": [2, 2]})]:
        status, answer = server.request(path, body)
        assert status == 404, (path, scene, answer)
        assert "scene '" in answer["error"]


def test_bad_requests_get_a_located_message(server):
    cases = [
        (b'{"scene": ', "request body: parse error at line 1, column 11"),
        (b'[1, 2]', "request body: expected a JSON object"),
        (b'{"scene": "%s", "start": [NaN, 1], "goal": [1, 1]}' % WAREHOUSE.encode(),
         "request body: parse error"),
        (json.dumps({"scene": WAREHOUSE, "start": [1, "x"], "goal": [1, 1]}).encode(),
         "request body: start: expected [x, y] with two finite numbers"),
        (b'{"scene": "%s", "start": [1, 1e999], "goal": [1, 1]}' % WAREHOUSE.encode(),
         "request body: number overflow"),
        (json.dumps({"scene": WAREHOUSE, "start": [1, 1], "goal": [1, 1], "methd": "x"}).encode(),
         "did you mean 'method'?"),
        (json.dumps({"scene": WAREHOUSE, "start": [1, 1]}).encode(), "request body: goal: missing"),
        (json.dumps({"start": [1, 1], "goal": [2, 2]}).encode(), "request body: scene: missing"),
    ]
    for raw, message in cases:
        status, answer = server.request("/api/plan", raw=raw)
        assert status == 400, (raw, answer)
        assert message in answer["error"], (raw, answer)


def test_bad_options_get_the_clis_message(server):
    cases = [({"method": "gird"}, ["--method", "gird"]),
             ({"smoother": "spline2"}, ["--smooth", "spline2"]),
             ({"set": {"grid.resolutoin": 1}}, ["--set", "grid.resolutoin=1"]),
             ({"set": {"grid.resolution": -1}}, ["--set", "grid.resolution=-1"]),
             ({"set": {"search.weight": "inf"}}, ["--set", "search.weight=inf"])]
    for body, args in cases:
        status, answer = server.built({"scene": WAREHOUSE, **body})
        assert status == 400, (body, answer)
        assert answer["error"] == cli_error("plan", WAREHOUSE, *args), body


def test_a_search_may_not_ask_for_more_time_than_the_server_gives(server):
    status, answer = server.built({"scene": WAREHOUSE, "set": {"search.time_limit_ms": 1e9}})
    assert status == 400 and "--time-limit" in answer["error"]
    status, answer = server.built({"scene": WAREHOUSE, "set": {"search.time_limit_ms": "inf"}})
    assert status == 400 and "--time-limit" in answer["error"]
    status, answer = server.built({"scene": WAREHOUSE, "set": {"search.time_limit_ms": 50}})
    assert status == 200, answer


def test_a_build_may_not_run_longer_than_the_server_allows(tmp_path):
    limited = start_server(tmp_path, "--build-limit", "0.001", "--quiet")
    try:
        for asked in ("inf", 1):
            status, answer = limited.built({"scene": WAREHOUSE,
                                            "set": {"space.max_build_seconds": asked}})
            assert status == 400 and "--build-limit" in answer["error"], answer
        # A fine grid of a scene with many obstacles takes more than a millisecond to build.
        status, answer = limited.built({"scene": WAREHOUSE, "set": {"grid.resolution": 0.01}})
        assert status == 400 and "max_build_seconds" in answer["error"], answer
        assert limited.request("/api/status")[0] == 200
    finally:
        assert stop_server(limited) == 0


def test_oversized_bodies_and_unknown_paths_are_refused(server):
    status, answer = server.request("/api/plan", raw=b"{" + b" " * (2 << 20) + b"}")
    assert status == 413 and "larger than" in answer["error"]
    status, answer = server.request("/api/nothing")
    assert status == 404 and "no such page" in answer["error"]
    status, answer = server.request("/api/plan", method="GET")
    assert status in (404, 405)


def test_the_page_and_its_assets_are_served(server):
    status, page = server.request("/")
    assert status == 200 and "<html" in page.lower() and "app.js" in page
    for asset in ("/app.js", "/style.css"):
        assert server.request(asset)[0] == 200


def rss_kib(process):
    with open(f"/proc/{process.pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def test_concurrent_clients_get_the_answers_one_client_gets(tmp_path):
    # 150 plans from 8 clients at once, on four methods, against the answers to the same plans
    # asked one at a time; the rate is not limited here (test_request_rates_are_bounded).
    server = start_server(tmp_path, "--rate", "100000", "--quiet")
    try:
        methods = ["grid", "navmesh", "quadtree", "visgraph"]
        for m in methods:
            assert server.built({"scene": WAREHOUSE, "method": m})[0] == 200
        rng = random.Random(3)
        requests = [{"scene": WAREHOUSE, "method": rng.choice(methods),
                     "start": [rng.uniform(0, 40), rng.uniform(0, 25)],
                     "goal": [rng.uniform(0, 40), rng.uniform(0, 25)]} for _ in range(50)]
        expected = [untimed(server.request("/api/plan", r)[1]["plan"]) for r in requests]
        before = rss_kib(server.process)
        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as clients:
            answers = list(clients.map(lambda r: server.request("/api/plan", r), requests * 3))
        for (status, answer), want in zip(answers, expected * 3):
            assert status == 200, answer
            assert untimed(answer["plan"]) == want
        assert rss_kib(server.process) - before < 200 * 1024
        assert server.process.poll() is None
    finally:
        assert stop_server(server) == 0


def test_request_rates_are_bounded(tmp_path):
    limited = start_server(tmp_path, "--rate", "5", "--quiet")
    try:
        statuses = [limited.request("/api/status")[0] for _ in range(30)]
        assert statuses.count(200) >= 10 and statuses.count(429) >= 10
        assert statuses[:10] == [200] * 10  # the burst: twice the rate
    finally:
        assert stop_server(limited) == 0


def test_the_server_refuses_bad_command_lines():
    for args, message in [(["serve", SCENES / "nothing.yaml"], "no such file"),
                          (["serve", "--dir", SCENES / "warehouse.yaml"], "--dir: no such folder"),
                          (["serve"], "give at least one scene file or --dir"),
                          (["serve", WAREHOUSE, "--port", "70000"], "--port"),
                          (["serve", WAREHOUSE, "--time-limit", "0"], "--time-limit")]:
        code, out, err = cli(*args)
        assert code == 2 and message in err, (args, err)
        assert err.count("error:") == 1


def test_a_port_in_use_is_a_clean_error(server):
    port = server.url.rsplit(":", 1)[1].strip("/")
    code, _, err = cli("serve", WAREHOUSE, "--port", port, timeout=30)
    assert code == 2 and f"cannot listen on 127.0.0.1:{port}" in err


def test_the_build_picture_holds_the_discretisation(server):
    for method, group in [("grid", '<g id="grid">'), ("navmesh", '<g id="graph">'),
                          ("visgraph", '<g id="graph">')]:
        status, answer = server.built({"scene": WAREHOUSE, "method": method})
        assert status == 200, answer
        assert answer["method"] == method and answer["nodes"] > 0
        assert group in answer["picture"]["svg"]
        assert answer["picture"]["svg"].startswith("<svg")


def test_every_search_runs_under_the_servers_time_limit(tmp_path):
    limited = start_server(tmp_path, "--time-limit", "1", "--quiet")
    try:
        body = {"scene": WAREHOUSE, "method": "grid", "set": {"grid.resolution": 0.02}}
        assert limited.built(body)[0] == 200
        status, answer = limited.request("/api/plan", {**body, "start": [1, 1], "goal": [38, 23]})
        assert status == 200, answer
        plan = answer["plan"]
        assert plan["status"] == "limit_reached", plan
        assert plan["stats"]["search_ms"] < 500
        # The same query planned with the limit given on the command line stops the same way.
        code, out, _ = cli("plan", WAREHOUSE, "--start", "1,1", "--goal", "38,23", "--json",
                           "--set", "grid.resolution=0.02", "--set", "search.time_limit_ms=1")
        assert code == 1 and json.loads(out)["status"] == "limit_reached"
    finally:
        assert stop_server(limited) == 0


def test_a_tool_without_its_http_module_says_so(tmp_path):
    # The HTTP server is a module loaded from beside the tool; an installation that lost it
    # gets one line saying which file is missing and where it was looked for.
    tool = tmp_path / "polynav"
    shutil.copy(CLI, tool)
    done = subprocess.run([tool, "serve", WAREHOUSE, "--port", "0"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1 and "polynav_http.so is missing" in done.stderr
    assert str(tmp_path / "polynav_http.so") in done.stderr


def test_one_build_serves_every_smoother(server):
    # Switching smoothers plans on the same build (its build_ms is the same), each plan equal to
    # the command line's with that smoother.
    start, goal = [2, 1.5], [30, 20]
    times = set()
    for smoother in ("none", "shortcut", "tentpole", "shortcut-optimal", "funnel", "spline"):
        body = {"scene": WAREHOUSE, "method": "quadtree", "smoother": smoother}
        status, built = server.built(body)
        assert status == 200, built
        times.add(built["build_ms"])
        status, answer = server.request("/api/plan", {**body, "start": start, "goal": goal})
        assert status == 200, answer
        assert answer["plan"]["smoother"] == smoother
        assert untimed(answer["plan"]) == untimed(cli_plan(WAREHOUSE, start, goal, "quadtree",
                                                           smoother))
    assert len(times) == 1, times
