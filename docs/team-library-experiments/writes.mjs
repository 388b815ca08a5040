// Experiment 3: write throughput of segments with 512-d float32 embeddings (bytea, 2,048 bytes) in batches,
// through one parameterised statement (unnest of arrays: no SQL built from strings), with the change
// stamp trigger (seq + xid8) and one NOTIFY per statement. Leaves `segments` filled for experiment 4.
// usage: node writes.mjs [--rows 100000] [--writers 3]
import { connect, pct, r2 } from './lib.mjs';
const arg = (n, d) => { const i = process.argv.indexOf(`--${n}`); return i > 0 ? Number(process.argv[i + 1]) : d; };
const ROWS = arg('rows', 100000), WRITERS = arg('writers', 3), DIM = 512;
const admin = await connect();
await admin.query(`
  DROP TABLE IF EXISTS embeddings; DROP TABLE IF EXISTS segments; DROP SEQUENCE IF EXISTS change_seq;
  CREATE SEQUENCE change_seq;
  CREATE TABLE segments (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    clip_fp     text NOT NULL,
    shot_idx    integer NOT NULL, chunk_idx integer NOT NULL, part text NOT NULL DEFAULT '', profile_id text NOT NULL,
    start_s     real NOT NULL, end_s real NOT NULL,
    content_sha text NOT NULL,
    seq         bigint NOT NULL, xid xid8 NOT NULL,
    UNIQUE (clip_fp, shot_idx, chunk_idx, part, profile_id)
  );
  CREATE TABLE embeddings (
    segment_id  bigint PRIMARY KEY REFERENCES segments(id) ON DELETE CASCADE,
    model       text NOT NULL, region text NOT NULL,
    vector      bytea NOT NULL,                -- float32 LE x 512
    seq         bigint NOT NULL, xid xid8 NOT NULL
  );
  ALTER TABLE embeddings ALTER COLUMN vector SET STORAGE EXTERNAL;  -- random floats do not compress: skip the attempt
  CREATE INDEX segments_seq ON segments (seq); CREATE INDEX embeddings_seq ON embeddings (seq);
  CREATE OR REPLACE FUNCTION stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN NEW.seq := nextval('change_seq'); NEW.xid := pg_current_xact_id(); RETURN NEW; END $$;
  CREATE TRIGGER segments_stamp BEFORE INSERT OR UPDATE ON segments FOR EACH ROW EXECUTE FUNCTION stamp_change();
  CREATE TRIGGER embeddings_stamp BEFORE INSERT OR UPDATE ON embeddings FOR EACH ROW EXECUTE FUNCTION stamp_change();
  CREATE OR REPLACE FUNCTION notify_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('catalog_changes', json_build_object('t', TG_TABLE_NAME)::text); RETURN NULL; END $$;
  CREATE TRIGGER embeddings_notify AFTER INSERT ON embeddings FOR EACH STATEMENT EXECUTE FUNCTION notify_stmt();
`);
const INS_SEG = `
  INSERT INTO segments (clip_fp, shot_idx, chunk_idx, profile_id, start_s, end_s, content_sha)
  SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::real[], $6::real[], $7::text[])
  RETURNING id`;
const INS_EMB = `
  INSERT INTO embeddings (segment_id, model, region, vector)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bytea[])`;

function vec(seed) { // deterministic unit-ish vector, float32 LE
  const f = new Float32Array(DIM); let x = seed * 2654435761 % 4294967296;
  for (let i = 0; i < DIM; i++) { x = (x * 1664525 + 1013904223) % 4294967296; f[i] = x / 4294967296 - 0.5; }
  let n = 0; for (const v of f) n += v * v; n = Math.sqrt(n); for (let i = 0; i < DIM; i++) f[i] /= n;
  return Buffer.from(f.buffer);
}
let next = 0;
async function writeBatch(c, size, tag) {
  const base = next; next += size;
  const fp = [], shot = [], chunk = [], prof = [], st = [], en = [], sha = [];
  for (let i = 0; i < size; i++) { const k = base + i; fp.push(`${tag}-fp${Math.floor(k / 8)}`); shot.push(k % 8); chunk.push(0); prof.push('p1'); st.push(k % 8 * 8); en.push(k % 8 * 8 + 8); sha.push(`sha${k}`); }
  await c.query('BEGIN');
  const ids = (await c.query(INS_SEG, [fp, shot, chunk, prof, st, en, sha])).rows.map((r) => r.id);
  await c.query(INS_EMB, [ids, ids.map(() => 'service@emulator'), ids.map(() => 'eu'), ids.map((_, i) => vec(base + i))]);
  await c.query('COMMIT');
}
const results = {};
// one writer, batch sizes
for (const size of [1, 100, 1000]) {
  const n = size === 1 ? 2000 : 20000;
  const t0 = performance.now(); const lat = [];
  for (let done = 0; done < n; done += size) { const s = performance.now(); await writeBatch(admin, size, `b${size}`); lat.push(performance.now() - s); }
  const s = (performance.now() - t0) / 1000;
  results[`batch_${size}`] = { rows: n, rows_per_s: Math.round(n / s), batch_p50_ms: r2(pct(lat, 50)), batch_p95_ms: r2(pct(lat, 95)) };
}
// WRITERS seats at once, batches of 500, until ROWS rows in total
{
  const cs = await Promise.all(Array.from({ length: WRITERS }, () => connect()));
  const have = Number((await admin.query('SELECT count(*) FROM segments')).rows[0].count);
  const perWriter = Math.ceil((ROWS - have) / WRITERS / 500) * 500;
  const t0 = performance.now();
  await Promise.all(cs.map(async (c, w) => { for (let d = 0; d < perWriter; d += 500) await writeBatch(c, 500, `w${w}`); }));
  const s = (performance.now() - t0) / 1000;
  results[`concurrent_${WRITERS}_writers_batch_500`] = { rows: perWriter * WRITERS, rows_per_s: Math.round(perWriter * WRITERS / s) };
  await Promise.all(cs.map((c) => c.end()));
}
await admin.query('VACUUM ANALYZE segments'); await admin.query('VACUUM ANALYZE embeddings');
const size = (await admin.query(`SELECT count(*)::int AS n, pg_size_pretty(pg_total_relation_size('embeddings')) AS emb, pg_size_pretty(pg_total_relation_size('segments')) AS seg, pg_total_relation_size('embeddings') / count(*) AS bytes_per_emb FROM embeddings`)).rows[0];
console.log(JSON.stringify({ experiment: 'writes', dim: DIM, ...results, table: size }));
await admin.end();
