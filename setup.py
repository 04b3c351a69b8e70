"""Builds the `polynav` Python package with CMake (the metadata is in pyproject.toml):

    python3 -m pip install --no-build-isolation .
    python3 -m pip wheel --no-build-isolation --no-deps -w dist .

The extension module and the command-line tool are built by CMake in build/python-package (kept,
so that the next install is incremental), or in the already configured build tree named by
POLYNAV_CMAKE_BUILD_DIR, and copied into the package. Both link the system's shared libraries
(GMP, MPFR, yaml-cpp, GEOS), so the wheel works where the same Debian libraries are installed.
"""

import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
# The end of every failure message: what a build of the package needs.
NEEDS = ("scripts/setup.sh installs the Debian packages polynav builds with (cmake, "
         "build-essential, pybind11-dev, python3-dev and the libraries)")
# The module `polynav serve` loads from beside the tool (src/cli/CMakeLists.txt).
HTTP_MODULE = "polynav_http.so"


def project_version():
    """The version in the `project(polynav VERSION x.y.z` line of CMakeLists.txt."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(polynav\s+VERSION\s+([0-9.]+)", f.read())
    if not match:
        sys.exit("setup.py: no `project(polynav VERSION ...)` line in CMakeLists.txt")
    return match.group(1)


def cmake_true(value):
    """Whether CMake reads a cache value as true."""
    return (value or "").upper() in ("1", "ON", "YES", "TRUE", "Y")


def cmake_cache(build_dir):
    """The build tree's CMakeCache.txt as {name: value}."""
    cache = {}
    with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            match = re.match(r"([^#/][^:=]*):[A-Z]+=(.*)", line.rstrip("\n"))
            if match:
                cache[match.group(1)] = match.group(2)
    return cache


class CMakeExtension(Extension):
    """The `polynav._polynav` module, built by CMake rather than from listed sources. That the
    distribution has an extension makes its wheel platform-specific."""

    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Builds the module and the tool with CMake and puts both into the package."""

    def build_extension(self, ext):
        cmake = shutil.which("cmake")
        if cmake is None:
            sys.exit(f"setup.py: cmake not found; {NEEDS}")
        build_dir = os.environ.get("POLYNAV_CMAKE_BUILD_DIR")
        if build_dir:
            build_dir = os.path.abspath(build_dir)
            if not os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
                sys.exit(f"setup.py: POLYNAV_CMAKE_BUILD_DIR={build_dir} is not a configured "
                         "CMake build tree")
        else:
            build_dir = os.path.join(ROOT, "build", "python-package")
            self.run_cmake([cmake, "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                            "-DPOLYNAV_BUILD_TESTS=OFF", "-DPOLYNAV_BUILD_BENCH=OFF",
                            "-DPOLYNAV_BUILD_EXAMPLES=OFF", "-DPOLYNAV_BUILD_PYTHON=ON",
                            f"-DPython_EXECUTABLE={sys.executable}"], "configure")
        cache = cmake_cache(build_dir)
        # python/CMakeLists.txt sets POLYNAV_PYTHON_MODULE when it adds the module's target.
        if not (cmake_true(cache.get("POLYNAV_BUILD_PYTHON"))
                and cmake_true(cache.get("POLYNAV_PYTHON_MODULE"))):
            sys.exit(f"setup.py: CMake skipped the Python module in {build_dir}: it needs "
                     f"POLYNAV_BUILD_PYTHON=ON, pybind11-dev and python3-dev; {NEEDS}")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        # Building polynav_python also links <build>/python/polynav/_bin/polynav to the tool.
        self.run_cmake([cmake, "--build", build_dir, "--target", "polynav_python", "polynav_cli",
                        "-j", jobs], "build")

        built = os.path.join(build_dir, "python", "polynav")
        module = os.path.join(built, os.path.basename(self.get_ext_filename(ext.name)))
        if not os.path.isfile(module):
            found = sorted(n for n in os.listdir(built) if n.startswith("_polynav"))
            sys.exit(f"setup.py: {module} was not built; {build_dir} holds {found or 'none'}, "
                     f"built for the Python its cache names (Python_EXECUTABLE="
                     f"{cache.get('Python_EXECUTABLE')}), not for {sys.executable}")
        target = self.get_ext_fullpath(ext.name)
        tool = os.path.join(os.path.dirname(target), "_bin", "polynav")
        os.makedirs(os.path.dirname(tool), exist_ok=True)
        self.install_binary(module, target)
        real_tool = os.path.realpath(os.path.join(built, "_bin", "polynav"))
        self.install_binary(real_tool, tool)
        # `polynav serve` loads its HTTP module from beside the tool.
        self.install_binary(os.path.join(os.path.dirname(real_tool), HTTP_MODULE),
                            os.path.join(os.path.dirname(tool), HTTP_MODULE))

    def copy_extensions_to_source(self):
        """`build_ext --inplace` and `pip install -e`: the tool goes next to the module, into
        python/polynav/ (.gitignore lists both)."""
        super().copy_extensions_to_source()
        package = self.get_finalized_command("build_py").get_package_dir("polynav")
        self.mkpath(os.path.join(package, "_bin"))
        for name in ("polynav", HTTP_MODULE):
            self.copy_file(os.path.join(self.build_lib, "polynav", "_bin", name),
                           os.path.join(package, "_bin", name))

    def run_cmake(self, command, step):
        print(" ".join(command), flush=True)
        if subprocess.run(command, check=False).returncode != 0:
            sys.exit(f"setup.py: the CMake {step} step failed (see above); {NEEDS}")

    def install_binary(self, source, target):
        """Copies a binary, its mode included, without the symbols it does not need to run (a
        quarter of the tool's size; pybind11 already strips the module in Release builds, not in
        others)."""
        print(f"copying {source} -> {target}", flush=True)
        shutil.copy2(source, target)
        strip = shutil.which("strip")
        if strip:
            subprocess.run([strip, "--strip-unneeded", target], check=True)


setup(
    version=project_version(),
    packages=["polynav"],
    package_dir={"polynav": "python/polynav"},
    package_data={"polynav": ["__init__.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("polynav._polynav")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
