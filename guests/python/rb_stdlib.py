"""The rest of CPython's standard library, imported on demand from the component itself.

The sandbox has no filesystem to import from, so a module is only importable if it is in the
pre-initialised snapshot. Importing the whole standard library at build time would put every
module's objects in every fresh instance's heap; instead, at build time this module compiles each
standard-library source file that is not already loaded into a code object and keeps it marshalled
and zlib-compressed (a few megabytes of bytes objects that a run never touches unless it imports
them). At run time a meta-path finder serves those modules: `import email` decompresses,
unmarshals and executes `email/__init__.py`'s code as CPython would have from the file, with the
same `__file__`, `__path__` and package layout.

A module whose C part is not in this CPython build (`bz2` needs `_bz2`, say) is still served and
raises the same `ModuleNotFoundError` its import raises natively on a CPython built without it.
"""

import marshal
import os
import sys
import zlib
from importlib.machinery import ModuleSpec

# Directories of the standard library that are not modules a program imports: CPython's own test
# suite, the IDLE editor and the turtle demos (both need Tk), pip's bundled wheels, build config.
_SKIPPED_DIRS = frozenset({
    "test", "tests", "idlelib", "turtledemo", "ensurepip", "site-packages", "lib-dynload",
    "__pycache__", "__phello__",
})


def _module_name(relative):
    """`email/mime/text.py` -> ("email.mime.text", False); `email/__init__.py` -> ("email", True);
    None for a file that is not an importable module."""
    parts = relative[:-3].split(os.sep)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts), is_package


def collect(root):
    """Compiles every standard-library module under `root` that is not loaded yet: name ->
    (is_package, origin path, compressed marshalled code). Files that do not compile with this
    CPython (templates, data written as .py) are left out."""
    table = {}
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in _SKIPPED_DIRS and not d.startswith("config-"))
        for file in sorted(files):
            if not file.endswith(".py"):
                continue
            path = os.path.join(directory, file)
            named = _module_name(os.path.relpath(path, root))
            if named is None:
                continue
            name, is_package = named
            if name in sys.modules or name in table:
                continue
            try:
                with open(path, "rb") as source:
                    code = compile(source.read(), path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError, OSError, UnicodeDecodeError):
                continue
            table[name] = (is_package, path, zlib.compress(marshal.dumps(code), 9))
    return table


class StdlibFinder:
    """Finds standard-library modules in the table built by `collect`, before the path finder
    (which would look for files that are not there at run time)."""

    def __init__(self, table):
        self._table = table

    def names(self):
        """The names of the modules this finder serves (not yet imported ones included)."""
        return set(self._table)

    def find_spec(self, name, path=None, target=None):
        entry = self._table.get(name)
        if entry is None:
            return None
        is_package, origin, _ = entry
        spec = ModuleSpec(name, self, origin=origin, is_package=is_package)
        spec.has_location = True
        if is_package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = module.__spec__.name
        module.__file__ = self._table[name][1]
        exec(self.get_code(name), module.__dict__)

    def is_package(self, name):
        return self._table[name][0]

    def get_code(self, name):
        return marshal.loads(zlib.decompress(self._table[name][2]))

    def get_source(self, name):
        # The sources are not kept (tracebacks into the standard library show no line text).
        return None


def _stdlib_root():
    """The directory the build mounts the standard library at: where `json` was read from (`os`
    is frozen, and its `__file__` names where CPython would install it, not where it is)."""
    import json

    root = os.path.dirname(os.path.dirname(json.__file__))
    if not os.path.isfile(os.path.join(root, "json", "decoder.py")):
        raise RuntimeError(f"rb_stdlib: no standard library at {root}")
    return root


def install(packages=()):
    """Builds the table from the standard library the build mounts, and from `packages`
    (directories holding packages the component carries besides it: the test frameworks), and puts
    its finder on `sys.meta_path` just before the path finder. Called once, at build time."""
    table = collect(_stdlib_root())
    for root in packages:
        table.update(collect(root))
    finder = StdlibFinder(table)

    position = len(sys.meta_path)
    for index, entry in enumerate(sys.meta_path):
        if getattr(entry, "__name__", "") == "PathFinder":
            position = index
            break
    sys.meta_path.insert(position, finder)
    return finder
