"""Writes rows.jsonl and programs.jsonl: LiveCodeBench-format problems written for rewardbox's
tests (stdin problems as AtCoder and Codeforces rows carry them, functional ones as LeetCode rows
do, private tests plain or packed as the releases pack them) and programs for each, right and
wrong in the ways graders tell apart.

    python3 tests/data/livecodebench/make.py

Each program's `lcb` field is the verdict of LiveCodeBench's own grader (`lcb_runner`'s
`run_test`, run natively on the same row and program: see docs/verifiers/livecodebench.md);
`rewardbox` is rewardbox's where the two differ on purpose (the documented differences).
"""

import base64
import json
import os
import pickle
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- stdin problems
# (id, statement, solve(input text) -> output text, inputs, programs {name: (code, lcb, rewardbox)})
STDIN = []


def stdin(qid, statement, solve, inputs, programs, packed=False):
    STDIN.append((qid, statement, solve, inputs, programs, packed))


RIGHT, WRONG = True, False

stdin(
    "lcbx_a_plus_b",
    "Print A+B.",
    lambda s: f"{sum(map(int, s.split()))}\n",
    ["1 2\n", "-5 5\n", "1000000000 1000000000\n"],
    {
        "right": ("a, b = map(int, input().split())\nprint(a + b)\n", RIGHT),
        "wrong": ("a, b = map(int, input().split())\nprint(a - b)\n", WRONG),
        "trailing-space-and-blank-lines": (
            "a, b = map(int, input().split())\nprint(a + b, end='  \\n\\n\\n')\n", RIGHT),
        "float-for-int": ("a, b = map(int, input().split())\nprint(float(a + b))\n", RIGHT),
        "sys-stdin-readline": ("import sys\na, b = map(int, sys.stdin.readline().split())\nprint(a + b)\n", RIGHT),
        "if-main": ("def main():\n    a, b = map(int, input().split())\n    print(a + b)\n\nif __name__ == '__main__':\n    main()\n", RIGHT),
        "raises": ("a, b = map(int, input().split())\nprint(a + b)\nraise ValueError('late')\n", WRONG),
    },
    packed=True,
)
stdin(
    "lcbx_sum_list",
    "Given N and N integers, print their sum and their maximum on two lines.",
    lambda s: (lambda xs: f"{sum(xs)}\n{max(xs)}\n")(list(map(int, s.split()[1:]))),
    ["3\n1 2 3\n", "1\n-7\n", "5\n5 4 3 2 1\n"],
    {
        "right": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs))\nprint(max(xs))\n", RIGHT),
        "one-line": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs), max(xs))\n", WRONG),
        "blank-line-between": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs))\nprint()\nprint(max(xs))\n", WRONG),
        "open-0": ("data = open(0).read().split()\nxs = list(map(int, data[1:]))\nprint(sum(xs))\nprint(max(xs))\n", (WRONG, RIGHT)),
    },
)
stdin(
    "lcbx_average",
    "Given N integers, print their average with two digits after the point.",
    lambda s: (lambda xs: f"{sum(xs) / len(xs):.2f}\n")(list(map(int, s.split()[1:]))),
    ["2\n1 2\n", "3\n1 1 1\n", "4\n1 2 3 5\n"],
    {
        "right": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(f'{sum(xs) / n:.2f}')\n", RIGHT),
        "plain-float": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs) / n)\n", RIGHT),
        "three-digits": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(f'{sum(xs) / n:.3f}')\n", RIGHT),
        "close-but-not-equal": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(f'{sum(xs) / n + 1e-9:.10f}')\n", WRONG),
        "integer-division": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs) // n)\n", WRONG),
    },
    packed=True,
)
stdin(
    "lcbx_yes_no",
    "Print Yes if N is even, else No.",
    lambda s: "Yes\n" if int(s) % 2 == 0 else "No\n",
    ["2\n", "3\n", "0\n"],
    {
        "right": ("n = int(input())\nprint('Yes' if n % 2 == 0 else 'No')\n", RIGHT),
        "upper": ("n = int(input())\nprint('YES' if n % 2 == 0 else 'NO')\n", WRONG),
        "inner-spaces": ("n = int(input())\nprint(' Yes ' if n % 2 == 0 else ' No')\n", RIGHT),
    },
)
stdin(
    "lcbx_grid",
    "Given H and W, print an H by W grid of '#' separated by spaces.",
    lambda s: (lambda h, w: "".join(" ".join("#" * w) + "\n" for _ in range(h)))(*map(int, s.split())),
    ["2 3\n", "1 1\n", "3 2\n"],
    {
        "right": ("h, w = map(int, input().split())\nfor _ in range(h):\n    print(' '.join('#' * w))\n", RIGHT),
        "no-spaces": ("h, w = map(int, input().split())\nfor _ in range(h):\n    print('#' * w)\n", WRONG),
        "double-spaces": ("h, w = map(int, input().split())\nfor _ in range(h):\n    print('  '.join('#' * w))\n", WRONG),
    },
)
stdin(
    "lcbx_gcd",
    "Print the greatest common divisor of A and B.",
    lambda s: (lambda a, b: f"{__import__('math').gcd(a, b)}\n")(*map(int, s.split())),
    ["12 18\n", "7 5\n", "100 10\n"],
    {
        "right": ("import math\na, b = map(int, input().split())\nprint(math.gcd(a, b))\n", RIGHT),
        "gcd-unimported": ("a, b = map(int, input().split())\nprint(gcd(a, b))\n", RIGHT),
        "lcm": ("a, b = map(int, input().split())\nprint(a * b // gcd(a, b))\n", WRONG),
    },
    packed=True,
)
stdin(
    "lcbx_sort_words",
    "Given a line of words, print them sorted, one per line.",
    lambda s: "".join(w + "\n" for w in sorted(s.split())),
    ["b a c\n", "zeta alpha\n", "one\n"],
    {
        "right": ("print('\\n'.join(sorted(input().split())))\n", RIGHT),
        "unsorted": ("print('\\n'.join(input().split()))\n", WRONG),
        "counter-unimported": ("c = Counter(input().split())\nfor w in sorted(c):\n    for _ in range(c[w]):\n        print(w)\n", RIGHT),
    },
)
stdin(
    "lcbx_fib",
    "Print the N-th Fibonacci number (F(0) = 0).",
    lambda s: (lambda n: f"{[0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946, 17711, 28657, 46368, 75025, 121393, 196418, 317811, 514229, 832040][n]}\n")(int(s)),
    ["0\n", "10\n", "30\n"],
    {
        "right": ("n = int(input())\na, b = 0, 1\nfor _ in range(n):\n    a, b = b, a + b\nprint(a)\n", RIGHT),
        "memo-recursion": ("@lru_cache(None)\ndef f(n):\n    return n if n < 2 else f(n - 1) + f(n - 2)\nprint(f(int(input())))\n", RIGHT),
        "off-by-one": ("n = int(input())\na, b = 0, 1\nfor _ in range(n + 1):\n    a, b = b, a + b\nprint(a)\n", WRONG),
    },
)
stdin(
    "lcbx_deep_recursion",
    "Print the depth N reached by a recursion that counts down from N.",
    lambda s: f"{int(s)}\n",
    ["10\n", "5000\n", "20000\n"],
    {
        "right": ("n = int(input())\ndef down(k):\n    return 0 if k == 0 else 1 + down(k - 1)\nprint(down(n))\n", RIGHT),
        "iterative": ("print(int(input()))\n", RIGHT),
    },
)
stdin(
    "lcbx_max_pair",
    "Given N integers on N lines, print the two largest, largest first, on one line.",
    lambda s: (lambda xs: f"{xs[0]} {xs[1]}\n")(sorted(map(int, s.split()[1:]), reverse=True)),
    ["3\n1\n5\n3\n", "2\n-1\n-2\n", "4\n7\n7\n1\n2\n"],
    {
        "right": ("n = int(input())\nxs = sorted((int(input()) for _ in range(n)), reverse=True)\nprint(xs[0], xs[1])\n", RIGHT),
        "heapq-unimported": ("n = int(input())\nxs = [int(input()) for _ in range(n)]\nprint(*nlargest(2, xs))\n", RIGHT),
        "smallest": ("n = int(input())\nxs = sorted(int(input()) for _ in range(n))\nprint(xs[0], xs[1])\n", WRONG),
        "sys-exit-after": ("import sys\nn = int(input())\nxs = sorted((int(input()) for _ in range(n)), reverse=True)\nprint(xs[0], xs[1])\nsys.exit(0)\n", RIGHT),
    },
    packed=True,
)
stdin(
    "lcbx_scientific",
    "Print N times 1000 as a decimal number.",
    lambda s: f"{int(s) * 1000}\n",
    ["1\n", "25\n", "0\n"],
    {
        "right": ("print(int(input()) * 1000)\n", RIGHT),
        "exponent": ("print(f'{int(input()):d}e3')\n", RIGHT),
        "hex": ("print(hex(int(input()) * 1000))\n", WRONG),
    },
)
stdin(
    "lcbx_count_chars",
    "Given a string S, print how many times each letter occurs, as 'letter count' lines in alphabetical order.",
    lambda s: "".join(f"{c} {s.strip().count(c)}\n" for c in sorted(set(s.strip()))),
    ["abca\n", "zz\n", "hello\n"],
    {
        "right": ("s = input().strip()\nfor c in sorted(set(s)):\n    print(c, s.count(c))\n", RIGHT),
        "colon": ("s = input().strip()\nfor c in sorted(set(s)):\n    print(f'{c}: {s.count(c)}')\n", WRONG),
        "defaultdict-unimported": ("s = input().strip()\nd = defaultdict(int)\nfor c in s:\n    d[c] += 1\nfor c in sorted(d):\n    print(c, d[c])\n", RIGHT),
    },
)
stdin(
    "lcbx_reverse_lines",
    "Given N lines, print them in reverse order.",
    lambda s: "".join(l + "\n" for l in reversed(s.split("\n")[1:1 + int(s.split("\n")[0])])),
    ["3\nx\ny\nz\n", "1\nonly\n", "2\na b\nc d\n"],
    {
        "right": ("n = int(input())\nls = [input() for _ in range(n)]\nfor l in reversed(ls):\n    print(l)\n", RIGHT),
        "readlines": ("import sys\nls = sys.stdin.read().split('\\n')\nn = int(ls[0])\nfor l in reversed(ls[1:1 + n]):\n    print(l)\n", RIGHT),
        "same-order": ("n = int(input())\nfor _ in range(n):\n    print(input())\n", WRONG),
    },
)
stdin(
    "lcbx_big_power",
    "Print 2 to the power N.",
    lambda s: f"{2 ** int(s)}\n",
    ["10\n", "100\n", "200\n"],
    {
        "right": ("print(2 ** int(input()))\n", RIGHT),
        "float-power": ("print(2.0 ** int(input()))\n", WRONG),
        "pow-builtin": ("print(pow(2, int(input())))\n", RIGHT),
    },
    packed=True,
)
stdin(
    "lcbx_negative_zero",
    "Print the product of A and B as a decimal with one digit after the point.",
    lambda s: (lambda a, b: f"{float(a) * float(b):.1f}\n")(*s.split()),
    ["-1 0\n", "2 3\n", "0.5 0.5\n"],
    {
        "right": ("a, b = map(float, input().split())\nprint(f'{a * b:.1f}')\n", RIGHT),
        "no-format": ("a, b = map(float, input().split())\nprint(a * b)\n", WRONG),
        "rounded-int": ("a, b = map(float, input().split())\nprint(round(a * b))\n", WRONG),
    },
)
stdin(
    "lcbx_global_counter",
    "Print the number of integers from 1 to N that are divisible by 3.",
    lambda s: f"{int(s) // 3}\n",
    ["3\n", "10\n", "100\n"],
    {
        "right": ("n = int(input())\nprint(n // 3)\n", RIGHT),
        "global-statement": ("count = 0\ndef visit(k):\n    global count\n    if k % 3 == 0:\n        count += 1\nn = int(input())\nfor k in range(1, n + 1):\n    visit(k)\nprint(count)\n", (WRONG, RIGHT)),
    },
)
stdin(
    "lcbx_stdin_buffer",
    "Print the sum of the integers given.",
    lambda s: f"{sum(map(int, s.split()))}\n",
    ["1 2 3\n", "10\n", "-1 1\n"],
    {
        "right": ("print(sum(map(int, input().split())))\n", RIGHT),
        "buffer": ("import sys\nprint(sum(map(int, sys.stdin.buffer.read().split())))\n", RIGHT),
    },
)
stdin(
    "lcbx_exit_code",
    "Print the minimum of the integers given.",
    lambda s: f"{min(map(int, s.split()))}\n",
    ["3 1 2\n", "5\n", "-3 -4\n"],
    {
        "right": ("print(min(map(int, input().split())))\n", RIGHT),
        "exit-1-after": ("import sys\nprint(min(map(int, input().split())))\nsys.exit(1)\n", (RIGHT, WRONG)),
        "max": ("print(max(map(int, input().split())))\n", WRONG),
    },
)
stdin(
    "lcbx_matrix_sum",
    "Given an N by N matrix, print the sums of its rows, one per line, then the total.",
    lambda s: (lambda rows: "".join(f"{sum(r)}\n" for r in rows) + f"{sum(map(sum, rows))}\n")(
        [list(map(int, l.split())) for l in s.strip().split("\n")[1:]]),
    ["2\n1 2\n3 4\n", "1\n5\n", "3\n1 0 0\n0 1 0\n0 0 1\n"],
    {
        "right": ("n = int(input())\nrows = [list(map(int, input().split())) for _ in range(n)]\nfor r in rows:\n    print(sum(r))\nprint(sum(map(sum, rows)))\n", RIGHT),
        "missing-total": ("n = int(input())\nrows = [list(map(int, input().split())) for _ in range(n)]\nfor r in rows:\n    print(sum(r))\n", WRONG),
        "columns": ("n = int(input())\nrows = [list(map(int, input().split())) for _ in range(n)]\nfor c in zip(*rows):\n    print(sum(c))\nprint(sum(map(sum, rows)))\n", WRONG),
    },
    packed=True,
)
stdin(
    "lcbx_accumulate",
    "Given N integers, print their prefix sums on one line.",
    lambda s: (lambda xs: " ".join(str(sum(xs[: i + 1])) for i in range(len(xs))) + "\n")(list(map(int, s.split()[1:]))),
    ["3\n1 2 3\n", "1\n9\n", "4\n1 -1 1 -1\n"],
    {
        "right": ("n = int(input())\nxs = list(map(int, input().split()))\nprint(*accumulate(xs))\n", RIGHT),
        "loop": ("n = int(input())\nxs = list(map(int, input().split()))\nt = 0\nout = []\nfor x in xs:\n    t += x\n    out.append(t)\nprint(' '.join(map(str, out)))\n", RIGHT),
        "suffix": ("n = int(input())\nxs = list(map(int, input().split()))[::-1]\nprint(*accumulate(xs))\n", WRONG),
    },
)
stdin(
    "lcbx_bisect",
    "Given a sorted list and a value X, print how many elements are less than X.",
    lambda s: (lambda ls: f"{sum(1 for v in map(int, ls[1].split()) if v < int(ls[2]))}\n")(s.split("\n")),
    ["3\n1 3 5\n4\n", "2\n1 1\n1\n", "4\n1 2 3 4\n10\n"],
    {
        "right": ("n = int(input())\nxs = list(map(int, input().split()))\nx = int(input())\nprint(bisect_left(xs, x))\n", RIGHT),
        "right-side": ("n = int(input())\nxs = list(map(int, input().split()))\nx = int(input())\nprint(bisect_right(xs, x))\n", WRONG),
    },
)

