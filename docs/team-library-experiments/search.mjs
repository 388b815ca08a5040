// Experiment 4: vector search at team scale without pgvector, over the ~100k segments experiment 3 left.
// (1) a seat's catch-up: every embedding read through the change cursor (seq pages), fed to a local usearch
//     HNSW index with the app's settings (cos, i8, M 32, ef 128/256): read rows/s, build, query p50/p95, recall@10;
// (2) exact scan in SQL over bytea (float32 decoded in PL/pgSQL): timed on a slice, extrapolated;
// (3) exact scan in SQL over float4[] (unnest dot product): timed on a slice, extrapolated;
// (4) a Hamming pre-filter in SQL on a 512-bit sign code (bit_count(code # q)) + exact re-rank of 200 in the client;
// (5) exact scan in JS over vectors held in memory (what a seat without an index would do).
// usage: node search.mjs   (after writes.mjs)
import { connect, pct, r2 } from './lib.mjs';
import usearch from '../../node_modules/usearch/javascript/dist/cjs/usearch.js';
const { Index, MetricKind, ScalarKind } = usearch;
const DIM = 512, K = 10;
const db = await connect();
const out = { experiment: 'search', dim: DIM };
const T0 = performance.now(); const log = (m) => process.stderr.write(`[${((performance.now() - T0) / 1000).toFixed(1)}s] ${m}\n`);

// ---- (1) catch-up through the cursor ----------------------------------------------------------
const total = Number((await db.query('SELECT count(*) FROM embeddings')).rows[0].count);
const vecs = new Float32Array(total * DIM), keys = new BigUint64Array(total);
let cursor = '0', n = 0, bytes = 0;
const t0 = performance.now();
for (;;) {
  const r = await db.query({ text: 'SELECT segment_id, seq, vector FROM embeddings WHERE seq > $1 ORDER BY seq LIMIT 5000', values: [cursor] });
  for (const row of r.rows) {
    vecs.set(new Float32Array(row.vector.buffer, row.vector.byteOffset, DIM), n * DIM); // copies
    keys[n++] = BigInt(row.segment_id); bytes += row.vector.length;
  }
  if (r.rows.length < 5000) break;
  cursor = r.rows.at(-1).seq;
}
const readS = (performance.now() - t0) / 1000;
out.cursor_read = { rows: n, s: r2(readS), rows_per_s: Math.round(n / readS), mb_per_s: r2(bytes / 1e6 / readS) };

const idx = new Index({ metric: MetricKind.Cos, dimensions: DIM, connectivity: 32, expansion_add: 128, expansion_search: 256, quantization: ScalarKind.I8, multi: false });
log('const tb = performan');
const tb = performance.now();
// The local index is built over the first LOCAL rows only (this shared 2-core box adds ~700-1,000 vectors/s
// at the app's settings under load); bench:search in the app measures the same index at 1M.
const LOCAL = Math.min(n, Number(process.env.LOCAL_ROWS ?? 20000));
for (let c = 0; c < LOCAL; c += 10000) { idx.add(keys.subarray(c, Math.min(LOCAL, c + 10000)), vecs.subarray(c * DIM, Math.min(LOCAL, c + 10000) * DIM), 2); log(`added ${Math.min(LOCAL, c + 10000)}`); }
const buildS = (performance.now() - tb) / 1000;
// exact truth for the local index: over its LOCAL rows; for the SQL paths: over all n rows

