import type { z } from 'zod';
import { seededRandom } from '../../../src-main/core/util/seeded-random';

/**
 * Values for the contract's argument schemas, read from the zod definitions themselves, so a
 * method added to the contract is fuzzed without touching the test. `sample` aims at values the
 * schema accepts (a leaf's candidates are checked against the leaf); `mutate` then puts hostile
 * values at random places. Used by test/integration/web/contract-fuzz.test.ts.
 */

export type Rng = () => number;

/** Seeded, so a failing run can be replayed with its seed. */
export const rng = (seed: number): Rng => seededRandom(seed);

export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** Candidate strings by the key they sit under; what a field rejects is filtered out by its schema. */
export interface StringPools {
  paths: string[];
  urls: string[];
  words: string[];
}

interface Def {
  type: string;
  [k: string]: unknown;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const ok = (s: z.ZodType, v: unknown) => s.safeParse(v).success;

export interface SampleOptions {
  /** Every optional and defaulted field present, nullable ones not null (for walking every leaf). */
  full?: boolean;
}

/** One value for `schema`, usually accepted by it. `key` is the object key it sits under (a hint for strings and ids). */
export function sample(schema: z.ZodType, r: Rng, pools: StringPools, key = '', o: SampleOptions = {}): unknown {
  const d = defOf(schema);
  switch (d.type) {
    case 'string': {
      const byKey = /path|folder/i.test(key) ? pools.paths : /url/i.test(key) ? pools.urls : pools.words;
      const candidates = [...byKey, ...pools.words, ...pools.paths, ...pools.urls, 'x', 'abcdefgh-key-0001'];
      const start = Math.floor(r() * byKey.length);
      for (let i = 0; i < candidates.length; i++) {
        const c = i < byKey.length ? byKey[(start + i) % byKey.length]! : candidates[i]!;
        if (ok(schema, c)) return c;
      }
      return 'x';
    }
    case 'number': {
      const candidates = /id$/i.test(key) ? [1, 2, 3, 1, 2, 5, 0.5] : [1, 2, 0, 3, 10, 0.5, 24, 100, 1000];
      const shuffled = [...candidates].sort(() => r() - 0.5);
      return shuffled.find((c) => ok(schema, c)) ?? 1;
    }
    case 'boolean':
      return r() < 0.5;
    case 'enum':
      return pick(r, Object.values(d.entries as Record<string, string>));
    case 'literal':
      return pick(r, d.values as unknown[]);
    case 'null':
      return null;
    case 'unknown':
    case 'any':
      return pick(r, [null, 1, 'x', {}, []]);
    case 'optional':
      return !o.full && r() < 0.35 ? undefined : sample(d.innerType as z.ZodType, r, pools, key, o);
    case 'default':
    case 'prefault':
      return !o.full && r() < 0.5 ? undefined : sample(d.innerType as z.ZodType, r, pools, key, o);
    case 'nullable':
      return !o.full && r() < 0.2 ? null : sample(d.innerType as z.ZodType, r, pools, key, o);
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return sample(d.innerType as z.ZodType, r, pools, key, o);
    case 'pipe':
      return sample(d.in as z.ZodType, r, pools, key, o);
    case 'array': {
      const el = d.element as z.ZodType;
      const n = o.full ? 2 : Math.floor(r() * 4);
      const out = Array.from({ length: n }, () => sample(el, r, pools, key.replace(/s$/, ''), o));
      // A minimum length (ids, paths): grow until the array itself is accepted, a few times at most.
      for (let i = 0; i < 3 && !ok(schema, out); i++) out.push(sample(el, r, pools, key.replace(/s$/, ''), o));
      return out;
    }
    case 'union':
      return sample(pick(r, d.options as z.ZodType[]), r, pools, key, o);
    case 'object': {
      const shape = d.shape as Record<string, z.ZodType>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(shape)) {
        const val = sample(v, r, pools, k, o);
        if (val !== undefined) out[k] = val;
      }
      return out;
    }
    case 'record':
      return {};
    case 'tuple':
      return (d.items as z.ZodType[]).map((it) => sample(it, r, pools, key, o));
    default:
      return null;
  }
}