# ---------------------------------------------------------------- functional problems
FUNCTIONAL = []


def functional(qid, statement, name, signature, solve, cases, programs, packed=False):
    FUNCTIONAL.append((qid, statement, name, signature, solve, cases, programs, packed))


def method(name, signature, body):
    return f"class Solution:\n    def {name}(self, {signature}:\n" + "".join(
        "        " + l + "\n" for l in body.split("\n"))


functional(
    "9001", "Return the sum of nums.", "sumNums", "nums: List[int]) -> int",
    lambda nums: sum(nums), [([[1, 2, 3]],), ([[]],), ([[-1, 1, 5]],)],
    {
        "right": (method("sumNums", "nums: List[int]) -> int", "return sum(nums)"), RIGHT),
        "wrong": (method("sumNums", "nums: List[int]) -> int", "return sum(nums) + 1"), WRONG),
        "float-result": (method("sumNums", "nums: List[int]) -> int", "return float(sum(nums))"), RIGHT),
        "top-level-function": ("def sumNums(nums):\n    return sum(nums)\n", RIGHT),
        "raises": (method("sumNums", "nums: List[int]) -> int", "raise RuntimeError('no')"), WRONG),
    },
    packed=True,
)
functional(
    "9002", "Return nums sorted in increasing order.", "sortNums", "nums: List[int]) -> List[int]",
    lambda nums: sorted(nums), [([[3, 1, 2]],), ([[1]],), ([[5, -5, 0]],)],
    {
        "right": (method("sortNums", "nums: List[int]) -> List[int]", "return sorted(nums)"), RIGHT),
        "tuple": (method("sortNums", "nums: List[int]) -> List[int]", "return tuple(sorted(nums))"), RIGHT),
        "in-place-none": (method("sortNums", "nums: List[int]) -> List[int]", "nums.sort()"), WRONG),
        "reversed": (method("sortNums", "nums: List[int]) -> List[int]", "return sorted(nums, reverse=True)"), WRONG),
    },
)
functional(
    "9003", "Return whether s is a palindrome.", "isPal", "s: str) -> bool",
    lambda s: s == s[::-1], [(["abba"],), (["abc"],), ([""],)],
    {
        "right": (method("isPal", "s: str) -> bool", "return s == s[::-1]"), RIGHT),
        "always-true": (method("isPal", "s: str) -> bool", "return True"), WRONG),
        "int-result": (method("isPal", "s: str) -> bool", "return int(s == s[::-1])"), (RIGHT, WRONG)),
    },
)
functional(
    "9004", "Return the two indices of nums whose values add up to target.", "twoSum",
    "nums: List[int], target: int) -> List[int]",
    lambda nums, target: next([i, j] for i in range(len(nums)) for j in range(i + 1, len(nums)) if nums[i] + nums[j] == target),
    [([[2, 7, 11, 15], 9],), ([[3, 2, 4], 6],), ([[3, 3], 6],)],
    {
        "right": (method("twoSum", "nums: List[int], target: int) -> List[int]",
                         "seen = {}\nfor i, x in enumerate(nums):\n    if target - x in seen:\n        return [seen[target - x], i]\n    seen[x] = i"), RIGHT),
        "tuple-pair": (method("twoSum", "nums: List[int], target: int) -> List[int]",
                              "for i in range(len(nums)):\n    for j in range(i + 1, len(nums)):\n        if nums[i] + nums[j] == target:\n            return (i, j)"), RIGHT),
        "swapped": (method("twoSum", "nums: List[int], target: int) -> List[int]",
                           "seen = {}\nfor i, x in enumerate(nums):\n    if target - x in seen:\n        return [i, seen[target - x]]\n    seen[x] = i"), WRONG),
    },
    packed=True,
)
functional(
    "9005", "Return the average of nums.", "average", "nums: List[int]) -> float",
    lambda nums: sum(nums) / len(nums), [([[1, 2]],), ([[1, 2, 3, 4]],), ([[10]],)],
    {
        "right": (method("average", "nums: List[int]) -> float", "return sum(nums) / len(nums)"), RIGHT),
        "statistics-mean": (method("average", "nums: List[int]) -> float", "return mean(nums)"), RIGHT),
        "floor": (method("average", "nums: List[int]) -> float", "return sum(nums) // len(nums)"), WRONG),
        "near": (method("average", "nums: List[int]) -> float", "return sum(nums) / len(nums) + 1e-12"), WRONG),
    },
)
functional(
    "9006", "Return the count of each word in words, as a dict.", "countWords", "words: List[str]) -> Dict[str, int]",
    lambda words: {w: words.count(w) for w in words}, [([["a", "b", "a"]],), ([[]],), ([["x"]],)],
    {
        "right": (method("countWords", "words: List[str]) -> Dict[str, int]", "return dict(Counter(words))"), RIGHT),
        "counter-object": (method("countWords", "words: List[str]) -> Dict[str, int]", "return Counter(words)"), (RIGHT, WRONG)),
        "keys-only": (method("countWords", "words: List[str]) -> Dict[str, int]", "return {w: 1 for w in words}"), WRONG),
    },
)
functional(
    "9007", "Return the pairs (i, nums[i]) for every i, as lists.", "indexed", "nums: List[int]) -> List[List[int]]",
    lambda nums: [[i, x] for i, x in enumerate(nums)], [([[5, 6]],), ([[]],), ([[1]],)],
    {
        "right": (method("indexed", "nums: List[int]) -> List[List[int]]", "return [[i, x] for i, x in enumerate(nums)]"), RIGHT),
        "inner-tuples": (method("indexed", "nums: List[int]) -> List[List[int]]", "return list(enumerate(nums))"), (WRONG, RIGHT)),
        "values-only": (method("indexed", "nums: List[int]) -> List[List[int]]", "return nums"), WRONG),
    },
)
functional(
    "9008", "Return the maximum product of two distinct elements of nums.", "maxProduct", "nums: List[int]) -> int",
    lambda nums: max(nums[i] * nums[j] for i in range(len(nums)) for j in range(i + 1, len(nums))),
    [([[1, 5, 4, 5]],), ([[-10, -3, 1]],), ([[2, 3]],)],
    {
        "right": (method("maxProduct", "nums: List[int]) -> int", "return max(a * b for a, b in combinations(nums, 2))"), RIGHT),
        "two-largest": (method("maxProduct", "nums: List[int]) -> int", "a, b = nlargest(2, nums)\nreturn a * b"), WRONG),
    },
    packed=True,
)
functional(
    "9009", "Return the string s with each word capitalised.", "titleCase", "s: str) -> str",
    lambda s: " ".join(w.capitalize() for w in s.split(" ")), [(["hello world"],), (["a"],), (["ab  cd"],)],
    {
        "right": (method("titleCase", "s: str) -> str", "return ' '.join(w.capitalize() for w in s.split(' '))"), RIGHT),
        "title": (method("titleCase", "s: str) -> str", "return s.title()"), RIGHT),
        "split-any-space": (method("titleCase", "s: str) -> str", "return ' '.join(w.capitalize() for w in s.split())"), WRONG),
    },
)
functional(
    "9010", "Return the number of set bits of n.", "bits", "n: int) -> int",
    lambda n: bin(n).count("1"), [([0],), ([255],), ([2 ** 40 + 1],)],
    {
        "right": (method("bits", "n: int) -> int", "return bin(n).count('1')"), RIGHT),
        "bit-count": (method("bits", "n: int) -> int", "return n.bit_count()"), RIGHT),
        "low-byte": (method("bits", "n: int) -> int", "return bin(n & 255).count('1')"), WRONG),
    },
)
functional(
    "9011", "Return the number of distinct values in nums.", "distinct", "nums: List[int]) -> int",
    lambda nums: len(set(nums)), [([[1, 1, 2]],), ([[]],), ([[3, 3, 3]],)],
    {
        "right": (method("distinct", "nums: List[int]) -> int", "return len(set(nums))"), RIGHT),
        "length": (method("distinct", "nums: List[int]) -> int", "return len(nums)"), WRONG),
    },
)
functional(
    "9012", "Return the matrix transposed.", "transpose", "m: List[List[int]]) -> List[List[int]]",
    lambda m: [list(r) for r in zip(*m)], [([[[1, 2], [3, 4]]],), ([[[1, 2, 3]]],), ([[[7]]],)],
    {
        "right": (method("transpose", "m: List[List[int]]) -> List[List[int]]", "return [list(r) for r in zip(*m)]"), RIGHT),
        "zip-tuples": (method("transpose", "m: List[List[int]]) -> List[List[int]]", "return list(zip(*m))"), (WRONG, RIGHT)),
        "identity": (method("transpose", "m: List[List[int]]) -> List[List[int]]", "return m"), WRONG),
    },
    packed=True,
)
functional(
    "9013", "Return whether any two elements of nums are equal.", "hasDuplicate", "nums: List[int]) -> bool",
    lambda nums: len(set(nums)) < len(nums), [([[1, 2, 1]],), ([[1, 2]],), ([[]],)],
    {
        "right": (method("hasDuplicate", "nums: List[int]) -> bool", "return len(set(nums)) < len(nums)"), RIGHT),
        "inverted": (method("hasDuplicate", "nums: List[int]) -> bool", "return len(set(nums)) == len(nums)"), WRONG),
        "none-when-false": (method("hasDuplicate", "nums: List[int]) -> bool", "if len(set(nums)) < len(nums):\n    return True"), WRONG),
    },
)
functional(
    "9014", "Return the longest common prefix of the words.", "prefix", "words: List[str]) -> str",
    lambda words: __import__("os").path.commonprefix(words), [([["flower", "flow", "flight"]],), ([["a"]],), ([["x", "y"]],)],
    {
        "right": (method("prefix", "words: List[str]) -> str",
                         "p = words[0]\nfor w in words[1:]:\n    while not w.startswith(p):\n        p = p[:-1]\nreturn p"), RIGHT),
        "first-word": (method("prefix", "words: List[str]) -> str", "return words[0]"), WRONG),
    },
)
functional(
    "9015", "Return the k-th smallest value of nums (k from 1).", "kth", "nums: List[int], k: int) -> int",
    lambda nums, k: sorted(nums)[k - 1], [([[3, 1, 2], 1],), ([[3, 1, 2], 3],), ([[5, 5, 1], 2],)],
    {
        "right": (method("kth", "nums: List[int], k: int) -> int", "return heapq.nsmallest(k, nums)[-1]"), RIGHT),
        "zero-based": (method("kth", "nums: List[int], k: int) -> int", "return sorted(nums)[k] if k < len(nums) else -1"), WRONG),
    },
    packed=True,
)
functional(
    "9016", "Return the number of ways to climb n stairs taking 1 or 2 steps at a time.", "climb", "n: int) -> int",
    lambda n: [1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89][n] if n <= 10 else None, [([1],), ([5],), ([10],)],
    {
        "right": (method("climb", "n: int) -> int", "@cache\ndef f(k):\n    return 1 if k <= 1 else f(k - 1) + f(k - 2)\nreturn f(n)"), RIGHT),
        "off-by-one": (method("climb", "n: int) -> int", "a, b = 1, 1\nfor _ in range(n + 1):\n    a, b = b, a + b\nreturn a"), WRONG),
    },
)
functional(
    "9017", "Return the string with its characters' cases swapped.", "swap", "s: str) -> str",
    lambda s: s.swapcase(), [(["aB"],), ([""],), (["Hello, World"],)],
    {
        "right": (method("swap", "s: str) -> str", "return s.swapcase()"), RIGHT),
        "lower": (method("swap", "s: str) -> str", "return s.lower()"), WRONG),
        "list-of-chars": (method("swap", "s: str) -> str", "return [c.swapcase() for c in s]"), WRONG),
    },
)
functional(
    "9018", "Return the indices at which target occurs in nums.", "positions", "nums: List[int], target: int) -> List[int]",
    lambda nums, target: [i for i, x in enumerate(nums) if x == target], [([[1, 2, 1], 1],), ([[], 3],), ([[4], 5],)],
    {
        "right": (method("positions", "nums: List[int], target: int) -> List[int]", "return [i for i, x in enumerate(nums) if x == target]"), RIGHT),
        "generator": (method("positions", "nums: List[int], target: int) -> List[int]", "return (i for i, x in enumerate(nums) if x == target)"), WRONG),
        "first-only": (method("positions", "nums: List[int], target: int) -> List[int]", "return [nums.index(target)] if target in nums else []"), WRONG),
    },
)
functional(
    "9019", "Return the running maximum of nums.", "runningMax", "nums: List[int]) -> List[int]",
    lambda nums: [max(nums[: i + 1]) for i in range(len(nums))], [([[1, 3, 2]],), ([[5]],), ([[-1, -2, 0]],)],
    {
        "right": (method("runningMax", "nums: List[int]) -> List[int]", "return list(accumulate(nums, max))"), RIGHT),
        "running-min": (method("runningMax", "nums: List[int]) -> List[int]", "return list(accumulate(nums, min))"), WRONG),
    },
    packed=True,
)
functional(
    "9020", "Return n factorial modulo 1000000007.", "factMod", "n: int) -> int",
    lambda n: __import__("math").factorial(n) % 1000000007, [([0],), ([10],), ([1000],)],
    {
        "right": (method("factMod", "n: int) -> int", "r = 1\nfor k in range(2, n + 1):\n    r = r * k % 1000000007\nreturn r"), RIGHT),
        "math-factorial": (method("factMod", "n: int) -> int", "return factorial(n) % 1000000007"), RIGHT),
        "no-modulo": (method("factMod", "n: int) -> int", "return factorial(n) % (10 ** 18)"), WRONG),
    },
)


