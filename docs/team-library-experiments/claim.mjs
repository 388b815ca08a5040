// Experiment 1: job claiming with leases on PostgreSQL 15.
// 10 claimers on separate connections drain 10k queued jobs (claim -> complete with a fencing token),
// then a lease that expires (a claimer that stops renewing) is claimed by another seat.
// usage: node claim.mjs [--jobs 10000] [--claimers 10]
import { connect, pct, r2, sleep } from './lib.mjs';
const arg = (n, d) => { const i = process.argv.indexOf(`--${n}`); return i > 0 ? Number(process.argv[i + 1]) : d; };
const JOBS = arg('jobs', 10000), CLAIMERS = arg('claimers', 10);

const admin = await connect();
await admin.query(`DROP TABLE IF EXISTS jobs`);
await admin.query(`
  CREATE TABLE jobs (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    clip_id          bigint,
    stage            text NOT NULL,
    state            text NOT NULL CHECK (state IN ('queued','running','succeeded','failed','paused','cancelled')),
    resource         text NOT NULL,
    lane             smallint NOT NULL DEFAULT 1,
    priority         integer NOT NULL DEFAULT 0,
    attempts         integer NOT NULL DEFAULT 0,
    not_before       timestamptz,
    lease_owner      text,            -- seat id holding the lease
    lease_token      bigint NOT NULL DEFAULT 0,  -- +1 per claim: fencing token, a stale holder's writes are refused
    lease_expires_at timestamptz,
    payload          jsonb,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (clip_id, stage)
  )`);
await admin.query(`CREATE INDEX jobs_claim ON jobs (resource, priority DESC, lane, clip_id, id) WHERE state = 'queued'`);
await admin.query(`CREATE INDEX jobs_lease ON jobs (lease_expires_at) WHERE state = 'running'`);
// 10k queued jobs: cpu and network stages, a few high-priority clips; plus 20k finished rows as history
await admin.query(`
  INSERT INTO jobs (clip_id, stage, state, resource, lane, priority)
  SELECT g / 4, (ARRAY['probe','poster','analysis','upload'])[g % 4 + 1], 'queued',
         CASE WHEN g % 4 = 3 THEN 'network' ELSE 'cpu' END, CASE WHEN g % 4 < 2 THEN 0 ELSE 1 END,
         CASE WHEN g % 500 = 0 THEN 100 ELSE 0 END
  FROM generate_series(0, $1 - 1) g`, [JOBS]);
await admin.query(`
  INSERT INTO jobs (clip_id, stage, state, resource) SELECT 1000000 + g, 'index', 'succeeded', 'cpu' FROM generate_series(1, 20000) g`);
await admin.query(`VACUUM ANALYZE jobs`);

const CLAIM = `
  UPDATE jobs SET state = 'running', lease_owner = $1, lease_token = lease_token + 1,
         lease_expires_at = now() + make_interval(secs => $3), updated_at = now()
   WHERE id = (SELECT id FROM jobs
                WHERE state = 'queued' AND resource = $2 AND (not_before IS NULL OR not_before <= now())
                ORDER BY priority DESC, lane, clip_id, id
                LIMIT 1 FOR UPDATE SKIP LOCKED)
  RETURNING id, clip_id, stage, lease_token`;
const COMPLETE = `
  UPDATE jobs SET state = 'succeeded', lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
   WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND lease_token = $3`;
const RENEW = `UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3) WHERE id = $1 AND lease_owner = $2 AND lease_token = $4 AND state = 'running'`;
const REAP = `
  UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
   WHERE state = 'running' AND lease_expires_at < now() RETURNING id`;

