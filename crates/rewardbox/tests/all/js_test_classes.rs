//! Test files that use the candidate's classes and pass it functions, as class exercises and
//! higher-order ones do: `new Stack()`, methods, getters, static members, `instanceof`, the
//! candidate's own error classes in `toThrow`, iteration, objects passed back to it, callbacks
//! it calls (`jest.fn()` listeners) and functions it returns. The candidate's objects stay in its
//! sandbox and the test file holds proxies of them (src/wire.js); every test's verdict is the one
//! native Jest 29.7 and `node --test` give on the same file and program.
//!
//! Five modules (CommonJS and ES modules, a default export, TypeScript), each with a right
//! program, a wrong one, one whose classes throw, one without the names the tests import and one
//! that fails to load, and two test files of each framework.

use crate::common;
use crate::js_test_files::{Unit, agreement_of};

/// A module of classes: its right, wrong and throwing bodies, how it exports (and the export a
/// program without the tested names has), and its test files.
struct Module {
    name: &'static str,
    right: &'static str,
    wrong: &'static str,
    throws: &'static str,
    exports: &'static str,
    missing: &'static str,
    jest: &'static [(&'static str, &'static str)],
    node: &'static [(&'static str, &'static str)],
}

const STACK: &str = r#"class EmptyError extends Error {
  constructor(message) { super(message); this.name = 'EmptyError'; }
}
class Stack {
  constructor(items = []) { this.items = [...items]; }
  static of(...xs) { return new Stack(xs); }
  push(x) { this.items.push(x); return this; }
  pop() {
    if (this.items.length === 0) throw new EmptyError('the stack is empty');
    return this.items.pop();
  }
  peek() { return this.items[this.items.length - 1]; }
  get size() { return this.items.length; }
  *[Symbol.iterator]() { yield* this.items; }
}
"#;

const STACK_WRONG: &str = r#"class EmptyError extends Error {
  constructor(message) { super(message); this.name = 'EmptyError'; }
}
class Stack {
  constructor(items = []) { this.items = [...items]; }
  static of(...xs) { return new Stack(xs); }
  push(x) { this.items.push(x); return this; }
  pop() {
    if (this.items.length === 0) throw new Error('the stack is empty');
    return this.items.shift();
  }
  peek() { return this.items[0]; }
  get size() { return this.items.length; }
  *[Symbol.iterator]() { yield* this.items; }
}
"#;

const STACK_THROWS: &str = r#"class EmptyError extends Error {}
class Stack {
  constructor() { throw new Error('not done yet'); }
  static of() { throw new Error('not done yet'); }
}
"#;

const ACCOUNT: &str = r#"export class InsufficientFunds extends Error {
  constructor(balance, amount) {
    super(`insufficient funds: ${balance} < ${amount}`);
    this.name = 'InsufficientFunds';
    this.shortBy = amount - balance;
  }
}
export class Account {
  constructor(owner) { this.owner = owner; this.history = []; }
  static open(owner, deposit = 0) {
    const account = new Account(owner);
    if (deposit > 0) account.deposit(deposit);
    return account;
  }
  get balance() {
    return this.history.reduce((sum, t) => sum + (t.type === 'deposit' ? t.amount : -t.amount), 0);
  }
  deposit(amount) {
    if (!(amount > 0)) throw new RangeError('a deposit must be positive');
    this.history.push({ type: 'deposit', amount });
    return this;
  }
  withdraw(amount) {
    if (amount > this.balance) throw new InsufficientFunds(this.balance, amount);
    this.history.push({ type: 'withdrawal', amount });
    return this;
  }
  transfer(to, amount) {
    this.withdraw(amount);
    to.deposit(amount);
    return this;
  }
}
"#;

const ACCOUNT_WRONG: &str = r#"export class InsufficientFunds extends Error {}
export class Account {
  constructor(owner) { this.owner = owner; this.history = []; }
  static open(owner, deposit = 0) {
    const account = new Account(owner);
    if (deposit > 0) account.deposit(deposit);
    return account;
  }
  get balance() {
    return this.history.reduce((sum, t) => sum + (t.type === 'deposit' ? t.amount : -t.amount), 0);
  }
  deposit(amount) {
    this.history.push({ type: 'deposit', amount });
    return this;
  }
  withdraw(amount) {
    this.history.push({ type: 'withdrawal', amount });
    return this;
  }
  transfer(to, amount) {
    this.withdraw(amount);
    to.deposit(amount);
    return to;
  }
}
"#;

