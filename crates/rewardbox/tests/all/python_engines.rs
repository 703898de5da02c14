//! Python's two engines on the same programs: Monty (the fast tier) against CPython (the
//! reference). Under `auto`, Monty's outcome stands only when the run ended normally, so the
//! property that keeps verdicts unchanged is: **whenever Monty, screened as `auto` screens a
//! program, ends it normally, CPython ends it normally with the same stdout.** (Stderr may differ:
//! CPython's compile-time `SyntaxWarning`s, which no verdict reads.) It is checked here on
//!
//! - a table of programs written for it, construct by construct (numbers and their printing,
//!   strings, containers, classes, exceptions, `input()` and `sys.stdin` and their edge cases, `sys.exit`,
//!   `print`'s arguments, recursion, modules);
//! - every HumanEval problem run as a program (prompt, canonical solution, test, `check`), and
//!   each with a wrong body;
//! - the Python programs of the bundled examples with their stdin.
//!
//! It also checks that `auto` gives CPython's outcome on every one of them, and that Monty's fuel
//! budget under `auto` is small enough: on the calibration programs, CPython never burns more
//! than [`CPYTHON_FUEL_PER_MONTY_FUEL`] times Monty's fuel.

use crate::common;

use rewardbox::Limits;
use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::{CPYTHON_FUEL_PER_MONTY_FUEL, MONTY_FUEL_CAP, monty_limits};
use rewardbox::candidates::{RunOutcome, RunStatus};
use rewardbox::{PythonEngine, Scorer};
use rewardbox_languages::python_engine::AUTO_MARKER;
use serde_json::Value;