// ---- part A: 10 claimers drain the queue -------------------------------------------------
const clients = await Promise.all(Array.from({ length: CLAIMERS }, () => connect()));
const claimsOf = new Map(); // job id -> claimer ids
const lat = [];
let staleRefused = 0;
const t0 = performance.now();
await Promise.all(clients.map(async (c, i) => {
  const me = `seat-${i}`;
  const resource = i % 2 ? 'network' : 'cpu';   // per-stage resource slots: half the claimers ask for each
  for (let res = resource; ;) {
    const s = performance.now();
    const r = await c.query(CLAIM, [me, res, 30]);
    lat.push(performance.now() - s);
    if (r.rowCount === 0) {
      if (res === resource) { res = resource === 'cpu' ? 'network' : 'cpu'; continue; } // own lane empty: help the other
      break;
    }
    const job = r.rows[0];
    (claimsOf.get(job.id) ?? claimsOf.set(job.id, []).get(job.id)).push(me);
    const done = await c.query(COMPLETE, [job.id, me, job.lease_token]);
    if (done.rowCount !== 1) staleRefused++;
  }
}));
const wall = (performance.now() - t0) / 1000;
const double = [...claimsOf.values()].filter((v) => v.length > 1).length;
const { rows: [left] } = await admin.query(`SELECT count(*) FILTER (WHERE state <> 'succeeded')::int AS open, count(*) FILTER (WHERE lease_token <> 1)::int AS tokens_not_1 FROM jobs WHERE clip_id < 1000000`);

// ---- part B: a lease that expires is claimed by another seat -------------------------------
await admin.query(`INSERT INTO jobs (clip_id, stage, state, resource, priority) VALUES (-1, 'upload', 'queued', 'network', 1000)`);
const [a, b] = clients;
const LEASE_S = 2;
const { rows: [ja] } = await a.query(CLAIM, ['seat-A', 'network', LEASE_S]);
const claimedAt = performance.now();
// seat-A renews once, then "crashes" (stops renewing, connection stays open: the worst case, no session end)
await sleep(1000);
const renew = await a.query(RENEW, [ja.id, 'seat-A', LEASE_S, ja.lease_token]);
const renewedAt = performance.now();
// seat-B runs its reaper + claim loop every 250 ms
let jb = null, reapedIds = [], polls = 0;
while (!jb) {
  await sleep(250);
  polls++;
  reapedIds.push(...(await b.query(REAP)).rows.map((r) => r.id));
  const r = await b.query(CLAIM, ['seat-B', 'network', 30]);
  if (r.rowCount) jb = r.rows[0];
}
const reclaimedAfterExpiryMs = performance.now() - renewedAt - LEASE_S * 1000;
// seat-A wakes up and tries to finish with its old token: refused (fencing)
const late = await a.query(COMPLETE, [ja.id, 'seat-A', ja.lease_token]);
const bDone = await b.query(COMPLETE, [jb.id, 'seat-B', jb.lease_token]);

const out = {
  experiment: 'claim', jobs: JOBS, claimers: CLAIMERS, wall_s: r2(wall), claims_per_s: Math.round(JOBS / wall),
  claim_p50_ms: r2(pct(lat, 50)), claim_p95_ms: r2(pct(lat, 95)), claim_p99_ms: r2(pct(lat, 99)), claim_max_ms: r2(Math.max(...lat)),
  double_claims: double, claimed_jobs: claimsOf.size, open_after: left.open, server_side_jobs_claimed_not_exactly_once: left.tokens_not_1, stale_completions_refused_in_drain: staleRefused,
  lease: { lease_s: LEASE_S, renewed: renew.rowCount === 1, same_job_reclaimed: jb.id === ja.id, reclaimed_by: 'seat-B',
    reclaimed_ms_after_expiry: Math.round(reclaimedAfterExpiryMs), reaper_polls: polls, new_token: jb.lease_token, old_token: ja.lease_token,
    late_completion_by_A_accepted: late.rowCount === 1, completion_by_B_accepted: bDone.rowCount === 1 },
};
await Promise.all(clients.map((c) => c.end()));
await admin.end();
console.log(JSON.stringify(out));