const ACCOUNT_THROWS: &str = r#"export class InsufficientFunds extends Error {}
export class Account {
  constructor() { throw new Error('not done yet'); }
  static open() { throw new Error('not done yet'); }
}
"#;

const LRU: &str = r#"export default class LRUCache {
  constructor(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.capacity = capacity;
    this.entries = new Map();
  }
  get(key) {
    if (!this.entries.has(key)) return -1;
    const value = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }
  put(key, value) {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value);
  }
  get size() { return this.entries.size; }
  keys() { return [...this.entries.keys()]; }
}
"#;

const LRU_WRONG: &str = r#"export default class LRUCache {
  constructor(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.capacity = capacity;
    this.entries = new Map();
  }
  get(key) { return this.entries.has(key) ? this.entries.get(key) : -1; }
  put(key, value) {
    if (!this.entries.has(key) && this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value);
    this.entries.set(key, value);
  }
  get size() { return this.entries.size; }
  keys() { return [...this.entries.keys()]; }
}
"#;

const LRU_THROWS: &str = r#"export default class LRUCache {
  constructor() { throw new Error('not done yet'); }
}
"#;

const EVENTS: &str = r#"class Emitter {
  constructor() { this.listeners = new Map(); }
  on(event, listener) {
    if (typeof listener !== 'function') throw new TypeError('a listener must be a function');
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
    return this;
  }
  off(event, listener) {
    const list = this.listeners.get(event) || [];
    const at = list.indexOf(listener);
    if (at >= 0) list.splice(at, 1);
    return this;
  }
  emit(event, ...args) {
    const list = [...(this.listeners.get(event) || [])];
    for (const listener of list) listener(...args);
    return list.length;
  }
}
function memoize(fn) {
  const cache = new Map();
  return (x) => {
    if (!cache.has(x)) cache.set(x, fn(x));
    return cache.get(x);
  };
}
function pipe(...fns) {
  return (x) => fns.reduce((value, fn) => fn(value), x);
}
function countBy(xs, keyOf) {
  const counts = {};
  for (const x of xs) {
    const key = keyOf(x);
    counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
}
function counter(start) {
  return {
    value: start,
    increment() { return ++this.value; },
    reset() { this.value = start; return this.value; },
  };
}
"#;

const EVENTS_WRONG: &str = r#"class Emitter {
  constructor() { this.listeners = new Map(); }
  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
    return this;
  }
  off(event, listener) { return this; }
  emit(event, ...args) {
    const list = [...(this.listeners.get(event) || [])].reverse();
    for (const listener of list) listener(...args);
    return list.length;
  }
}
function memoize(fn) {
  return (x) => fn(x);
}
function pipe(...fns) {
  return (x) => fns.reduceRight((value, fn) => fn(value), x);
}
function countBy(xs, keyOf) {
  const counts = {};
  for (const x of xs) counts[keyOf(x)] = 1;
  return counts;
}
function counter(start) {
  return {
    value: start,
    increment() { return this.value++; },
    reset() { this.value = 0; return this.value; },
  };
}
"#;

const EVENTS_THROWS: &str = r#"class Emitter {
  constructor() { throw new Error('not done yet'); }
}
function memoize() { throw new Error('not done yet'); }
function pipe() { throw new Error('not done yet'); }
function countBy() { throw new Error('not done yet'); }
function counter() { throw new Error('not done yet'); }
"#;

const VECTOR: &str = r#"class Vector {
  constructor(x, y) { this.x = x; this.y = y; }
  static zero() { return new Vector(0, 0); }
  add(other) { return new Vector(this.x + other.x, this.y + other.y); }
  scale(k) { return new Vector(this.x * k, this.y * k); }
  get length() { return Math.hypot(this.x, this.y); }
  equals(other) { return other instanceof Vector && other.x === this.x && other.y === this.y; }
  toString() { return `(${this.x}, ${this.y})`; }
  *[Symbol.iterator]() { yield this.x; yield this.y; }
}
"#;