/// Programs and their stdin, each a construct Monty runs or must hand to CPython.
const PROGRAMS: &[(&str, &str, &str)] = &[
    ("print", "print(1)", ""),
    (
        "print many",
        "print(1, 'a', None, True, 2.5, sep='-', end='!\\n')",
        "",
    ),
    (
        "print empty",
        "print()\nprint('', end='')\nprint('x', end='')",
        "",
    ),
    (
        "print stderr",
        "import sys\nprint('out')\nprint('err', file=sys.stderr)",
        "",
    ),
    (
        "float repr",
        "for x in [0.1+0.2, 1e16, 1e-7, 1/3, 2.0, -0.0, 1e300*10, float('nan'), 123456789.123456789, 5e-324, 1.5e22]:\n    print(x, repr(x), str(x))",
        "",
    ),
    (
        "float ops",
        "print(7/2, 7//2, -7//2, 7%3, -7%3, 7.5%2, -7.5%2, 2**-1, 2**0.5, divmod(-7, 2), divmod(7.5, 2))",
        "",
    ),
    (
        "round",
        "print(round(2.5), round(3.5), round(-0.5), round(1.25, 1), round(2.675, 2), round(1234, -2), round(0.5))",
        "",
    ),
    (
        "big ints",
        "x = 2**200\nprint(x, x*x - 1, x // 3, x % 97, -x // 7, hex(x), bin(12345678901234567890), oct(-8))\nprint(pow(3, 200, 10**9+7), abs(-10**30))",
        "",
    ),
    (
        "int parsing",
        "print(int('  42 '), int('-0'), int('ff', 16), int('0b101', 0), int('1_000'), float(' 3.5 '), float('inf'), int(3.99), int(-3.99))",
        "",
    ),
    (
        "int errors",
        "try:\n    int('x')\nexcept ValueError as e:\n    print('ValueError', e)",
        "",
    ),
    (
        "formatting",
        "x = 3.14159\nprint(f'{x:.2f} {x:10.3f}| {42:05d} {42:x} {42:>6} {\"s\":<4}| {1e6:,.1f} {0.5:%} {x!r} {12345.678:e}')\nprint('%d %s %.3f %5s|%-5s|' % (7, 'a', 2.5, 'r', 'l'))\nprint('{} {:>3} {name}'.format(1, 2, name='n'))",
        "",
    ),
    (
        "strings",
        "s = 'Hello, World'\nprint(s.lower(), s.upper(), s.swapcase(), s.title(), s[::-1], s[2:5], s[-3:], s.split(', '), s.find('o'), s.rfind('o'), s.count('l'))\nprint(s.replace('l', 'L', 2), s.startswith('He'), s.endswith('x'), s.center(20, '*'), s.zfill(15), '  a b  '.strip(), ','.join(['a','b']))\nprint('a1'.isalnum(), '12'.isdigit(), ' '.isspace(), 'Ab'.istitle(), 'x'.isidentifier(), 'abc'.partition('b'), 'a b  c'.split(), 'a\\nb\\r\\nc'.splitlines())",
        "",
    ),
    (
        "unicode",
        "s = 'héllo wörld ☃ 日本'\nprint(s, len(s), s.upper(), s.encode('utf-8'), [ord(c) for c in s[:3]], chr(9731), s.casefold())",
        "",
    ),
    (
        "repr",
        "print(repr('a\\'b\"c\\n'), repr([1, 'x', (2,), {3: 'y'}, {4}, None, 1.0]), repr(b'\\x00ab'), repr(()), repr((1,)), repr(set()), str({'a': [1, 2]}))",
        "",
    ),
    (
        "containers",
        "xs = [3, 1, 2]\nxs.sort()\nprint(xs, sorted('cba'), sorted([3, 1, 2], reverse=True), list(reversed(xs)), xs.index(2), xs.pop(), xs + [9] * 2)\nd = {'b': 1, 'a': 2}\nd['c'] = 0\nprint(d, list(d), sorted(d.items(), key=lambda kv: kv[1]), d.get('z', 5), d.pop('a'), d, {**d, 'q': 1})\ns = {3, 1, 2}\nprint(sorted(s | {5}), sorted(s & {1, 9}), sorted(s - {1}), 2 in s, len(s))\nt = (1, 2, 3)\nprint(t[1:], t * 2, t.count(1), max(t), min(t), sum(t), any(t), all([]))",
        "",
    ),
    (
        "comprehensions",
        "print([i*i for i in range(5) if i % 2], {i: i % 3 for i in range(4)}, {c for c in 'abca'}, sum(i for i in range(10)))\nprint(list(zip('ab', [1, 2, 3])), list(enumerate('xy', 1)), list(map(str, [1, 2])), list(filter(None, [0, 1, '', 'a'])))",
        "",
    ),
    (
        "sorting stability",
        "pairs = [(1, 'b'), (0, 'z'), (1, 'a'), (0, 'y')]\nprint(sorted(pairs, key=lambda p: p[0]))\nprint(sorted(['B', 'a', 'C'], key=str.lower), sorted([3, -1, 2], key=abs))",
        "",
    ),
    (
        "generators",
        "def gen(n):\n    for i in range(n):\n        yield i * 2\nprint(list(gen(4)), next(iter([7])))",
        "",
    ),
    (
        "functions",
        "def f(a, b=2, *args, c=3, **kw):\n    return a, b, args, c, sorted(kw.items())\nprint(f(1), f(1, 5, 6, 7, c=8, z=9))\nprint((lambda *a: len(a))(1, 2, 3))\ndef outer():\n    x = 1\n    def inner():\n        nonlocal x\n        x += 1\n        return x\n    return inner()\nprint(outer())",
        "",
    ),
    (
        "classes",
        "class P:\n    def __init__(self, x):\n        self.x = x\n    def __repr__(self):\n        return f'P({self.x})'\n    def __lt__(self, o):\n        return self.x < o.x\nprint(sorted([P(3), P(1)]), P(2).x)",
        "",
    ),
    (
        "inheritance",
        "class A:\n    def f(self):\n        return 'A'\nclass B(A):\n    def f(self):\n        return 'B' + super().f()\nprint(B().f())",
        "",
    ),
    (
        "dataclass",
        "from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\n    y: int = 0\nprint(P(1), P(1, 2) == P(1, 2))",
        "",
    ),
    (
        "exceptions caught",
        "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    print('caught', e)\nfinally:\n    print('finally')\ntry:\n    [][1]\nexcept IndexError as e:\n    print(type(e).__name__, e)\ntry:\n    {}['k']\nexcept KeyError as e:\n    print(repr(e))",
        "",
    ),
    (
        "exception uncaught",
        "print('before')\nraise ValueError('boom')",
        "",
    ),
    ("assert fails", "assert 1 == 2", ""),
    ("name error", "print(undefined_name)", ""),
    ("syntax error", "print(1\n", ""),
    (
        "recursion",
        "import sys\ndef fact(n):\n    return 1 if n == 0 else n * fact(n - 1)\nprint(fact(300) % 1000007)",
        "",
    ),
    (
        "recursion too deep",
        "def f(n):\n    return f(n + 1)\nf(0)",
        "",
    ),
    (
        "recursion limit raised",
        "import sys\nsys.setrecursionlimit(10000)\ndef f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(5000))",
        "",
    ),
    (
        "input",
        "a, b = map(int, input().split())\nprint(a + b)",
        "3 4\n",
    ),
    (
        "input no final newline",
        "print(input()[::-1])\nprint(input())",
        "abc\nlast",
    ),
    (
        "input crlf",
        "print(repr(input()), repr(input()))",
        "a b\r\nc\rd\n",
    ),
    (
        "input prompt",
        "x = input('name? ')\nprint('hi', x)",
        "bob\n",
    ),
    ("input prompt non-string", "x = input(5)\nprint(x)", "y\n"),
    (
        "input eof caught",
        "lines = []\nwhile True:\n    try:\n        lines.append(input())\n    except EOFError:\n        break\nprint(len(lines), lines)",
        "a\nb\n",
    ),
    (
        "input eof uncaught",
        "print(input())\nprint(input())",
        "only\n",
    ),
    (
        "input many lines",
        "n = int(input())\nprint(sum(int(input()) for _ in range(n)))",
        "5\n1\n2\n3\n4\n5\n",
    ),
    (
        "input blank lines",
        "print(repr(input()), repr(input()), repr(input()))",
        "\n\nx\n",
    ),
    ("input whitespace", "print(repr(input()))", "  spaced  \t\n"),
    ("input unicode", "print(input().upper())", "grüße ☃\n"),
    (
        "sys.stdin",
        "import sys\ndata = sys.stdin.read().split()\nprint(sum(map(int, data)))",
        "1 2 3\n",
    ),
    (
        "sys.stdin readline",
        "import sys\ninput = sys.stdin.readline\nprint(int(input()) * 2)",
        "21\n",
    ),
    (
        "stdin readline alias",
        "import sys\ninput = sys.stdin.readline\nn = int(input())\nxs = list(map(int, input().split()))\nprint(n, sum(xs), repr(input()), repr(input()))",
        "3\n1 2 3\nlast",
    ),
    (
        "stdin readline eof",
        "import sys\nprint(repr(sys.stdin.readline()), repr(sys.stdin.readline()), repr(sys.stdin.readline()))",
        "a\r\n",
    ),
    (
        "stdin read twice",
        "import sys\na = sys.stdin.read()\nb = sys.stdin.read()\nprint(repr(a), repr(b), a.split())",
        "1 2\n3\n\n",
    ),
    (
        "stdin readlines",
        "import sys\nlines = sys.stdin.readlines()\nprint(len(lines), lines, sys.stdin.readlines())",
        "x\ny\n\nz",
    ),
    (
        "stdin mixed",
        "import sys\nfirst = input()\nsecond = sys.stdin.readline()\nrest = sys.stdin.read()\nprint(repr(first), repr(second), repr(rest))",
        "a\nb\nc\nd",
    ),
    (
        "from sys import stdin",
        "from sys import stdin\nn = int(stdin.readline())\nprint(sum(int(stdin.readline()) for _ in range(n)))",
        "2\n5\n6\n",
    ),
    (
        "stdin in a function",
        "import sys\ndef main():\n    data = sys.stdin.read().split()\n    print(max(map(int, data)))\nmain()",
        "4 9 2",
    ),
    (
        "stdin read sized",
        "import sys\nprint(sys.stdin.read(2))",
        "abcdef",
    ),
    (
        "stdin iterated",
        "import sys\nfor line in sys.stdin:\n    print(line.strip()[::-1])",
        "ab\ncd\n",
    ),
    (
        "stdin buffer",
        "import sys\nprint(sys.stdin.buffer.read().split())",
        "1 2\n",
    ),
    (
        "stdin readline strip",
        "import sys\nt = int(sys.stdin.readline())\nfor _ in range(t):\n    s = sys.stdin.readline().strip()\n    print(s.upper() if s else 'EMPTY')",
        "3\nab\n\ncd\n",
    ),
    (
        "stdin unicode",
        "import sys\nprint(sys.stdin.read().strip()[::-1])",
        "grüße ☃\n",
    ),
    (
        "stdin shadowed sys",
        "sys = None\nimport sys as system\nprint(system.stdin.readline().strip())",
        "q\n",
    ),
    ("open stdin", "print(open(0).read().strip())", "x\n"),
    (
        "sys.exit string zero",
        "import sys\nprint('a')\nsys.exit('0')",
        "",
    ),
    (
        "sys.exit string none",
        "import sys\nprint('a')\nsys.exit('None')",
        "",
    ),
    (
        "sys.exit true",
        "import sys\nprint('a')\nsys.exit(True)",
        "",
    ),
    (
        "sys.exit false",
        "import sys\nprint('a')\nsys.exit(False)",
        "",
    ),
    ("sys.exit 256", "import sys\nprint('a')\nsys.exit(256)", ""),
    (
        "sys.exit minus one",
        "import sys\nprint('a')\nsys.exit(-1)",
        "",
    ),
    (
        "sys.exit none explicit",
        "import sys\nprint('a')\nsys.exit(None)",
        "",
    ),
    (
        "sys.exit float",
        "import sys\nprint('a')\nsys.exit(0.0)",
        "",
    ),
    (
        "sys.exit empty string",
        "import sys\nprint('a')\nsys.exit('')",
        "",
    ),
    ("sys.exit list", "import sys\nprint('a')\nsys.exit([])", ""),
    ("raise SystemExit", "print('a')\nraise SystemExit", ""),
    ("raise SystemExit 0", "print('a')\nraise SystemExit(0)", ""),
    (
        "raise SystemExit two args",
        "print('a')\nraise SystemExit(0, 1)",
        "",
    ),
    ("quit", "print('a')\nquit()", ""),
    (
        "sys.exit 0",
        "import sys\nprint('a')\nsys.exit(0)\nprint('b')",
        "",
    ),
    ("sys.exit none", "import sys\nprint('a')\nsys.exit()", ""),
    ("sys.exit 3", "import sys\nprint('a')\nsys.exit(3)", ""),
    ("sys.exit message", "import sys\nsys.exit('bye')", ""),
    ("exit builtin", "print('a')\nexit(0)", ""),
    (
        "system exit caught",
        "import sys\ntry:\n    sys.exit(2)\nexcept SystemExit as e:\n    print('code', e.code)\nprint('after')",
        "",
    ),
    (
        "math",
        "import math\nprint(math.sqrt(2), math.pi, math.floor(-2.5), math.ceil(2.1), math.gcd(12, 18), math.factorial(20), math.isqrt(10**20), math.log(100, 10), math.inf, math.comb(10, 3))",
        "",
    ),
    (
        "collections",
        "from collections import Counter, defaultdict, deque\nc = Counter('abracadabra')\nprint(c.most_common(2), sorted(c.items()))\nd = defaultdict(list)\nd['a'].append(1)\nprint(dict(d))\nq = deque([1, 2])\nq.appendleft(0)\nq.append(3)\nprint(list(q), q.popleft(), q.pop())",
        "",
    ),
    (
        "itertools",
        "import itertools\nprint(list(itertools.permutations([1, 2, 3], 2)), list(itertools.combinations('abc', 2)), list(itertools.accumulate([1, 2, 3])), list(itertools.product('ab', repeat=2)))",
        "",
    ),
    (
        "heapq bisect",
        "import heapq, bisect\nh = [5, 1, 4]\nheapq.heapify(h)\nprint(heapq.heappop(h), heapq.nsmallest(2, [9, 3, 7]), bisect.bisect_left([1, 2, 4], 3), bisect.insort([1, 3], 2))",
        "",
    ),
    (
        "json",
        "import json\nprint(json.dumps({'b': [1, 2.5, None, True], 'a': 'é'}), json.loads('[1, {\"x\": 2}]'), json.dumps({'a': 1}, indent=2, sort_keys=True))",
        "",
    ),
    (
        "re",
        "import re\nprint(re.findall(r'\\d+', 'a12b345'), re.sub(r'(\\w)(\\d)', r'\\2\\1', 'a1 b2'), bool(re.match(r'^a.c$', 'abc')), re.split(r'[,;]', 'a,b;c'))",
        "",
    ),
    (
        "random seeded",
        "import random\nrandom.seed(1)\nprint(random.random(), random.randint(1, 100), random.choice('abc'))",
        "",
    ),
    ("time", "import time\nt = time.time()\nprint(t > 0)", ""),
    (
        "unsupported module",
        "import fractions\nprint(fractions.Fraction(1, 3) + fractions.Fraction(1, 6))",
        "",
    ),
    (
        "match statement",
        "x = (1, 2)\nmatch x:\n    case (1, y):\n        print('one', y)\n    case _:\n        print('other')",
        "",
    ),
    (
        "global state",
        "count = 0\ndef inc():\n    global count\n    count += 1\nfor _ in range(5):\n    inc()\nprint(count)",
        "",
    ),
    (
        "walrus and ternary",
        "xs = [1, 5, 10]\nprint([y for x in xs if (y := x * 2) > 5], 'big' if len(xs) > 2 else 'small')",
        "",
    ),
    (
        "string multiplication and slicing",
        "s = 'ab' * 3\nprint(s, s[1::2], s[-1:-4:-1], s[10:], 'x'[5:])",
        "",
    ),
    (
        "bool arithmetic",
        "print(True + True, True * 3, int(False), 1 == 1.0, 1 is 1, None is None, [] == [], (1, 2) < (1, 3), 'a' < 'b')",
        "",
    ),
    (
        "chained comparisons",
        "x = 5\nprint(1 < x < 10, 1 < x > 10, x == 5 == 5.0)",
        "",
    ),
    (
        "integer overflow free",
        "x = 1\nfor i in range(1, 60):\n    x *= i\nprint(x, x.bit_length(), len(str(x)))",
        "",
    ),
    (
        "hash of str not shown",
        "print(len({hash('a'), hash('a')}))",
        "",
    ),
    (
        "dict ordering",
        "d = {}\nfor k in [3, 1, 2, 1]:\n    d[k] = d.get(k, 0) + 1\nprint(d, list(d.keys()), list(d.values()))\ndel d[1]\nd[1] = 9\nprint(d)",
        "",
    ),
    ("set printing order", "print({1, 2, 3}, {'a'})", ""),
    (
        "long output",
        "for i in range(2000):\n    print(i, i * i)",
        "",
    ),
    ("output limit", "print('x' * 2_000_000)", ""),
    ("endless loop", "while True:\n    pass", ""),
    (
        "memory hog",
        "xs = []\nwhile True:\n    xs.append('x' * 10**6)",
        "",
    ),
    (
        "string building",
        "s = ''\nfor i in range(10000):\n    s += str(i % 10)\nprint(len(s), s[:20])",
        "",
    ),
    (
        "nested data",
        "grid = [[0] * 3 for _ in range(3)]\ngrid[1][1] = 5\nprint(grid, [row[:] for row in grid][1])\nm = [[1, 2], [3, 4]]\nprint([list(r) for r in zip(*m)])",
        "",
    ),
    (
        "type names",
        "print(type(1), type('a'), type([]), type(None).__name__, isinstance(True, int), type(1.0) is float)",
        "",
    ),
    (
        "str of objects",
        "class X:\n    pass\nprint(X() is not None, str(X)[:7])",
        "",
    ),
    (
        "print flush",
        "print('a', flush=True)\nprint('b', end='', flush=True)",
        "",
    ),
    (
        "del and scopes",
        "x = [1, 2, 3]\ndel x[0]\nprint(x)\ny = 1\ndel y\ntry:\n    print(y)\nexcept NameError as e:\n    print('NameError', e)",
        "",
    ),
    (
        "global builtins shadowed",
        "list = [1, 2]\nprint(list, sum(list))",
        "",
    ),
    (
        "string escapes",
        "print('tab\\there', 'nl\\\\n', r'raw\\n', '\\u00e9', b'bytes'.decode(), 'a' '\"b\"')",
        "",
    ),
    (
        "bytes",
        "b = bytes([104, 105])\nprint(b, b.decode(), list(b), b.hex(), bytearray(b'ab'), b'x' * 3, b[::-1])",
        "",
    ),
    (
        "complex",
        "z = complex(1, 2)\nprint(z, z * z, abs(3 + 4j), z.real, (1j) ** 2)",
        "",
    ),
    ("divmod zero", "print(divmod(7, 0))", ""),
    (
        "float int mix",
        "print(10 / 5, 10 // 5.0, 2 ** 10, 2 ** 100, 10 ** -2, 0.1 * 3, 1e3, int(1e3), 3 * 1.1)",
        "",
    ),
    (
        "min max keys",
        "print(max(['aa', 'b', 'ccc'], key=len), min([], default=0), max(3, 1, 2), min('bca'))",
        "",
    ),
    (
        "format specs",
        "for x in [0.0001234, 123456.789, 1e22, 1e-5, 0.5, 2.5, 1/3, 100.0, -0.0, 12345678901234567890.0]:\n    print('%g|%.3g|%e|%.10f|%s' % (x, x, x, x, x), f'{x:g}|{x:.2e}|{x:,.2f}|{x:+.1f}|{x:^12.4}|{x:.0f}|{x:08.2f}')",
        "",
    ),
    (
        "int format specs",
        "for n in [0, 7, -7, 255, 10**12, -2**40]:\n    print(f'{n:b}|{n:o}|{n:x}|{n:X}|{n:#x}|{n:,}|{n:_}|{n:+d}|{n:>8}|{n:<8}|{n:^8}|{n:08d}|{n:e}', '%5d|%-5d|%x|%o|%c' % (n, n, n & 255, n & 255, 65 + (n & 7)))",
        "",
    ),
    (
        "float edge printing",
        "print(1e16, 1e15, 123456789012345678.0, 0.1 + 0.7, 1.1 * 3, 3.0 * 1.1, 2.0 ** 53 + 1, 1e-4, 1e-5, 9.999999999999999e22, float('-inf'), -float('nan'))\nprint(str(0.30000000000000004), repr(1.0), 4.35 * 100, 0.1 ** 10, 10 / 3, -10 / 3, 7.0 // 2, -7.0 // 2, 1e308 * 10)",
        "",
    ),
    (
        "division semantics",
        "print(-7 // 2, -7 % 2, 7 // -2, 7 % -2, -7.5 // 2, -7.5 % 2, 5 % 0.3, divmod(-9, 4), pow(2, -2), pow(-8, 1/3) if False else 0, 10**20 // 3, -(10**20) // 7, 10**20 / 3)",
        "",
    ),
    (
        "string formatting width",
        "print('%-10s|%10s|%.2s|%r' % ('ab', 'cd', 'xyz', 'q'))\nprint('{:*^11}|{:>+7.2f}|{!s:>5}|{0}'.format('mid', 3.14159, None))\nprint('abc'.ljust(6, '.') + '|', 'abc'.rjust(6) + '|', format(3.5, '.0f'), format(4.5, '.0f'), format(1234567, ','))",
        "",
    ),
    (
        "numeric conversions",
        "print(int('0x1f', 16), int('z', 36), float('1e3'), float('-.5'), int(True), float(7), str(10**30), int(' 12_3 '), bool(''), bool('0'), bool(0.0), abs(-0.0))",
        "",
    ),
    (
        "str methods 2",
        "s = 'a,b,,c'\nprint(s.split(','), s.split(',', 1), s.rsplit(',', 1), s.strip(','), 'aaa'.replace('a', 'b', 0), 'Hello'.index('l'), 'x y'.title(), 'ß'.upper(), 'İ'.lower(), len('İ'.lower()), 'abc'.translate({97: 'A'}), 'tab\\tx'.expandtabs(4))",
        "",
    ),
    (
        "sorting mixed keys",
        "data = [('b', 2), ('a', 2), ('c', 1)]\nprint(sorted(data, key=lambda t: (-t[1], t[0])), sorted([0.5, -1, 3, 2.5]), sorted(['10', '9', '1']), sorted([[2, 1], [1, 2], [1]]))",
        "",
    ),
    (
        "tuple and list equality",
        "print((1, 2) == [1, 2], [1, 2] == [1, 2], (1,) + (2,), [1] * 0, [] or 'empty', 0 or None, 1 and 2)",
        "",
    ),
    (
        "str of nested floats",
        "print([0.1, 1e20, 1.0], (2.5,), {'k': 1e-7}, [[1.5, -0.0]])",
        "",
    ),
    (
        "str join numbers",
        "print(' '.join(map(str, range(10))))\nprint(*range(5))\nprint(*[1, 2], sep=', ')",
        "",
    ),
];

