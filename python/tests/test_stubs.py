"""The type stubs (polynav/__init__.pyi) against the module itself: the same public names, the
same methods and properties on each class, and the same parameters, in order, with defaults
where the module has them. The module's signatures are read as help() shows them (Python's
inspect, or the signature line pybind11 writes at the top of a C++ function's docstring)."""

import ast
import inspect
import pathlib

import pytest

import polynav
from polynav import _parameter_names

STUBS = pathlib.Path(polynav.__file__).with_name("__init__.pyi")
TREE = ast.parse(STUBS.read_text())
CLASSES = {node.name: node for node in TREE.body if isinstance(node, ast.ClassDef)}
FUNCTIONS = {node.name: node for node in TREE.body if isinstance(node, ast.FunctionDef)}


def stub_parameters(function):
    """Parameter names and whether each has a default, without self and **kwargs."""
    a = function.args
    positional = a.posonlyargs + a.args
    defaults = [False] * (len(positional) - len(a.defaults)) + [True] * len(a.defaults)
    out = [(arg.arg, d) for arg, d in zip(positional, defaults)]
    out += [(arg.arg, d is not None) for arg, d in zip(a.kwonlyargs, a.kw_defaults)]
    return [(name, d) for name, d in out if name != "self"]


def runtime_parameters(function):
    """The same for the module's function: from inspect, or pybind11's signature line."""
    try:
        parameters = inspect.signature(function).parameters.values()
        return [(p.name, p.default is not p.empty) for p in parameters
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY, p.POSITIONAL_ONLY)
                and p.name != "self"]
    except (TypeError, ValueError):
        first = function.__doc__.lstrip().split("\n", 1)[0]
        names = _parameter_names(function)
        inside = first[first.find("(") + 1:first.rfind(")")]
        return [(name, f"{name}: " in inside and _has_default(inside, name)) for name in names]


def _has_default(signature, name):
    """Whether `name: type = default` appears in a pybind11 signature line."""
    start = signature.index(f"{name}: ")
    depth = 0
    for char in signature[start:]:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            return False
        elif char == "=" and depth == 0:
            return True
    return False


def public(names):
    return sorted(n for n in names if not n.startswith("_"))


def test_every_public_name_has_a_stub_and_every_stub_a_name():
    stubbed = set(CLASSES) | set(FUNCTIONS) | {
        t.id for node in TREE.body if isinstance(node, ast.AnnAssign)
        for t in [node.target] if isinstance(t, ast.Name)}
    exported = set(polynav.__all__)
    assert exported - stubbed == set(), "names without a stub"
    assert {n for n in stubbed if n in dir(polynav)} >= exported
    for name in set(CLASSES) | set(FUNCTIONS):
        assert hasattr(polynav, name), f"stub {name} has no counterpart"
        assert name in exported, f"{name} is stubbed but not in __all__"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_parameters_match(name):
    assert stub_parameters(FUNCTIONS[name]) == runtime_parameters(getattr(polynav, name))


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_class_members_match(name):
    cls = getattr(polynav, name)
    node = CLASSES[name]
    members = {item.name: item for item in node.body if isinstance(item, ast.FunctionDef)}
    annotated = {item.target.id for item in node.body if isinstance(item, ast.AnnAssign)}
    if name == "InputError":
        assert annotated == {"file", "line", "column", "key"}
        error = polynav.InputError("m", "f", 1, 2, "k")
        assert (error.file, error.line, error.column, error.key) == ("f", 1, 2, "k")
        return
    runtime = {n for n in dir(cls) if not n.startswith("_")}
    stubbed = {n for n in members if not n.startswith("_")} | annotated
    assert public(runtime) == public(stubbed), f"{name}: members differ"
    for member, item in members.items():
        if member.startswith("__") and member != "__init__":
            assert hasattr(cls, member), f"{name}.{member}"
            continue
        attribute = inspect.getattr_static(cls, member)
        is_property = any(isinstance(d, ast.Name) and d.id == "property"
                          for d in item.decorator_list)
        assert is_property == isinstance(attribute, property), f"{name}.{member}"
        if not is_property:
            assert stub_parameters(item) == runtime_parameters(getattr(cls, member)), \
                f"{name}.{member}"


def test_signatures_name_their_types():
    # pybind11 shows the types the functions take; no argument is a bare "handle" or "object".
    for function in (polynav.Planner.plan, polynav.Planner.plan_many, polynav.Planner.reach,
                     polynav.load_scene, polynav.scene_from_occupancy, polynav.Planner.__init__):
        first = function.__doc__.lstrip().split("\n", 1)[0]
        assert "handle" not in first and ": object" not in first, first


def test_every_public_function_and_class_has_a_docstring_with_an_example():
    for name in polynav.__all__:
        item = getattr(polynav, name)
        if name == "__version__":
            continue
        assert item.__doc__ and ">>> " in item.__doc__, f"{name} has no example"
    for cls in (polynav.Planner, polynav.PlanResult):
        for member in ("plan", "plan_many", "reach", "to_json", "to_ros_path"):
            if hasattr(cls, member):
                assert ">>> " in getattr(cls, member).__doc__, f"{cls.__name__}.{member}"