const VECTOR_WRONG: &str = r#"class Vector {
  constructor(x, y) { this.x = x; this.y = y; }
  static zero() { return new Vector(0, 0); }
  add(other) { return new Vector(this.x + other.x, this.y - other.y); }
  scale(k) { this.x *= k; this.y *= k; return this; }
  get length() { return Math.abs(this.x) + Math.abs(this.y); }
  equals(other) { return other.x === this.x; }
  toString() { return `Vector(${this.x}, ${this.y})`; }
  *[Symbol.iterator]() { yield this.x; yield this.y; }
}
"#;

const VECTOR_THROWS: &str = r#"class Vector {
  constructor() { throw new Error('not done yet'); }
  static zero() { throw new Error('not done yet'); }
}
"#;

const MODULES: &[Module] = &[
    Module {
        name: "stack",
        right: STACK,
        wrong: STACK_WRONG,
        throws: STACK_THROWS,
        exports: "module.exports = { Stack, EmptyError };\n",
        missing: "module.exports = { StackV2: Stack, EmptyErrorV2: EmptyError };\n",
        jest: &[
            (
                "stack.test.js",
                r#"const { Stack, EmptyError } = require('./solution');

// Made while the file loads, by a static member: the first the file asks of the candidate.
const made = Stack.of(7, 8);

test('last in, first out', () => {
  const s = new Stack();
  s.push(1).push(2);
  expect(s.pop()).toBe(2);
  expect(s.size).toBe(1);
});

test('made while the file loaded', () => {
  expect(made.peek()).toBe(8);
});

test('an object of its class', () => {
  expect(new Stack()).toBeInstanceOf(Stack);
  expect(Stack.of(1, 2) instanceof Stack).toBe(true);
});

test('made by a static method', () => {
  expect(Stack.of(1, 2, 3).size).toBe(3);
  expect(Stack.of(1, 2, 3).peek()).toBe(3);
});

test('equals its fields, not a literal strictly', () => {
  expect(new Stack([1, 2])).toEqual({ items: [1, 2] });
  expect(new Stack([1])).not.toStrictEqual({ items: [1] });
});

test('iterates', () => {
  expect([...Stack.of(4, 5)]).toEqual([4, 5]);
});

test('throws its own error', () => {
  expect(() => new Stack().pop()).toThrow(EmptyError);
  expect(() => new Stack().pop()).toThrow('empty');
});

test('fields written from outside', () => {
  const s = Stack.of(1);
  expect(s.items).toEqual([1]);
  s.items = [7, 8];
  expect(s.pop()).toBe(8);
});
"#,
            ),
            (
                "described.test.ts",
                r#"import { Stack, EmptyError } from './solution';

describe('Stack', () => {
  let s: Stack;

  beforeEach(() => {
    s = new Stack();
  });

  test('starts empty', () => {
    expect(s.size).toBe(0);
    expect(s).toHaveProperty('size', 0);
    expect(s).toMatchObject({ items: [] });
  });

  test.each([
    [[1], 1],
    [[1, 2, 3], 3],
    [[5, 4], 4],
  ])('pushing %j leaves %i on top', (pushed: number[], top: number) => {
    for (const x of pushed) s.push(x);
    expect(s.peek()).toBe(top);
    expect(s.pop()).toBe(top);
  });

  test('pushing returns the stack', () => {
    expect(s.push(1)).toBe(s);
  });

  test('an empty pop names its class', () => {
    let caught: unknown;
    try {
      s.pop();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EmptyError);
    expect((caught as Error).name).toBe('EmptyError');
  });
});
"#,
            ),
        ],
        node: &[
            (
                "stack.test.js",
                r#"const test = require('node:test');
const assert = require('node:assert');
const { Stack, EmptyError } = require('./solution');

// Made while the file loads, by a static member: the first the file asks of the candidate.
const made = Stack.of(7, 8);

test('made while the file loaded', () => {
  assert.strictEqual(made.peek(), 8);
});

test('last in, first out', () => {
  const s = new Stack();
  s.push(1).push(2);
  assert.strictEqual(s.pop(), 2);
  assert.strictEqual(s.size, 1);
});

test('an object of its class', () => {
  assert.ok(new Stack() instanceof Stack);
  assert.ok(Stack.of(1) instanceof Stack);
});

test('loosely equal to its fields', () => {
  assert.deepEqual(new Stack([1, 2]), { items: [1, 2] });
});

test('not strictly equal to a literal', () => {
  assert.notDeepStrictEqual(new Stack([1]), { items: [1] });
});

test('iterates', () => {
  assert.deepStrictEqual([...Stack.of(4, 5)], [4, 5]);
});

test('throws its own error', () => {
  assert.throws(() => new Stack().pop(), EmptyError);
  assert.throws(() => new Stack().pop(), /empty/);
});
"#,
            ),
            (
                "suite.test.js",
                r#"const { describe, it, beforeEach } = require('node:test');
const assert = require('node:assert/strict');
const { Stack } = require('./solution');

describe('Stack', () => {
  let s;
  beforeEach(() => {
    s = Stack.of(1, 2, 3);
  });

  it('peeks at the top', () => {
    assert.equal(s.peek(), 3);
  });

  it('pops in reverse', () => {
    assert.deepEqual([s.pop(), s.pop(), s.pop()], [3, 2, 1]);
  });

  it('returns itself from push', () => {
    assert.equal(s.push(4), s);
    assert.equal(s.size, 4);
  });
});
"#,
            ),
        ],
    },
    Module {
        name: "account",
        right: ACCOUNT,
        wrong: ACCOUNT_WRONG,
        throws: ACCOUNT_THROWS,
        exports: "",
        missing: "export { Account as AccountV2, InsufficientFunds as InsufficientFundsV2 };\n",
        jest: &[
            (
                "account.test.js",
                r#"import { Account, InsufficientFunds } from './solution';

describe('Account', () => {
  test('keeps a balance', () => {
    const a = new Account('ann');
    a.deposit(10).withdraw(4);
    expect(a.balance).toBe(6);
    expect(a.history).toEqual([
      { type: 'deposit', amount: 10 },
      { type: 'withdrawal', amount: 4 },
    ]);
  });

  test('refuses to overdraw', () => {
    const a = Account.open('bo', 5);
    expect(() => a.withdraw(8)).toThrow(InsufficientFunds);
    expect(() => a.withdraw(8)).toThrow(/insufficient funds: 5 < 8/);
    expect(a.balance).toBe(5);
  });

  test('the error says by how much', () => {
    try {
      Account.open('cy', 1).withdraw(3);
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(InsufficientFunds);
      expect(e.name).toBe('InsufficientFunds');
    }
  });

  test('transfers to another account', () => {
    const a = Account.open('ann', 10);
    const b = new Account('bo');
    expect(a.transfer(b, 3)).toBe(a);
    expect(a.balance).toBe(7);
    expect(b.balance).toBe(3);
  });

  test('opens an account', () => {
    expect(Account.open('dee')).toBeInstanceOf(Account);
    expect(Account.open('dee', 2)).toEqual(expect.objectContaining({ owner: 'dee' }));
  });

  test('refuses a negative deposit', () => {
    expect(() => new Account('x').deposit(-1)).toThrow(RangeError);
  });
});
"#,
            ),
            (
                "balances.test.ts",
                r#"import { Account } from './solution';

type Step = ['deposit' | 'withdraw', number];

const cases: [Step[], number][] = [
  [[['deposit', 5]], 5],
  [[['deposit', 5], ['withdraw', 5]], 0],
  [[['deposit', 7], ['withdraw', 2], ['deposit', 1]], 6],
];

test.each(cases)('steps %j leave %i', (steps, balance) => {
  const account = new Account('t');
  for (const [kind, amount] of steps) account[kind](amount);
  expect(account.balance).toBe(balance);
  expect(account.history).toHaveLength(steps.length);
});

test('an overdraft is refused', () => {
  expect(() => new Account('t').withdraw(1)).toThrow();
});
"#,
            ),
        ],
        node: &[
            (
                "account.test.js",
                r#"import { test } from 'node:test';
import assert from 'node:assert';
import { Account, InsufficientFunds } from './solution.js';

test('keeps a balance', () => {
  const a = new Account('ann');
  a.deposit(10).withdraw(4);
  assert.strictEqual(a.balance, 6);
  assert.deepStrictEqual(a.history, [
    { type: 'deposit', amount: 10 },
    { type: 'withdrawal', amount: 4 },
  ]);
});

test('refuses to overdraw', () => {
  const a = Account.open('bo', 5);
  assert.throws(() => a.withdraw(8), InsufficientFunds);
  assert.throws(() => a.withdraw(8), { name: 'InsufficientFunds', shortBy: 3 });
});

test('transfers to another account', () => {
  const a = Account.open('ann', 10);
  const b = new Account('bo');
  assert.strictEqual(a.transfer(b, 3), a);
  assert.strictEqual(b.balance, 3);
});
"#,
            ),
            (
                "history.test.js",
                r#"import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Account } from './solution.js';

describe('history', () => {
  it('records each step', () => {
    const a = Account.open('x', 3);
    a.withdraw(1);
    assert.equal(a.history.length, 2);
    assert.deepEqual(a.history[1], { type: 'withdrawal', amount: 1 });
  });

  it('is an object of its class', () => {
    assert.ok(Account.open('y') instanceof Account);
  });
});
"#,
            ),
        ],
    },
    Module {
        name: "lru",
        right: LRU,
        wrong: LRU_WRONG,
        throws: LRU_THROWS,
        exports: "",
        missing: "export const LRU = 1;\n",
        jest: &[
            (
                "lru.test.ts",
                r#"import LRUCache from './solution';

describe('LRUCache', () => {
  let cache: LRUCache;

  beforeEach(() => {
    cache = new LRUCache(2);
  });

  test('is an LRUCache', () => {
    expect(cache).toBeInstanceOf(LRUCache);
  });

  test('gets what was put', () => {
    cache.put(1, 10);
    expect(cache.get(1)).toBe(10);
    expect(cache.get(2)).toBe(-1);
  });

  test('evicts the least recently used', () => {
    cache.put(1, 1);
    cache.put(2, 2);
    cache.get(1);
    cache.put(3, 3);
    expect(cache.get(2)).toBe(-1);
    expect(cache.keys()).toEqual([1, 3]);
  });

  test('updating refreshes a key', () => {
    cache.put(1, 1);
    cache.put(2, 2);
    cache.put(1, 5);
    cache.put(3, 3);
    expect(cache.get(1)).toBe(5);
    expect(cache.size).toBe(2);
  });

  test('refuses a capacity of zero', () => {
    expect(() => new LRUCache(0)).toThrow(RangeError);
  });
});
"#,
            ),
            (
                "leetcode.test.js",
                r#"const LRUCache = require('./solution').default;

// LeetCode 146's example, as an operations table.
const ops = ['put', 'put', 'get', 'put', 'get', 'put', 'get', 'get', 'get'];
const args = [[1, 1], [2, 2], [1], [3, 3], [2], [4, 4], [1], [3], [4]];
const expected = [undefined, undefined, 1, undefined, -1, undefined, -1, 3, 4];

test('the example', () => {
  const cache = new LRUCache(2);
  const got = ops.map((op, i) => cache[op](...args[i]));
  expect(got).toEqual(expected);
});
"#,
            ),
        ],
        node: &[
            (
                "lru.test.js",
                r#"import { test } from 'node:test';
import assert from 'node:assert/strict';
import LRUCache from './solution.js';

test('evicts the least recently used', () => {
  const cache = new LRUCache(2);
  cache.put(1, 1);
  cache.put(2, 2);
  assert.equal(cache.get(1), 1);
  cache.put(3, 3);
  assert.equal(cache.get(2), -1);
  assert.deepEqual(cache.keys(), [1, 3]);
});

test('is an LRUCache', () => {
  assert.ok(new LRUCache(1) instanceof LRUCache);
});

test('refuses a capacity of zero', () => {
  assert.throws(() => new LRUCache(0), RangeError);
});
"#,
            ),
            (
                "size.test.js",
                r#"import { test } from 'node:test';
import assert from 'node:assert';
import LRUCache from './solution.js';

test('size stays within capacity', (t) => {
  const cache = new LRUCache(3);
  for (let i = 0; i < 10; i++) cache.put(i, i * i);
  assert.strictEqual(cache.size, 3);
  assert.deepStrictEqual(cache.keys(), [7, 8, 9]);
});
"#,
            ),
        ],
    },
    Module {
        name: "events",
        right: EVENTS,
        wrong: EVENTS_WRONG,
        throws: EVENTS_THROWS,
        exports: "module.exports = { Emitter, memoize, pipe, countBy, counter };\n",
        missing: "module.exports = { EmitterV2: Emitter };\n",
        jest: &[
            (
                "emitter.test.js",
                r#"const { Emitter } = require('./solution');

test('calls its listeners with the arguments', () => {
  const e = new Emitter();
  const first = jest.fn();
  const second = jest.fn();
  e.on('tick', first).on('tick', second);
  expect(e.emit('tick', 1, 2)).toBe(2);
  expect(first).toHaveBeenCalledWith(1, 2);
  expect(second).toHaveBeenCalledTimes(1);
});

test('calls them in order', () => {
  const e = new Emitter();
  const seen = [];
  e.on('x', () => seen.push('a'));
  e.on('x', () => seen.push('b'));
  e.emit('x');
  expect(seen).toEqual(['a', 'b']);
});

test('a listener taken off is not called', () => {
  const e = new Emitter();
  const listener = jest.fn();
  e.on('x', listener);
  e.off('x', listener);
  expect(e.emit('x')).toBe(0);
  expect(listener).not.toHaveBeenCalled();
});

test('a listener must be a function', () => {
  expect(() => new Emitter().on('x', 42)).toThrow(TypeError);
});

test('a listener that throws stops the emit', () => {
  const e = new Emitter();
  e.on('x', () => { throw new Error('listener failed'); });
  expect(() => e.emit('x')).toThrow('listener failed');
});
"#,
            ),
            (
                "functions.test.js",
                r#"const { memoize, pipe, countBy, counter } = require('./solution');

describe('memoize', () => {
  test('calls the function once per argument', () => {
    const square = jest.fn((x) => x * x);
    const fast = memoize(square);
    expect(fast(3)).toBe(9);
    expect(fast(3)).toBe(9);
    expect(fast(4)).toBe(16);
    expect(square).toHaveBeenCalledTimes(2);
  });

  test('returns a function', () => {
    expect(typeof memoize((x) => x)).toBe('function');
  });
});

test('pipe runs left to right', () => {
  expect(pipe((x) => x + 1, (x) => x * 2)(3)).toBe(8);
  expect(pipe()(5)).toBe(5);
});

test('countBy groups by the key', () => {
  expect(countBy(['a', 'bb', 'c', 'dd', 'eee'], (s) => s.length)).toEqual({ 1: 2, 2: 2, 3: 1 });
});

test('a counter object counts', () => {
  const c = counter(5);
  expect(c.increment()).toBe(6);
  expect(c.increment()).toBe(7);
  expect(c.value).toBe(7);
  expect(c.reset()).toBe(5);
  expect(Object.keys(c)).toEqual(['value', 'increment', 'reset']);
});
"#,
            ),
        ],
        node: &[
            (
                "emitter.test.js",
                r#"const test = require('node:test');
const assert = require('node:assert');
const { Emitter } = require('./solution');

test('calls its listeners in order', () => {
  const e = new Emitter();
  const seen = [];
  e.on('tick', (n) => seen.push(['a', n]));
  e.on('tick', (n) => seen.push(['b', n]));
  assert.strictEqual(e.emit('tick', 7), 2);
  assert.deepStrictEqual(seen, [['a', 7], ['b', 7]]);
});

test('a listener taken off is not called', () => {
  const e = new Emitter();
  let calls = 0;
  const listener = () => { calls++; };
  e.on('x', listener).off('x', listener);
  e.emit('x');
  assert.strictEqual(calls, 0);
});
"#,
            ),
            (
                "functions.test.js",
                r#"const { test } = require('node:test');
const assert = require('node:assert/strict');
const { memoize, pipe, countBy, counter } = require('./solution');

test('memoize calls once per argument', () => {
  let calls = 0;
  const fast = memoize((x) => { calls++; return x + 1; });
  assert.equal(fast(1), 2);
  assert.equal(fast(1), 2);
  assert.equal(calls, 1);
});

test('pipe runs left to right', () => {
  assert.equal(pipe((x) => x * 10, (x) => x - 1)(2), 19);
});

test('countBy', () => {
  assert.deepEqual(countBy([1, 2, 3, 4], (n) => (n % 2 ? 'odd' : 'even')), { odd: 2, even: 2 });
});

test('a counter object counts', () => {
  const c = counter(-1);
  assert.equal(c.increment(), 0);
  c.increment();
  assert.equal(c.value, 1);
  assert.equal(c.reset(), -1);
});
"#,
            ),
        ],
    },
    Module {
        name: "vector",
        right: VECTOR,
        wrong: VECTOR_WRONG,
        throws: VECTOR_THROWS,
        exports: "module.exports = { Vector };\n",
        missing: "module.exports = { Vector2: Vector };\n",
        jest: &[
            (
                "vector.test.js",
                r#"const { Vector } = require('./solution');

test('adds into a new vector', () => {
  const a = new Vector(1, 2);
  const b = new Vector(3, 4);
  expect(a.add(b)).toEqual(new Vector(4, 6));
  expect(a.add(b)).toEqual({ x: 4, y: 6 });
  expect(a).toEqual(new Vector(1, 2));
});

test('scales without changing itself', () => {
  const a = new Vector(1, -2);
  expect(a.scale(3)).toStrictEqual(new Vector(3, -6));
  expect(a.scale(1)).not.toBe(a);
  expect(a.x).toBe(1);
});

test('has a length', () => {
  expect(new Vector(3, 4).length).toBeCloseTo(5);
});

test('compares with another vector', () => {
  expect(new Vector(1, 2).equals(new Vector(1, 2))).toBe(true);
  expect(new Vector(1, 2).equals(new Vector(1, 3))).toBe(false);
});

test('prints itself', () => {
  expect(String(new Vector(1, 2))).toBe('(1, 2)');
  expect(`${Vector.zero()}`).toBe('(0, 0)');
});

test('spreads into its coordinates', () => {
  expect([...new Vector(5, 6)]).toEqual([5, 6]);
  expect(Math.max(...new Vector(5, 6))).toBe(6);
});
"#,
            ),
            (
                "zero.test.ts",
                r#"import { Vector } from './solution';

describe('zero', () => {
  test('is the identity of add', () => {
    const v = new Vector(2, 9);
    expect(v.add(Vector.zero())).toEqual(v);
  });

  test('is a Vector', () => {
    expect(Vector.zero()).toBeInstanceOf(Vector);
    expect(Vector.zero().constructor).toBe(Vector);
  });
});
"#,
            ),
        ],
        node: &[
            (
                "vector.test.js",
                r#"const test = require('node:test');
const assert = require('node:assert');
const { Vector } = require('./solution');

test('adds', () => {
  assert.deepStrictEqual(new Vector(1, 2).add(new Vector(3, 4)), new Vector(4, 6));
});

test('scales into a new vector', () => {
  const a = new Vector(1, 1);
  assert.notStrictEqual(a.scale(2), a);
  assert.strictEqual(a.x, 1);
});

test('prints itself', () => {
  assert.strictEqual(`${new Vector(-1, 0)}`, '(-1, 0)');
});
"#,
            ),
            (
                "equals.test.js",
                r#"const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { Vector } = require('./solution');

describe('equals', () => {
  it('is true for the same coordinates', () => {
    assert.ok(new Vector(1, 2).equals(new Vector(1, 2)));
  });

  it('is false otherwise', () => {
    assert.ok(!new Vector(1, 2).equals(new Vector(1, 5)));
  });

  it('has a length', () => {
    assert.ok(Math.abs(new Vector(6, 8).length - 10) < 1e-9);
  });
});
"#,
            ),
        ],
    },
];