// queries: stored vectors plus noise
const Q = 100, queries = [];
let seed = 12345; const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
for (let q = 0; q < Q; q++) {
  const base = Math.floor(rnd() * Math.min(n, Number(process.env.LOCAL_ROWS ?? 20000))), v = new Float32Array(DIM); let nn = 0;
  for (let i = 0; i < DIM; i++) { v[i] = vecs[base * DIM + i] + (rnd() - 0.5) * 0.08; nn += v[i] * v[i]; }
  nn = Math.sqrt(nn); for (let i = 0; i < DIM; i++) v[i] /= nn; queries.push(v);
}
function exactTop(v, k = K, rows = n) { // vectors are unit length: dot = cos
  const best = []; // [score, row]
  for (let r = 0; r < rows; r++) {
    let s = 0; const o = r * DIM; for (let i = 0; i < DIM; i++) s += v[i] * vecs[o + i];
    if (best.length < k || s > best[k - 1][0]) { best.push([s, r]); best.sort((a, b) => b[0] - a[0]); if (best.length > k) best.pop(); }
  }
  return best.map(([, r]) => keys[r]);
}
log('const truth = []');
const truth = [], exactLat = [];
for (const v of queries) { const s = performance.now(); truth.push(exactTop(v)); exactLat.push(performance.now() - s); }
const hLat = []; let hit = 0;
for (let q = 0; q < Q; q++) {
  const lq = queries[q]; const lt = exactTop(lq, K, LOCAL);
  const s = performance.now(); const m = idx.search(lq, K, 0); hLat.push(performance.now() - s);
  const got = new Set(Array.from(m.keys)); hit += lt.filter((k) => got.has(k)).length;
}
// the app's query path re-ranks rerankFactor (4) x k graph candidates exactly on the f32 vectors
const rLat = []; let rHit = 0;
for (let q = 0; q < Q; q++) {
  const lq = queries[q]; const lt = exactTop(lq, K, LOCAL);
  const s = performance.now();
  const m = idx.search(lq, K * 4, 0); const rowOf = (key) => Number(key) - Number(keys[0]); // keys are consecutive here
  const sc = Array.from(m.keys).map((key) => { const o = rowOf(key) * DIM; let d = 0; for (let i = 0; i < DIM; i++) d += lq[i] * vecs[o + i]; return [d, key]; }).sort((a, b) => b[0] - a[0]).slice(0, K);
  rLat.push(performance.now() - s);
  const got = new Set(sc.map((x) => x[1])); rHit += lt.filter((k) => got.has(k)).length;
}
out.local_usearch_rerank_4x = { rows: LOCAL, p50_ms: r2(pct(rLat, 50)), p95_ms: r2(pct(rLat, 95)), recall_at_10: r2(rHit / (Q * K)) };
out.local_usearch = { rows: LOCAL, build_s: r2(buildS), add_per_s: Math.round(LOCAL / buildS), p50_ms: r2(pct(hLat, 50)), p95_ms: r2(pct(hLat, 95)), recall_at_10: r2(hit / (Q * K)) };
out.exact_js_in_memory = { rows: n, p50_ms: r2(pct(exactLat, 50)), p95_ms: r2(pct(exactLat, 95)) };

if (process.env.SKIP_SQL) { console.log(JSON.stringify(out)); process.exit(0); }
log('// ---- (2)');
// ---- (2) exact in SQL over bytea ------------------------------------------------------------------
await db.query(`
  CREATE OR REPLACE FUNCTION f32_dot(v bytea, q float8[]) RETURNS float8 LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
  DECLARE s float8 := 0; b int; e int; m int; x float8; i int;
  BEGIN
    FOR i IN 0 .. array_length(q, 1) - 1 LOOP
      b := get_byte(v, 4*i+3); e := ((b & 127) << 1) | (get_byte(v, 4*i+2) >> 7);
      m := ((get_byte(v, 4*i+2) & 127) << 16) | (get_byte(v, 4*i+1) << 8) | get_byte(v, 4*i);
      IF e = 0 THEN x := m * 2.0^(-149); ELSE x := (1 + m / 8388608.0) * 2.0^(e - 127); END IF;
      IF b >= 128 THEN x := -x; END IF;
      s := s + x * q[i+1];
    END LOOP;
    RETURN s;
  END $$`);
{
  const SLICE = 1000, qv = Array.from(queries[0]);
  const s = performance.now();
  const r = await db.query('SELECT segment_id FROM (SELECT segment_id, vector FROM embeddings ORDER BY segment_id LIMIT $2) t ORDER BY f32_dot(vector, $1::float8[]) DESC LIMIT 10', [qv, SLICE]);
  const ms = performance.now() - s;
  // check the decode against JS on one row
  const chk = (await db.query('SELECT f32_dot(vector, $1::float8[]) AS d FROM embeddings WHERE segment_id = $2', [qv, keys[0].toString()])).rows[0].d;
  let js = 0; for (let i = 0; i < DIM; i++) js += qv[i] * vecs[i];
  out.exact_sql_bytea_plpgsql = { rows_timed: SLICE, ms: Math.round(ms), us_per_row: r2(ms * 1000 / SLICE), extrapolated_100k_s: r2(ms / SLICE * 100000 / 1000), extrapolated_1m_s: r2(ms / SLICE * 1e6 / 1000), decode_matches_js: Math.abs(chk - js) < 1e-5 };
}

