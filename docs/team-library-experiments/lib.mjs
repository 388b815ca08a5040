// Shared helpers: connection from cluster.env (written by ./cluster.sh start), percentiles.
import pg from 'pg';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const here = path.dirname(fileURLToPath(import.meta.url));
export function env() {
  const line = fs.readFileSync(path.join(here, 'cluster.env'), 'utf8');
  const o = {};
  for (const m of line.matchAll(/(\w+)=('[^']*'|\S+)/g)) o[m[1]] = m[2].replace(/^'|'$/g, '');
  return o;
}
export function config(extra = {}) {
  const e = env();
  return { host: e.PGHOST, port: Number(e.PGPORT), user: e.PGUSER, database: e.PGDATABASE, ...extra };
}
export async function connect(extra = {}) {
  const c = new pg.Client(config(extra));
  await c.connect();
  return c;
}
export function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
export const r2 = (x) => Math.round(x * 100) / 100;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
