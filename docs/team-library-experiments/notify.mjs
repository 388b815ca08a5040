// Experiment 2: change propagation. (a) LISTEN/NOTIFY latency from a committed write (a range, i.e. a
// mark) on one connection to a listener on another, p50/p95 over 1,000; (b) a change cursor (bigint seq
// per changed row) as the catch-up after a disconnect; (c) the hole of a plain `seq > $1` cursor when
// writers commit out of seq order, and two exact fixes: an xid8 snapshot cursor, and seq taken under a
// transaction advisory lock (commit order = seq order).
// usage: node notify.mjs [--n 1000]
import { connect, pct, r2, sleep } from './lib.mjs';
const arg = (n, d) => { const i = process.argv.indexOf(`--${n}`); return i > 0 ? Number(process.argv[i + 1]) : d; };
const N = arg('n', 1000);
const admin = await connect();
await admin.query(`
  DROP TABLE IF EXISTS ranges; DROP SEQUENCE IF EXISTS change_seq;
  CREATE SEQUENCE change_seq;
  CREATE TABLE ranges (
    id         uuid PRIMARY KEY,            -- made on the seat, so an offline seat can create ranges
    clip_fp    text NOT NULL,               -- the clip's content fingerprint
    in_frame   integer NOT NULL, out_frame integer NOT NULL, rate_num integer NOT NULL, rate_den integer NOT NULL,
    name       text NOT NULL, note text NOT NULL DEFAULT '',
    author     text NOT NULL, updated_at timestamptz NOT NULL,
    seq        bigint NOT NULL,             -- change cursor
    xid        xid8 NOT NULL DEFAULT pg_current_xact_id()
  );
  CREATE INDEX ranges_seq ON ranges (seq);
  CREATE INDEX ranges_xid ON ranges (xid);
  CREATE OR REPLACE FUNCTION stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN NEW.seq := nextval('change_seq'); NEW.xid := pg_current_xact_id(); RETURN NEW; END $$;
  CREATE TRIGGER ranges_stamp BEFORE INSERT OR UPDATE ON ranges FOR EACH ROW EXECUTE FUNCTION stamp_change();
  CREATE OR REPLACE FUNCTION notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('catalog_changes', json_build_object('t', TG_TABLE_NAME, 'seq', NEW.seq)::text); RETURN NULL; END $$;
  CREATE TRIGGER ranges_notify AFTER INSERT OR UPDATE ON ranges FOR EACH ROW EXECUTE FUNCTION notify_change();
`);
const INSERT = `INSERT INTO ranges (id, clip_fp, in_frame, out_frame, rate_num, rate_den, name, author, updated_at)
                VALUES (gen_random_uuid(), $1, $2, $2 + 48, 24000, 1001, $3, 'seat-A', now()) RETURNING id, seq`;

// ---- (a) latency ---------------------------------------------------------------------------
const writer = await connect();
let listener = await connect();
const waiting = new Map(); // seq -> resolve
const received = new Map(); // seq -> time
function attach(l) {
  l.on('notification', (m) => {
    const t = performance.now();
    const { seq } = JSON.parse(m.payload);
    received.set(Number(seq), t);
    waiting.get(Number(seq))?.(t);
  });
}
attach(listener);
await listener.query('LISTEN catalog_changes');
const lat = [], latAfterCommitAck = [];
for (let i = 0; i < N; i++) {
  const t0 = performance.now();
  const r = await writer.query(INSERT, [`fp${i % 60}`, i, `take ${i}`]); // autocommit: the INSERT is its own transaction
  const tAck = performance.now();
  const seq = Number(r.rows[0].seq);
  const tr = received.get(seq) ?? await new Promise((res) => waiting.set(seq, res));
  waiting.delete(seq);
  lat.push(tr - t0);
  latAfterCommitAck.push(tr - tAck);
  await sleep(2);
}

