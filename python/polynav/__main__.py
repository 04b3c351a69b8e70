"""The `polynav` command-line tool from Python: `python -m polynav ARGS` and the `polynav` script
that pip installs both run the tool shipped inside the package (polynav/_bin/polynav) with ARGS.

The tool replaces this process (os.execv), so its output, exit status and signals are exactly those
of the tool run directly.
"""

import os
import sys

# Where the wheel (setup.py) and the CMake build tree (python/CMakeLists.txt) put the tool.
TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "polynav")


def main():
    """Runs the command-line tool with this process's arguments; returns only when it is missing."""
    if not os.access(TOOL, os.X_OK):
        print(f"polynav: the command-line tool is missing ({TOOL}); build the CMake target "
              "polynav_cli, or install the package with `pip install .`", file=sys.stderr)
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(TOOL, [TOOL, *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