fn scorer() -> Scorer {
    common::scorer()
}

fn run(scorer: &Scorer, engine: PythonEngine, program: &str, stdin: &str) -> RunOutcome {
    let runtime = scorer
        .runners()
        .python_in(engine)
        .expect("the Python runtimes");
    runtime.run(scorer.engine(), program, stdin, &CANDIDATE_DEFAULT, 0)
}

/// The programs the property is checked on: the table, HumanEval as programs (canonical and
/// wrong), and the bundled examples' Python programs with each stdin.
fn corpus() -> Vec<(String, String, String)> {
    let mut programs: Vec<(String, String, String)> = PROGRAMS
        .iter()
        .map(|(name, program, stdin)| (name.to_string(), program.to_string(), stdin.to_string()))
        .collect();
    let humaneval = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/HumanEval.jsonl"
    ))
    .expect("HumanEval");
    for line in humaneval.lines().filter(|l| !l.trim().is_empty()) {
        let p: Value = serde_json::from_str(line).expect("a HumanEval problem");
        let field = |k: &str| p[k].as_str().expect("a string field").to_string();
        let check = format!(
            "\n{}\ncheck({})\nprint('checked')\n",
            field("test"),
            field("entry_point")
        );
        programs.push((
            format!("{} canonical", field("task_id")),
            format!("{}{}{check}", field("prompt"), field("canonical_solution")),
            String::new(),
        ));
        programs.push((
            format!("{} wrong", field("task_id")),
            format!("{}    return None\n{check}", field("prompt")),
            String::new(),
        ));
    }
    let examples = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/tasks.jsonl"
    ))
    .expect("examples");
    for line in examples.lines().filter(|l| !l.trim().is_empty()) {
        let task: Value = serde_json::from_str(line).expect("an example task");
        let Some(cases) = task["tests"]["stdio"].as_array() else {
            continue;
        };
        if task["verifier"] != "code" || task.get("language").is_some_and(|l| l != "python") {
            continue;
        }
        for (i, completion) in task["completions"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let text = completion.as_str().unwrap_or_default();
            let Some(program) = text
                .split("```python\n")
                .nth(1)
                .and_then(|rest| rest.split("```").next())
            else {
                continue;
            };
            for (j, case) in cases.iter().enumerate() {
                programs.push((
                    format!("example {} completion {i} case {j}", task["id"]),
                    program.to_string(),
                    case["stdin"].as_str().unwrap_or_default().to_string(),
                ));
            }
        }
    }
    programs
}