def pack(tests):
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests)))).decode()


def row(qid, title, content, platform, starter, public, private, metadata, packed):
    return {
        "question_title": title,
        "question_content": content,
        "platform": platform,
        "question_id": qid,
        "contest_id": "rewardbox",
        "contest_date": "2026-11-30T00:00:00",
        "starter_code": starter,
        "difficulty": "easy",
        "public_test_cases": json.dumps(public),
        "private_test_cases": pack(private) if packed else json.dumps(private),
        "metadata": json.dumps(metadata),
    }


def main():
    rows, programs = [], []
    for qid, statement, solve, inputs, progs, packed in STDIN:
        tests = [{"input": i, "output": solve(i), "testtype": "stdin"} for i in inputs]
        rows.append(row(qid, qid, statement, "atcoder", "", tests[:1], tests[1:], {}, packed))
        for name, (code, verdict) in progs.items():
            programs.append(program(qid, name, code, verdict))
    for qid, statement, name, signature, solve, cases, progs, packed in FUNCTIONAL:
        tests = [
            {"input": "\n".join(json.dumps(a) for a in args), "output": json.dumps(solve(*args)), "testtype": "functional"}
            for (args,) in cases
        ]
        starter = f"class Solution:\n    def {name}(self, {signature}:\n        "
        rows.append(row(qid, name, statement, "leetcode", starter, tests[:1], tests[1:], {"func_name": name}, packed))
        for pname, (code, verdict) in progs.items():
            programs.append(program(qid, pname, code, verdict))
    with open(os.path.join(HERE, "rows.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    with open(os.path.join(HERE, "programs.jsonl"), "w") as f:
        for p in programs:
            f.write(json.dumps(p) + "\n")
    print(f"{len(rows)} rows, {len(programs)} programs")


def program(qid, name, code, verdict):
    lcb, ours = verdict if isinstance(verdict, tuple) else (verdict, verdict)
    entry = {"question_id": qid, "program": name, "code": code, "lcb": lcb}
    if ours != lcb:
        entry["rewardbox"] = ours
    return entry


if __name__ == "__main__":
    main()
