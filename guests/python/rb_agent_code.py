"""Agent code never runs as the verifier.

A trusted verifier (DeepGym's `verify(solution_path)`, an episode's step or final verifier) often
loads the code the agent wrote: `import solution`, `importlib.util.spec_from_file_location`,
`runpy.run_path`, `exec(open("solution.py").read())`. Run in the verifier's own sandbox, that
code would be the verifier: it could print a verdict, exit with success, or patch the checks. So
once `install` has run, every such path gives the verifier a module of live-candidate proxies
instead: the agent's code runs in a sandbox of its own, and only data crosses back. Its prints,
exits and exceptions are the agent's (an exit while loading raises in the verifier, which then
fails on the agent's work).

What counts as the agent's code:

- a module loaded from a file under one of the agent's directories (`/solution`, `/workspace`),
  by any loader: `import`, `importlib`, `runpy.run_module`, `SourceFileLoader(...).load_module()`;
  a file there that is byte for byte what the environment itself put there before the agent
  acted (`trusted`) is the environment's, and is loaded as usual; bytecode files there are never
  loaded;
- a file there run by `runpy.run_path`;
- text handed to `compile`, `exec`, `eval` or `ast.parse` by the verifier's own code (not by the
  standard library's machinery) that holds the whole text of one of the agent's files: what was
  read from them is run as the agent's, whatever the verifier added around it; an AST parsed from
  such text stays the agent's when compiled.

A verifier that turns the agent's text into other code before running it (decoding, rewriting) is
not followed: that verifier runs what it made.
"""

import ast
import builtins
import hashlib
import os
import sys

#: The largest file read when looking for the agent's text, and the most read in all.
MAX_FILE_BYTES = 1 << 20
MAX_TOTAL_BYTES = 8 << 20

#: Modules whose calls of `compile`/`exec`/`eval` are machinery, not the verifier's own.
_MACHINERY = ("rb_", "deepgym_solution", "rewardbox", "wit_world", "componentize_py",
              "importlib", "_frozen_importlib")

_original = {
    "compile": builtins.compile,
    "exec": builtins.exec,
    "eval": builtins.eval,
}


class _State:
    dirs = ()
    trusted = {}
    open_module = None
    on_load = None
    texts = None
    sources = {}
    installed = False


def original_compile(*args, **kwargs):
    """`compile` as the interpreter has it, for trusted code."""
    return _original["compile"](*args, **kwargs)


def original_exec(*args, **kwargs):
    """`exec` as the interpreter has it, for trusted code."""
    return _original["exec"](*args, **kwargs)


def _real(path):
    """`path` made absolute and normal (the sandbox's directories hold no links out of them)."""
    try:
        path = os.fspath(path)
        if isinstance(path, bytes):
            path = path.decode("utf-8", "surrogateescape")
        return os.path.normpath(os.path.abspath(path))
    except (TypeError, ValueError, OSError):
        return None


def _agents_file(path):
    """Whether `path` is a file under one of the agent's directories (links followed)."""
    real = _real(path)
    return real is not None and any(real.startswith(d + "/") for d in _State.dirs)


def _digest(data):
    return hashlib.sha256(data).hexdigest()


def _is_trusted(path, data):
    """Whether `path` still holds what the environment put there (`data`: its bytes)."""
    real = _real(path)
    for directory in _State.dirs:
        if real is not None and real.startswith(directory + "/"):
            expected = _State.trusted.get(real[len(directory) + 1:])
            return expected is not None and expected == _digest(data)
    return False


def _read(path):
    with _open_original(path, "rb") as handle:
        return handle.read()


_open_original = open


def _agent_texts():
    """The text of every file of the agent's (not the environment's untouched ones), read once,
    quietly: looking is not consulting the agent's work."""
    if _State.texts is None:
        import rb_sandbox

        with rb_sandbox.quietly():
            _State.texts = _scan()
    return _State.texts


def _scan():
    texts = []
    total = 0
    for directory in _State.dirs:
        for root, dirs, files in os.walk(directory):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                try:
                    if os.path.getsize(path) > MAX_FILE_BYTES:
                        continue
                    data = _read(path)
                except OSError:
                    continue
                total += len(data)
                if total > MAX_TOTAL_BYTES:
                    break
                if _is_trusted(path, data):
                    continue
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    continue
                if text.strip():
                    texts.append(text)
    return texts


def _holds_agent_text(source):
    if isinstance(source, (bytes, bytearray, memoryview)):
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError:
            return False
    if not isinstance(source, str):
        return False
    return any(text in source for text in _agent_texts())


def _from_machinery(depth):
    """Whether the frame `depth` levels up is the standard library's or rewardbox's own code."""
    try:
        frame = sys._getframe(depth + 1)
    except ValueError:
        return True
    name = frame.f_globals.get("__name__") or ""
    top = name.split(".", 1)[0]
    return top in sys.stdlib_module_names or name.startswith(_MACHINERY)


# ---------------------------------------------------------------------------------------------
# Running the agent's code as a live candidate
# ---------------------------------------------------------------------------------------------


def _register(source, filename):
    """Keeps the agent's `source` for a stub to run; its name is a path in the agent's directory
    (where the candidate then runs, as natively)."""
    key = len(_State.sources)
    _State.sources[key] = (source, _in_agents_directory(filename))
    return key


def _in_agents_directory(filename):
    real = _real(filename) if isinstance(filename, (str, bytes)) else None
    if real is not None and any(real.startswith(d + "/") for d in _State.dirs):
        return real
    name = os.path.basename(str(filename)) or "<string>"
    return os.path.join(_State.dirs[0], name) if _State.dirs else name