log('// ---- (3)');
// ---- (3) exact in SQL over float4[] ------------------------------------------------------------
{
  const SLICE = 20000;
  await db.query('DROP TABLE IF EXISTS emb_arr');
  await db.query('CREATE TABLE emb_arr (segment_id bigint PRIMARY KEY, v float4[] NOT NULL)');
  for (let r = 0; r < SLICE; r += 1000) {
    const ids = [], arrs = [];
    for (let j = r; j < r + 1000; j++) { ids.push(keys[j].toString()); arrs.push(Array.from(vecs.subarray(j * DIM, (j + 1) * DIM))); }
    await db.query('INSERT INTO emb_arr SELECT * FROM unnest($1::bigint[]) WITH ORDINALITY AS a(id, o) CROSS JOIN LATERAL (SELECT ($2::float4[])[a.o:a.o][1:512]) x', [ids, arrs]).catch(async () => {
      for (let j = 0; j < ids.length; j++) await db.query('INSERT INTO emb_arr VALUES ($1, $2::float4[])', [ids[j], arrs[j]]);
    });
  }
  await db.query('VACUUM ANALYZE emb_arr');
  const cnt = Number((await db.query('SELECT count(*) FROM emb_arr')).rows[0].count);
  const lat = [];
  for (let q = 0; q < 3; q++) {
    const s = performance.now();
    await db.query('SELECT segment_id FROM emb_arr ORDER BY (SELECT sum(a * b) FROM unnest(v, $1::float4[]) AS t(a, b)) DESC LIMIT 10', [Array.from(queries[q])]);
    lat.push(performance.now() - s);
  }
  const ms = pct(lat, 50);
  out.exact_sql_float4_array = { rows_timed: cnt, p50_ms: Math.round(ms), us_per_row: r2(ms * 1000 / cnt), extrapolated_100k_s: r2(ms / cnt * 100000 / 1000), extrapolated_1m_s: r2(ms / cnt * 1e6 / 1000), size_mb: Number((await db.query(`SELECT pg_total_relation_size('emb_arr') / 1e6 AS mb`)).rows[0].mb).toFixed(0) };
  await db.query('DROP TABLE emb_arr');
}

log('// ---- (4)');
// ---- (4) Hamming pre-filter on a 512-bit sign code in SQL + exact re-rank in the client ------------
{
  const signs = (v, o = 0) => { let s = ''; for (let i = 0; i < DIM; i++) s += v[o + i] >= 0 ? '1' : '0'; return s; };
  await db.query('ALTER TABLE embeddings ADD COLUMN IF NOT EXISTS code bit(512)');
  for (let r = 0; r < n; r += 5000) {
    const ids = [], codes = [];
    for (let j = r; j < Math.min(n, r + 5000); j++) { ids.push(keys[j].toString()); codes.push(signs(vecs, j * DIM)); }
    await db.query('UPDATE embeddings e SET code = u.code FROM unnest($1::bigint[], $2::bit(512)[]) AS u(id, code) WHERE e.segment_id = u.id', [ids, codes]);
  }
  await db.query('VACUUM ANALYZE embeddings');
  const lat = []; let hit = 0; const QH = 30, CAND = 200;
  for (let q = 0; q < QH; q++) {
    const s = performance.now();
    const cand = (await db.query('SELECT segment_id, vector FROM embeddings ORDER BY bit_count(code # $1::bit(512)) LIMIT $2', [signs(queries[q]), CAND])).rows;
    const scored = cand.map((row) => { const f = new Float32Array(row.vector.buffer, row.vector.byteOffset, DIM); let d = 0; for (let i = 0; i < DIM; i++) d += f[i] * queries[q][i]; return [d, BigInt(row.segment_id)]; }).sort((a, b) => b[0] - a[0]).slice(0, K);
    lat.push(performance.now() - s);
    const got = new Set(scored.map((x) => x[1])); hit += truth[q].filter((k) => got.has(k)).length;
  }
  out.sql_hamming_prefilter_rerank_200 = { rows: n, p50_ms: Math.round(pct(lat, 50)), p95_ms: Math.round(pct(lat, 95)), recall_at_10: r2(hit / (QH * K)), extrapolated_1m_p50_s: r2(pct(lat, 50) * 10 / 1000) };
}
log('console.log(JSON.str');
console.log(JSON.stringify(out));
await db.end();
