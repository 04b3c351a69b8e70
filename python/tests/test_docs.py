"""The examples in the docs run as written: every docstring example of the package (doctest,
from the source tree, where their scene paths point) and the Python snippets of README.md's
"Using Python" (run in a fresh folder holding only the bundled scenes, as a user would after
installing), and the plotting example."""

import doctest
import os
import pathlib
import re
import subprocess
import sys

import pytest

import polynav

SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))


def documented():
    """Every public object with a docstring: functions, classes and their methods."""
    seen = {"polynav": polynav}
    for name in polynav.__all__:
        item = getattr(polynav, name)
        if isinstance(item, str):
            continue
        seen[f"polynav.{name}"] = item
        if isinstance(item, type):
            for member in dir(item):
                if not member.startswith("_"):
                    seen[f"polynav.{name}.{member}"] = getattr(item, member)
    return seen


@pytest.mark.parametrize("name", sorted(documented()))
def test_docstring_examples(name, monkeypatch):
    item = documented()[name]
    monkeypatch.chdir(SOURCE)
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(item, name, globs={"polynav": polynav}):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"


def readme_snippets():
    """The Python snippets of README.md's "Using Python" section (other sections show code
    that needs a cluster)."""
    text = (SOURCE / "README.md").read_text()
    text = text[text.index("## Using Python"):]
    text = text[:text.index("\n## ", 1)]
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_readme_has_python_snippets():
    assert readme_snippets()


@pytest.mark.parametrize("index", range(len(readme_snippets())))
def test_readme_snippet_runs(index, tmp_path):
    (tmp_path / "scenes").symlink_to(SOURCE / "scenes")
    script = tmp_path / "snippet.py"
    script.write_text(readme_snippets()[index])
    # The package this test imports, wherever it lies (an installed one, or the build tree's).
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(polynav.__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_plotting_example_runs(tmp_path):
    pytest.importorskip("matplotlib")
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(polynav.__file__).resolve().parents[1]))
    image = tmp_path / "path.png"
    done = subprocess.run([sys.executable, str(SOURCE / "examples" / "plot_path.py"),
                           str(SOURCE / "scenes" / "warehouse.yaml"), str(image)],
                          capture_output=True, text=True, timeout=600, check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert image.read_bytes().startswith(b"\x89PNG")