def _module(key):
    source, filename = _State.sources[key]
    if _State.on_load is not None:
        _State.on_load()
    return _State.open_module(source, filename)


def _public(module):
    names = {}
    for name in dir(module):
        if name.startswith("__"):
            continue
        try:
            names[name] = getattr(module, name)
        except Exception:
            continue
    return names


def _fill(key, namespace):
    """Runs the agent's code `key` as a live candidate; its public names go into `namespace`."""
    namespace.update(_public(_module(key)))


_VALUE = "rb_agent_value"


def _value(key):
    """Evaluates the agent's expression `key` as a live candidate; its value."""
    return getattr(_module(key), _VALUE)


def _stub(source, filename, mode):
    """Code that, run where the agent's `source` would have run, runs it as a live candidate."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = bytes(source).decode("utf-8", "replace")
    if mode == "eval":
        key = _register("%s = (\n%s\n)\n" % (_VALUE, source), filename)
        return _original["compile"]("_rb_agent_value(%d)" % key, filename, "eval")
    key = _register(source, filename)
    return _original["compile"]("_rb_agent_fill(%d, locals())" % key, filename, mode)


# ---------------------------------------------------------------------------------------------
# The hooks
# ---------------------------------------------------------------------------------------------


def _compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **kwargs):
    compile_ = _original["compile"]
    only_ast = flags & ast.PyCF_ONLY_AST
    if isinstance(source, ast.AST):
        if getattr(source, "_rb_agent", False) and not only_ast:
            return _stub(ast.unparse(source), filename, mode)
        return compile_(source, filename, mode, flags, dont_inherit, optimize, **kwargs)
    if _from_machinery(1) or not _holds_agent_text(source):
        return compile_(source, filename, mode, flags, dont_inherit, optimize, **kwargs)
    if only_ast:
        tree = compile_(source, filename, mode, flags, dont_inherit, optimize, **kwargs)
        tree._rb_agent = True
        return tree
    return _stub(source, filename, mode)


def _scope(globals_, locals_, depth):
    """The namespaces `exec`/`eval` use when the caller gives none: the caller's."""
    if globals_ is None:
        frame = sys._getframe(depth + 1)
        globals_ = frame.f_globals
        if locals_ is None:
            locals_ = frame.f_locals
    return globals_, locals_


def _exec(source, globals_=None, locals_=None, /, **kwargs):
    globals_, locals_ = _scope(globals_, locals_, 1)
    if not isinstance(source, type(_exec.__code__)) and not _from_machinery(1) and _holds_agent_text(source):
        source = _stub(source, "<string>", "exec")
    return _original["exec"](source, globals_, locals_, **kwargs)


def _eval(source, globals_=None, locals_=None, /):
    globals_, locals_ = _scope(globals_, locals_, 1)
    if not isinstance(source, type(_eval.__code__)) and not _from_machinery(1) and _holds_agent_text(source):
        source = _stub(source, "<string>", "eval")
    return _original["eval"](source, globals_, locals_)


def _parse(source, filename="<unknown>", mode="exec", *, type_comments=False, feature_version=None,
           optimize=-1):
    tree = _original_parse(source, filename, mode, type_comments=type_comments,
                           feature_version=feature_version, optimize=optimize)
    if not _from_machinery(1) and _holds_agent_text(source):
        tree._rb_agent = True
    return tree


_original_parse = ast.parse


def _install_loaders():
    from importlib import _bootstrap_external as external
    import runpy

    source_get_code = external.SourceLoader.get_code
    sourceless_get_code = external.SourcelessFileLoader.get_code
    run_path = runpy.run_path

    def get_code(loader, fullname):
        path = loader.get_filename(fullname)
        if _agents_file(path):
            data = loader.get_data(path)
            if not _is_trusted(path, data):
                import importlib.util
                source = importlib.util.decode_source(data)
                return _stub(source, path, "exec")
        return source_get_code(loader, fullname)

    def no_bytecode(loader, fullname):
        path = loader.get_filename(fullname)
        if _agents_file(path):
            raise ImportError("rewardbox: bytecode the agent wrote is never loaded (%s)" % path, path=path)
        return sourceless_get_code(loader, fullname)

    def agents_run_path(path_name, init_globals=None, run_name=None):
        path = os.fspath(path_name)
        if _agents_file(path) and os.path.isfile(path):
            data = _read(path)
            if not _is_trusted(path, data):
                namespace = dict(init_globals or {})
                _fill(_register(data.decode("utf-8", "replace"), path), namespace)
                return namespace
        return run_path(path_name, init_globals, run_name)

    external.SourceLoader.get_code = get_code
    external.SourcelessFileLoader.get_code = no_bytecode
    runpy.run_path = agents_run_path


def install(dirs, open_module, trusted=None, on_load=None):
    """From now on, code of the agent's (files under `dirs`, except those `trusted` maps, by
    path relative to their directory, to the SHA-256 of their untouched content) runs as a live
    candidate: `open_module(source, filename)` opens one and returns it as a module of proxies.
    `on_load()` is called before each. Installed once per instance."""
    _State.dirs = tuple(_real(d) or d for d in dirs)
    _State.trusted = dict(trusted or {})
    _State.open_module = open_module
    _State.on_load = on_load
    _State.texts = None
    if _State.installed:
        return
    _State.installed = True
    _install_loaders()
    builtins._rb_agent_fill = _fill
    builtins._rb_agent_value = _value
    builtins.compile = _compile
    builtins.exec = _exec
    builtins.eval = _eval
    ast.parse = _parse