/** Paths (as key lists) of every string leaf in a value the schema describes, with the leaf's schema. */
export function stringLeaves(schema: z.ZodType, value: unknown, at: (string | number)[] = []): { path: (string | number)[]; schema: z.ZodType }[] {
  const d = defOf(schema);
  switch (d.type) {
    case 'string':
      return typeof value === 'string' ? [{ path: at, schema }] : [];
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return stringLeaves(d.innerType as z.ZodType, value, at);
    case 'pipe':
      return stringLeaves(d.in as z.ZodType, value, at);
    case 'array':
      return Array.isArray(value) ? value.flatMap((v, i) => stringLeaves(d.element as z.ZodType, v, [...at, i])) : [];
    case 'union': {
      // The option that accepts the value is the one whose leaves it has.
      const opt = (d.options as z.ZodType[]).find((op) => ok(op, value));
      return opt ? stringLeaves(opt, value, at) : [];
    }
    case 'object': {
      if (typeof value !== 'object' || value === null) return [];
      const shape = d.shape as Record<string, z.ZodType>;
      return Object.entries(shape).flatMap(([k, v]) => ((value as Record<string, unknown>)[k] === undefined ? [] : stringLeaves(v, (value as Record<string, unknown>)[k], [...at, k])));
    }
    default:
      return [];
  }
}

export function setAt(value: unknown, at: (string | number)[], leaf: unknown): unknown {
  if (at.length === 0) return leaf;
  if (Array.isArray(value)) {
    const copy: unknown[] = [...value];
    copy[at[0] as number] = setAt(copy[at[0] as number], at.slice(1), leaf);
    return copy;
  }
  const copy: Record<string | number, unknown> = { ...(value as Record<string, unknown>) };
  copy[at[0]!] = setAt(copy[at[0]!], at.slice(1), leaf);
  return copy;
}

/** Every place in a JSON-like value (objects' keys, arrays' items), the root included. */
function places(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...places(v, [...at, i])));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) out.push(...places(v, [...at, k]));
  return out;
}

/** Strings a hostile or broken renderer might send: control characters, broken UTF-16, traversal, markup, huge. */
export const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udfff\ud800',
  'x'.repeat(70_000),
  '../../../../etc/passwd',
  '%2e%2e%2f%00',
  '\u202egnp.exe',
  'line\r\n002  EVIL',
  '',
  ' ',
  '<img src=x onerror=alert(1)>',
  "' OR 1=1; DROP TABLE clips; --",
  '__proto__',
  'constructor',
  '😀🎬',
  'C:\\x\\y.mp4',
  '\\\\srv\\share\\x.mp4',
  '=HYPERLINK("http://evil.example")',
];
const HOSTILE_NUMBERS = [-1, 0, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 1.5, -0, 5e-324, 2 ** 31, -(2 ** 31) - 1];
const HOSTILE_OTHERS: unknown[] = [null, true, false, [], {}, [[[[]]]], { a: { b: { c: {} } } }, 'x', 1];
/** What only the IPC path can carry (structured clone), never JSON. */
export const CLONE_ONLY: unknown[] = [NaN, Infinity, -Infinity, undefined, 10n, new Date(0), new Map([[1, 2]]), new Set([1]), new Uint8Array(3), new Array<number>(2), new Error('x')];

/** The value with one to three places replaced by hostile values (or an unknown key added). */
export function mutate(value: unknown, r: Rng, o: { cloneOnly?: boolean } = {}): unknown {
  let v = value;
  // Mostly one change, so the rest of the call stays valid and the hostile value reaches the handler.
  const n = r() < 0.6 ? 1 : 2 + Math.floor(r() * 2);
  for (let i = 0; i < n; i++) {
    const at = pick(r, places(v));
    const here = at.reduce<unknown>((x, k) => (x as Record<string | number, unknown>)?.[k], v);
    const roll = r();
    // Mostly the same type with a hostile value (what gets past a type check), sometimes anything.
    const same = typeof here === 'string' ? HOSTILE_STRINGS : typeof here === 'number' ? HOSTILE_NUMBERS : null;
    const pool = o.cloneOnly && roll < 0.2 ? CLONE_ONLY : same && roll < 0.75 ? same : roll < 0.5 ? HOSTILE_STRINGS : roll < 0.8 ? HOSTILE_NUMBERS : HOSTILE_OTHERS;
    if (r() < 0.1 && typeof v === 'object' && v !== null && !Array.isArray(v)) v = { ...(v as object), [pick(r, ['extra', '__proto__', 'constructor', 'toString'])]: pick(r, pool) };
    else v = setAt(v, at, pick(r, pool));
  }
  return v;
}