/// The units of `framework` ("jest" or "node_test").
fn units(framework: &str) -> Vec<Unit> {
    MODULES
        .iter()
        .map(|m| {
            let program = |body: &str, exports: &str| format!("{body}{exports}");
            Unit {
                name: m.name.to_string(),
                programs: vec![
                    ("right", program(m.right, m.exports)),
                    ("wrong", program(m.wrong, m.exports)),
                    ("throws", program(m.throws, m.exports)),
                    (
                        "missing",
                        program(
                            &m.right
                                .replace("export default class", "class")
                                .replace("export class", "class"),
                            m.missing,
                        ),
                    ),
                    // Fails to load: natively the test file's import of it fails, and the file
                    // with it.
                    (
                        "broken",
                        format!("{}undefinedName.x;\n", program(m.right, m.exports)),
                    ),
                ],
                files: if framework == "jest" { m.jest } else { m.node }
                    .iter()
                    .map(|(file, source)| (file.to_string(), source.to_string()))
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn jest_files_of_classes_and_callbacks_give_native_jests_verdict_for_every_test() {
    let (disagreements, compared, _) = agreement_of("jest", &units("jest"));
    common::assert_native_agreement("jest", (disagreements, compared), 100);
}

#[test]
fn node_test_files_of_classes_and_callbacks_give_native_node_tests_verdict_for_every_test() {
    let (disagreements, compared, _) = agreement_of("node_test", &units("node_test"));
    common::assert_native_agreement("node_test", (disagreements, compared), 80);
}