// ---- (b) catch-up after a disconnect ----------------------------------------------------------
const { rows: [{ max: cursorAtDisconnect }] } = await listener.query('SELECT max(seq)::bigint AS max FROM ranges');
await listener.end();
let missedByNotify = 0;
const changedWhileAway = new Set();
const ids = (await writer.query('SELECT id FROM ranges ORDER BY random() LIMIT 200')).rows.map((r) => r.id);
for (let i = 0; i < 300; i++) changedWhileAway.add((await writer.query(INSERT, [`fp${i % 60}`, i, `away ${i}`])).rows[0].id);
for (const id of ids) { await writer.query(`UPDATE ranges SET note = 'edited while B was away', author = 'seat-A', updated_at = now() WHERE id = $1`, [id]); changedWhileAway.add(id); }
listener = await connect();
const tc = performance.now();
let cursor = BigInt(cursorAtDisconnect), got = new Set(), pages = 0;
for (;;) {
  const r = await listener.query('SELECT id, seq FROM ranges WHERE seq > $1 ORDER BY seq LIMIT 1000', [cursor.toString()]);
  pages++;
  for (const row of r.rows) got.add(row.id);
  if (r.rows.length < 1000) { if (r.rows.length) cursor = BigInt(r.rows.at(-1).seq); break; }
  cursor = BigInt(r.rows.at(-1).seq);
}
const catchupMs = performance.now() - tc;
const catchupMissing = [...changedWhileAway].filter((id) => !got.has(id)).length;
const catchupExtra = [...got].filter((id) => !changedWhileAway.has(id)).length;

// ---- (c) out-of-order commits: the hole, and the fixes ----------------------------------------
async function holeDemo(mode) {
  const t1 = await connect(), t2 = await connect(), rd = await connect();
  const { rows: [{ max }] } = await rd.query('SELECT max(seq)::bigint AS max FROM ranges');
  let seqCursor = BigInt(max);
  let snap = (await rd.query('SELECT pg_current_snapshot()::text AS s')).rows[0].s;
  const seen = new Set();
  const read = async () => {
    if (mode === 'snapshot') {
      // rows committed since the previous read's snapshot: not visible then, visible now
      await rd.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const r = await rd.query(`SELECT id FROM ranges WHERE xid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(xid, $1::pg_snapshot)`, [snap]);
      snap = (await rd.query('SELECT pg_current_snapshot()::text AS s')).rows[0].s;
      await rd.query('COMMIT');
      r.rows.forEach((x) => seen.add(x.id));
    } else {
      const r = await rd.query('SELECT id, seq FROM ranges WHERE seq > $1 ORDER BY seq', [seqCursor.toString()]);
      r.rows.forEach((x) => seen.add(x.id));
      if (r.rows.length) seqCursor = BigInt(r.rows.at(-1).seq);
    }
  };
  const lock = mode === 'advisory' ? `SELECT pg_advisory_xact_lock(7001)` : 'SELECT 1';
  await t1.query('BEGIN'); await t1.query(lock);
  const a = (await t1.query(INSERT, ['fpX', 1, 'slow writer'])).rows[0];     // takes the lower seq, commits last
  let bDone;
  const bPromise = (async () => { await t2.query('BEGIN'); await t2.query(lock); const b = (await t2.query(INSERT, ['fpX', 2, 'fast writer'])).rows[0]; await t2.query('COMMIT'); bDone = b; })();
  await sleep(300);                 // with the advisory lock, B waits here for A's commit
  await read();                     // reader runs between B's commit and A's commit
  await t1.query('COMMIT');
  await bPromise;
  await read();
  await read();
  const res = { a_seq: Number(a.seq), b_seq: Number(bDone.seq), b_committed_before_a: mode !== 'advisory', a_seen: seen.has(a.id), b_seen: seen.has(bDone.id) };
  await Promise.all([t1.end(), t2.end(), rd.end()]);
  return res;
}
const hole = { seq_cursor: await holeDemo('seq'), snapshot_cursor: await holeDemo('snapshot'), seq_under_advisory_lock: await holeDemo('advisory') };

console.log(JSON.stringify({
  experiment: 'notify', notifications: N,
  notify_p50_ms: r2(pct(lat, 50)), notify_p95_ms: r2(pct(lat, 95)), notify_p99_ms: r2(pct(lat, 99)), notify_max_ms: r2(Math.max(...lat)),
  after_commit_ack_p50_ms: r2(pct(latAfterCommitAck, 50)), after_commit_ack_p95_ms: r2(pct(latAfterCommitAck, 95)),
  catchup: { changed_while_away: changedWhileAway.size, changes_read: got.size, missing: catchupMissing, extra: catchupExtra, pages, ms: r2(catchupMs) },
  out_of_order_commit: hole,
}));
await writer.end(); await listener.end(); await admin.end();
