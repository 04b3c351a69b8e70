"""The `polynav serve` under test: one server per test module, on a free port of 127.0.0.1,
serving two bundled scenes and a folder of scenes (--dir), stopped with SIGINT at the end.

Environment (set by CTest): POLYNAV_CLI, the tool; POLYNAV_SOURCE_DIR, the project."""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import urllib.error
import urllib.request

import pytest

CLI = os.environ.get("POLYNAV_CLI", "polynav")
SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
SCENES = SOURCE / "scenes"


class Server:
    """A running `polynav serve`, with helpers for its JSON API."""

    def __init__(self, process, url, folder):
        self.process = process
        self.url = url
        self.folder = folder  # the --dir folder

    def request(self, path, body=None, method=None, raw=None, headers=None):
        """(status, parsed JSON or text) of one request; body is sent as JSON, raw as bytes."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method,
                                         headers={"Content-Type": "application/json",
                                                  **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status, decode(reply)
        except urllib.error.HTTPError as error:
            return error.code, decode(error)

    def built(self, body, timeout=120):
        """POST /api/build until the discretisation is ready (or refused); its (status, JSON)."""
        import time
        deadline = time.monotonic() + timeout
        while True:
            status, answer = self.request("/api/build", body)
            if status != 202 or time.monotonic() > deadline:
                return status, answer
            time.sleep(0.1)


def decode(reply):
    text = reply.read().decode("utf-8")
    if reply.headers.get("Content-Type", "").startswith("application/json"):
        return json.loads(text)
    return text


def cli(*args, timeout=300):
    """(exit code, stdout, stderr) of the command-line tool."""
    done = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def start_server(folder, *extra):
    """`polynav serve warehouse.yaml maze.yaml --dir folder --port 0 extra...`, its log (one line
    per request, on stderr) in folder/../<folder name>.log, so that it never fills a pipe."""
    log = open(folder.parent / (folder.name + ".log"), "w")
    process = subprocess.Popen(
        [CLI, "serve", SCENES / "warehouse.yaml", SCENES / "maze.yaml", "--dir", folder,
         "--port", "0", *extra],
        stdout=subprocess.PIPE, stderr=log, text=True)
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise RuntimeError(f"polynav serve did not start: {line!r} "
                           f"{pathlib.Path(log.name).read_text()!r}")
    url = line[line.index("http://"):].split()[0]
    return Server(process, url, folder)


def stop_server(server):
    server.process.send_signal(signal.SIGINT)
    try:
        code = server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        raise AssertionError("polynav serve did not stop on SIGINT within 30 s")
    return code


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    shutil.copy(SCENES / "office.yaml", folder / "office.yaml")
    (folder / "maps").mkdir()
    shutil.copy(SCENES / "movingai" / "arena.map", folder / "maps" / "arena.map")
    # Links that lead out of the folder: never listed, never served.
    (folder / "escape.yaml").symlink_to(SCENES / "forest.yaml")
    (folder / "outside").symlink_to(SCENES)
    running = start_server(folder)
    yield running
    assert stop_server(running) == 0