/// The property `auto` rests on, program by program: an `ok` from screened Monty is CPython's
/// `ok`, with the same stdout; and `auto`'s outcome is CPython's.
#[test]
fn a_normal_end_in_monty_is_cpythons_outcome_and_auto_is_cpython() {
    let scorer = scorer();
    let mut decided_by_monty = 0;
    let mut ending_normally = 0;
    let mut failures = Vec::new();
    let corpus = corpus();
    for (name, program, stdin) in &corpus {
        let reference = run(&scorer, PythonEngine::CPython, program, stdin);
        ending_normally += usize::from(reference.status == RunStatus::Ok);
        let screened = format!("{AUTO_MARKER}{program}");
        let fast = run(&scorer, PythonEngine::Monty, &screened, stdin);
        if fast.status == RunStatus::Ok {
            decided_by_monty += 1;
            if reference.status != RunStatus::Ok || reference.stdout != fast.stdout {
                failures.push(format!(
                    "{name}: Monty ended normally but CPython differs\n  cpython: {:?} {:?} stdout {:?} stderr {:?}\n  monty: stdout {:?} stderr {:?}",
                    reference.status, reference.exit_code, reference.stdout, reference.stderr, fast.stdout, fast.stderr
                ));
            }
        }
        let auto = run(&scorer, PythonEngine::Auto, program, stdin);
        if (auto.status, auto.exit_code, &auto.stdout)
            != (reference.status, reference.exit_code, &reference.stdout)
        {
            failures.push(format!(
                "{name}: auto gave {:?} {:?} {:?}, CPython {:?} {:?} {:?}",
                auto.status,
                auto.exit_code,
                auto.stdout,
                reference.status,
                reference.exit_code,
                reference.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The tier is worth having: most programs that end normally are decided by Monty. (Not a
    // timing: a count of programs, the same on any machine.)
    assert!(
        decided_by_monty * 2 > ending_normally,
        "Monty decided only {decided_by_monty} of the {ending_normally} programs that end normally"
    );
    eprintln!(
        "Monty decided {decided_by_monty} of the {ending_normally} programs that end normally \
         ({} in all); CPython the rest",
        corpus.len()
    );
}

/// Compute-bound programs: CPython's fuel for each over Monty's, at most the factor that sizes
/// Monty's budget under `auto` (so that a program that ends within Monty's budget would have
/// ended within CPython's).
const CALIBRATION: &[(&str, &str)] = &[
    (
        "loop",
        "s = 0\nfor i in range(300000):\n    s += i & 7\nprint(s)",
    ),
    (
        "strings",
        "s = []\nfor i in range(50000):\n    s.append(str(i)[::-1].upper())\nprint(len(''.join(s)))",
    ),
    (
        "recursion",
        "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint(fib(22))",
    ),
    (
        "dict",
        "d = {}\nfor i in range(100000):\n    d[i % 1000] = d.get(i % 1000, 0) + i\nprint(sum(d.values()))",
    ),
    (
        "sort",
        "xs = [(i * 7919) % 100003 for i in range(100000)]\nxs.sort()\nprint(xs[500])",
    ),
    (
        "comprehension",
        "print(sum([x * x for x in range(200000) if x % 3]))",
    ),
    (
        "big ints",
        "x = 1\nfor i in range(1, 1000):\n    x *= i\nprint(x % 1000000007)",
    ),
    (
        "float math",
        "import math\ns = 0.0\nfor i in range(1, 100000):\n    s += math.sqrt(i) / i\nprint(round(s, 3))",
    ),
    (
        "list ops",
        "xs = list(range(100000))\nfor _ in range(20):\n    xs = xs[1:] + xs[:1]\nprint(xs[0])",
    ),
    (
        "string methods",
        "t = 'the quick brown fox ' * 2000\nprint(len(t.split()), t.count('o'), len(t.replace('o', '00')))",
    ),
    (
        "input parsing",
        "n = int(input())\nprint(sum(map(int, input().split())) + n)",
    ),
    (
        "while compare",
        "i = 0\nc = 0\nwhile i < 300000:\n    if i % 3 == 0 or i % 5 == 0:\n        c += 1\n    i += 1\nprint(c)",
    ),
    (
        "grid indexing",
        "n = 300\ng = [[(i * j) % 7 for j in range(n)] for i in range(n)]\nt = 0\nfor i in range(n):\n    row = g[i]\n    for j in range(n):\n        t += row[j]\nprint(t)",
    ),
    (
        "modular arithmetic",
        "x = 1\nm = 1000000007\nfor i in range(200000):\n    x = x * 31 % m\nprint(x)",
    ),
    (
        "function calls",
        "def f(a, b):\n    return a + b\nt = 0\nfor i in range(100000):\n    t = f(t, i)\nprint(t)",
    ),
    (
        "attribute access",
        "class P:\n    def __init__(self):\n        self.v = 0\np = P()\nfor i in range(100000):\n    p.v += i\nprint(p.v)",
    ),
    (
        "dp table",
        "n = 2000\ndp = [0] * (n + 1)\ndp[0] = 1\nfor c in (1, 5, 10, 25, 50):\n    for v in range(c, n + 1):\n        dp[v] += dp[v - c]\nprint(dp[n])",
    ),
    (
        "string scan",
        "s = 'abcde' * 20000\nc = 0\nfor ch in s:\n    if ch == 'c':\n        c += 1\nprint(c)",
    ),
    (
        "tuple unpacking",
        "a, b = 0, 1\nfor _ in range(100000):\n    a, b = b, (a + b) % 1000\nprint(a)",
    ),
    (
        "list append pop",
        "st = []\nfor i in range(100000):\n    st.append(i)\n    if i % 3 == 0:\n        st.pop()\nprint(len(st))",
    ),
    (
        "bit operations",
        "x = 0\nfor i in range(200000):\n    x ^= (i << 3) | (i >> 2)\nprint(x)",
    ),
];

#[test]
fn monty_budget_under_auto_covers_cpythons_fuel_on_the_calibration_programs() {
    let scorer = scorer();
    let stdin = format!(
        "5\n{}\n",
        (0..20000)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut ratios = Vec::new();
    for (name, program) in CALIBRATION {
        let reference = run(&scorer, PythonEngine::CPython, program, &stdin);
        let fast = run(&scorer, PythonEngine::Monty, program, &stdin);
        assert_eq!(
            reference.status,
            RunStatus::Ok,
            "{name} in CPython: {reference:?}"
        );
        assert_eq!(fast.status, RunStatus::Ok, "{name} in Monty: {fast:?}");
        assert_eq!(reference.stdout, fast.stdout, "{name}");
        let ratio = reference.fuel_used as f64 / fast.fuel_used as f64;
        ratios.push(format!("{name} {ratio:.2}"));
        assert!(
            ratio <= CPYTHON_FUEL_PER_MONTY_FUEL as f64,
            "{name}: CPython burned {ratio:.2}x Monty's fuel, more than the {CPYTHON_FUEL_PER_MONTY_FUEL}x \
             that sizes Monty's budget under auto"
        );
    }
    eprintln!("CPython fuel / Monty fuel: {}", ratios.join(", "));
}

/// Limits under `auto`: Monty's attempt gets the task's budget divided as documented, and a
/// program that runs out of it is decided by CPython with the whole budget.
#[test]
fn a_program_beyond_montys_share_of_the_budget_is_decided_by_cpython() {
    let limits = monty_limits(&CANDIDATE_DEFAULT);
    assert_eq!(
        limits.fuel,
        (CANDIDATE_DEFAULT.fuel / CPYTHON_FUEL_PER_MONTY_FUEL).min(MONTY_FUEL_CAP)
    );
    let small = Limits {
        fuel: 1_000_000,
        ..CANDIDATE_DEFAULT
    };
    assert_eq!(monty_limits(&small).fuel, 500_000);
    assert!(limits.memory_bytes < CANDIDATE_DEFAULT.memory_bytes);
    assert_eq!(limits.output_bytes, CANDIDATE_DEFAULT.output_bytes);
    let scorer = scorer();
    let endless = "while True:\n    pass";
    let auto = run(&scorer, PythonEngine::Auto, endless, "");
    let reference = run(&scorer, PythonEngine::CPython, endless, "");
    assert_eq!(auto.status, RunStatus::FuelExhausted);
    assert_eq!(
        auto.fuel_used, reference.fuel_used,
        "CPython's outcome, CPython's fuel"
    );
}

/// The screen `auto` applies before Monty runs a program (the Monty runner's `screen.rs`),
/// through the runner as it ships: what Monty would run differently from CPython (sets and their
/// order, hashes and ids, `round` to digits, modules whose results differ, set operators on dict
/// views) is left to CPython, saying so; the rest runs in Monty.
#[test]
fn the_screen_leaves_to_cpython_what_monty_runs_differently() {
    let scorer = scorer();
    let screened = |program: &str| {
        run(
            &scorer,
            PythonEngine::Monty,
            &format!("{AUTO_MARKER}{program}"),
            "",
        )
    };
    let pinned = [
        "print({1, 2})",
        "print({c for c in 'ab'})",
        "xs = set('ab')",
        "f = frozenset",
        "print(hash('a'))",
        "print(id(1))",
        "print(round(2.675, 2))",
        "print(round(2.675, ndigits=2))",
        "import random",
        "import os.path",
        "from time import time",
        "from datetime import date",
        "d = {1: 2}\nprint(d.keys() & [1])",
        "d = {1: 2}\nprint(d.items() - d.items())",
        "def f():\n    return {1}\nprint(f())",
        "class A:\n    def m(self):\n        return [set()]\nprint(A().m())",
    ];
    let free = [
        "print(1)",
        "print({1: 2}, {k: v for k, v in []})",
        "x = 3.5\nprint(round(2.5), round(x))",
        "import math, collections\nprint(math.floor(2.5))",
        "from itertools import permutations\nprint(len(list(permutations([1, 2, 3]))))",
        "d = {1: 2}\nprint(list(d.keys()), list(d.items()))",
        "a = 6\nb = 3\nprint(a & b, a - b)",
        "settings = 1\nprint(settings)",
    ];
    let mut wrong = Vec::new();
    for program in pinned {
        let outcome = screened(program);
        if !outcome.stderr.contains("left to CPython") {
            wrong.push(format!("not left to CPython: {program:?} ({outcome:?})"));
        }
    }
    for program in free {
        let outcome = screened(program);
        if outcome.status != RunStatus::Ok || outcome.stderr.contains("left to CPython") {
            wrong.push(format!("not run in Monty: {program:?} ({outcome:?})"));
        }
    }
    // A program that does not parse goes to Monty as it is, which reports the syntax error.
    let broken = screened("print(1");
    if broken.stderr.contains("left to CPython") || broken.status == RunStatus::Ok {
        wrong.push(format!(
            "a syntax error was not Monty's to report: {broken:?}"
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The Monty runner's rewrite of references to `sys.stdin`'s methods (its `stdin.rs`), through
/// the runner as it ships: each of these programs runs in Monty and prints what CPython prints;
/// the text of a string that merely spells such a reference is left as it is.
#[test]
fn references_to_stdins_methods_run_in_monty_as_in_cpython() {
    let scorer = scorer();
    let programs = [
        (
            "import sys\ninput = sys.stdin.readline\nprint(int(input()) + 1)",
            "41\n",
        ),
        (
            "import sys\nxs = sys.stdin.read().split()\nprint(len(xs), xs[-1])",
            "a b c\n",
        ),
        (
            "import sys\nfor l in sys.stdin.readlines(): print(l.strip())",
            "x\ny\n",
        ),
        (
            "import sys\ndef f():\n    return sys.stdin.readline().strip()\nprint(f())",
            "hi\n",
        ),
        ("s = 'sys.stdin.read'\nprint(s)", ""),
        (
            "x = 'é'; import sys; y = sys.stdin.read()\nprint(x, y.strip())",
            "ü\n",
        ),
    ];
    let mut wrong = Vec::new();
    for (program, stdin) in programs {
        let cpython = run(&scorer, PythonEngine::CPython, program, stdin);
        let monty = run(
            &scorer,
            PythonEngine::Monty,
            &format!("{AUTO_MARKER}{program}"),
            stdin,
        );
        if monty.status != RunStatus::Ok || monty.stdout != cpython.stdout {
            wrong.push(format!(
                "{program:?}: Monty {:?} {:?} {:?}, CPython {:?}",
                monty.status, monty.stdout, monty.stderr, cpython.stdout
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
