"""The pip package: a wheel built from a copy of the sources (setup.py, against the test build tree
named by POLYNAV_BUILD_DIR, which it only builds, never configures) is platform-specific, holds
the module, the command-line tool and the type stubs, installs into a fresh virtual environment
and plans there, away from the sources, as the command line does; `python -m polynav` and the
`polynav` script are the command-line tool, exit status included."""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import urllib.request
import zipfile

import pytest

SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
CLI = os.environ.get("POLYNAV_CLI", "polynav")
SCENE = SOURCE / "scenes" / "warehouse.yaml"
# The interpreter the build tree's module was built for (ctest runs pytest with it).
PYTHON = sys.executable

# Plans every query of a scene with the installed package and prints the lengths as JSON.
PLAN_SCRIPT = """
import json, os, sys
import polynav
venv = os.path.realpath(sys.argv[1])
assert os.path.realpath(polynav.__file__).startswith(venv + os.sep), polynav.__file__
scene = polynav.load_scene(sys.argv[2])
planner = polynav.Planner(scene)
lengths = {}
for name, start, goal in scene.queries:
    result = planner.plan(start, goal)
    lengths[name] = [str(result.status), result.length]
print(json.dumps(lengths))
"""


def run(command, check=True, **kwargs):
    """Runs a command; on an unexpected exit status fails with its output."""
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, check=False,
                          **kwargs)
    if check and done.returncode != 0:
        pytest.fail(describe(done))
    return done


def describe(done):
    return (f"{' '.join(done.args)}\nexit status {done.returncode}\n"
            f"--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}")


def clean_env(**extra):
    """This environment without what points Python at the build tree or the sources."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(extra)
    return env


def copy_sources(destination):
    """Copies the checkout's files (tracked or not yet added, not ignored), or, outside a git
    checkout, everything but build trees."""
    listed = subprocess.run(["git", "-C", str(SOURCE), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=False)
    if listed.returncode != 0:
        shutil.copytree(SOURCE, destination, symlinks=True,
                        ignore=shutil.ignore_patterns("build", ".git", "out", "*.egg-info"))
        return
    for name in listed.stdout.decode().split("\0"):
        source = SOURCE / name
        if name and source.is_file():  # not a file deleted from the work tree
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name, follow_symlinks=False)


def cli_lengths():
    done = run([CLI, "plan", SCENE, "--json"], check=False)
    assert done.returncode in (0, 1), describe(done)
    return {row["query"]: row["length"] for row in map(json.loads, done.stdout.splitlines())}


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wheel, virtual environment) once for the module: the wheel built from a copy of the
    sources and installed into a fresh environment that sees the system's packages (numpy)."""
    build_dir = os.environ.get("POLYNAV_BUILD_DIR")
    if not build_dir:
        pytest.skip("POLYNAV_BUILD_DIR (a configured build tree) is not set; ctest sets it")
    tmp = tmp_path_factory.mktemp("package")
    copy = tmp / "src"
    copy_sources(copy)
    wheels = tmp / "wheels"
    cache = pathlib.Path(build_dir) / "CMakeCache.txt"
    configured = cache.stat().st_mtime_ns
    run([PYTHON, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
         "-w", wheels, copy], env=clean_env(POLYNAV_CMAKE_BUILD_DIR=build_dir))
    assert cache.stat().st_mtime_ns == configured, "the wheel's build configured the build tree"
    found = sorted(wheels.glob("polynav-*.whl"))
    assert len(found) == 1, found
    venv = tmp / "venv"
    run([PYTHON, "-m", "venv", "--system-site-packages", venv])
    run([venv / "bin" / "python", "-m", "pip", "install", "--no-deps", "--no-index", found[0]],
        env=clean_env(), cwd=tmp)
    return found[0], venv


def test_the_wheel_is_platform_specific_and_holds_module_tool_and_stubs(installed):
    wheel, _ = installed
    assert not wheel.name.endswith("-none-any.whl"), wheel.name
    assert "linux" in wheel.name.rsplit("-", 1)[1], wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        tool = archive.getinfo("polynav/_bin/polynav")
    assert tool.external_attr >> 16 & 0o111, "polynav/_bin/polynav is not executable"
    assert any(n.startswith("polynav/_polynav") and n.endswith(".so") for n in names), names
    for name in ("polynav/__init__.py", "polynav/__init__.pyi", "polynav/__main__.py",
                 "polynav/py.typed", "polynav/_bin/polynav_http.so"):
        assert name in names, names


def test_the_installed_package_plans_as_the_command_line_does(installed, tmp_path):
    _, venv = installed
    done = run([venv / "bin" / "python", "-c", PLAN_SCRIPT, venv, SCENE], env=clean_env(),
               cwd=tmp_path)
    planned = json.loads(done.stdout)
    expected = cli_lengths()
    assert planned.keys() == expected.keys(), describe(done)
    for name, (status, length) in planned.items():
        assert length == expected[name], (name, status, length, expected[name])


def test_python_m_polynav_and_the_script_are_the_command_line_tool(installed, tmp_path):
    _, venv = installed
    version = run([CLI, "--version"]).stdout
    for command in ([venv / "bin" / "python", "-m", "polynav"], [venv / "bin" / "polynav"]):
        done = run([*command, "--version"], env=clean_env(), cwd=tmp_path)
        assert done.stdout == version, describe(done)

    done = run([venv / "bin" / "python", "-m", "polynav", "plan", SCENE, "--json"], check=False,
               env=clean_env(), cwd=tmp_path)
    assert done.returncode in (0, 1), describe(done)
    lengths = {row["query"]: row["length"] for row in map(json.loads, done.stdout.splitlines())}
    assert lengths == cli_lengths(), describe(done)

    # Exit status passes through: 2 is the tool's status for a command-line error.
    cli = run([CLI, "no-such-subcommand"], check=False)
    assert cli.returncode == 2, describe(cli)
    done = run([venv / "bin" / "python", "-m", "polynav", "no-such-subcommand"], check=False,
               env=clean_env(), cwd=tmp_path)
    assert done.returncode == 2, describe(done)
    assert done.stderr == cli.stderr, describe(done)


def test_the_installed_tool_serves(installed, tmp_path):
    # `serve` loads its HTTP module from beside the tool: the wheel must carry it there.
    _, venv = installed
    server = subprocess.Popen([venv / "bin" / "polynav", "serve", SCENE, "--port", "0", "--quiet"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=clean_env(), cwd=tmp_path)
    try:
        line = server.stdout.readline()
        assert "http://" in line, (line, server.stderr.read() if server.poll() is not None else "")
        url = line[line.index("http://"):].split()[0]
        with urllib.request.urlopen(url + "api/status", timeout=30) as reply:
            assert json.load(reply)["version"] in run([CLI, "--version"]).stdout
    finally:
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) == 0


def test_python_m_polynav_runs_the_tool_in_the_build_tree(tmp_path):
    # PYTHONPATH (set by ctest) points at <build>/python, whose polynav/_bin/polynav is a link to
    # the tool just built.
    version = run([CLI, "--version"]).stdout
    done = run([PYTHON, "-m", "polynav", "--version"], cwd=tmp_path)
    assert done.stdout == version, describe(done)
