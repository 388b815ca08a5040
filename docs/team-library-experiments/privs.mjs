// Experiment 5: the minimal role and TLS. Run after ./privs.sh (TLS on, pg_hba as there).
// Creates database `team`, schema `team` owned by a NOLOGIN owner role (migrations run as it, by an admin),
// and the seats' LOGIN role with DML on the tables it needs and nothing else. Then checks what the seat
// role can and cannot do, and how node-postgres behaves with each TLS setting.
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import { env, connect } from './lib.mjs';
const e = env();
const IP = Object.values(os.networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal).address;
const CA = fs.readFileSync(`${e.PGDATA_DIR}/certs/ca.crt`, 'utf8');
const OTHER = fs.readFileSync(`${e.PGDATA_DIR}/certs/other.crt`, 'utf8');
const PASS = 'seat-' + Math.random().toString(36).slice(2);
const admin = await connect();
await admin.query('DROP DATABASE IF EXISTS team');
await admin.query('DROP ROLE IF EXISTS reelscout_seat');
await admin.query('DROP ROLE IF EXISTS reelscout_owner');
await admin.query('CREATE DATABASE team');
await admin.query('CREATE ROLE reelscout_owner NOLOGIN');
await admin.query(`CREATE ROLE reelscout_seat LOGIN PASSWORD '${PASS}' CONNECTION LIMIT 40`); // test-only literal: CREATE ROLE takes no parameters
await admin.end();
const a2 = await connect({ database: 'team' });
await a2.query(`
  REVOKE ALL ON DATABASE team FROM PUBLIC;            -- no CONNECT, no TEMP, no CREATE for anyone else
  REVOKE ALL ON SCHEMA public FROM PUBLIC;
  GRANT CONNECT ON DATABASE team TO reelscout_seat;
  CREATE SCHEMA team AUTHORIZATION reelscout_owner;
  SET ROLE reelscout_owner;                            -- migrations: DDL as the owner, never as the seat
  CREATE SEQUENCE team.change_seq;
  CREATE TABLE team.clips (fingerprint text PRIMARY KEY, size_bytes bigint NOT NULL, duration_s real, seq bigint NOT NULL DEFAULT nextval('team.change_seq'));
  CREATE TABLE team.segments (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, clip_fp text NOT NULL REFERENCES team.clips, chunk_idx int NOT NULL, seq bigint NOT NULL DEFAULT nextval('team.change_seq'));
  CREATE TABLE team.ranges (id uuid PRIMARY KEY, clip_fp text NOT NULL REFERENCES team.clips, name text NOT NULL, seq bigint NOT NULL DEFAULT nextval('team.change_seq'));
  CREATE TABLE team.jobs (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, clip_fp text, stage text NOT NULL, state text NOT NULL, lease_owner text, lease_token bigint NOT NULL DEFAULT 0, lease_expires_at timestamptz);
  RESET ROLE;
  GRANT USAGE ON SCHEMA team TO reelscout_seat;
  GRANT SELECT, INSERT, UPDATE ON team.clips, team.segments, team.jobs TO reelscout_seat;
  GRANT SELECT, INSERT, UPDATE, DELETE ON team.ranges TO reelscout_seat;   -- marks can be deleted by an editor
  GRANT USAGE ON SEQUENCE team.change_seq TO reelscout_seat;
  GRANT USAGE ON ALL SEQUENCES IN SCHEMA team TO reelscout_seat;
  ALTER ROLE reelscout_seat SET search_path = team;
  ALTER ROLE reelscout_seat SET statement_timeout = '30s';
  ALTER ROLE reelscout_seat SET idle_in_transaction_session_timeout = '60s';
`);
await a2.end();

const base = { port: Number(e.PGPORT), user: 'reelscout_seat', password: PASS, database: 'team', connectionTimeoutMillis: 5000 };
async function attempt(label, cfg) {
  const c = new pg.Client({ ...base, ...cfg });
  try {
    await c.connect();
    const r = await c.query('SELECT ssl, version, cipher FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    await c.end();
    return { label, ok: true, ...r.rows[0] };
  } catch (err) {
    try { await c.end(); } catch {}
    return { label, ok: false, error: String(err.message).split('\n')[0].slice(0, 140) };
  }
}
const warnings = [];
process.on('warning', (w) => warnings.push(String(w.message).split('\n')[0].slice(0, 120)));
const tls = [
  await attempt(`loopback 127.0.0.1, ssl off`, { host: '127.0.0.1', ssl: false }),
  await attempt(`${IP}, ssl off`, { host: IP, ssl: false }),
  await attempt(`${IP}, ssl { ca: team CA } (verify-full)`, { host: IP, ssl: { ca: CA, rejectUnauthorized: true } }),
  await attempt(`${IP}, ssl: true (system CAs only)`, { host: IP, ssl: true }),
  await attempt(`${IP}, ssl { ca: another CA }`, { host: IP, ssl: { ca: OTHER } }),
  await attempt(`${IP}, ssl { ca, servername: 'nas.example' } (name mismatch)`, { host: IP, ssl: { ca: CA, servername: 'nas.example' } }),
  await attempt(`${IP}, ssl { rejectUnauthorized: false } (encrypt, no verify)`, { host: IP, ssl: { rejectUnauthorized: false } }),
  await attempt(`connectionString sslmode=require (pg 8: alias of verify-full)`, { connectionString: `postgres://reelscout_seat:${PASS}@${IP}:${e.PGPORT}/team?sslmode=require`, host: undefined }),
  await attempt(`connectionString uselibpqcompat=true&sslmode=require (libpq: no verify)`, { connectionString: `postgres://reelscout_seat:${PASS}@${IP}:${e.PGPORT}/team?uselibpqcompat=true&sslmode=require`, host: undefined }),
];

// what the seat may and may not do (over TLS, as a seat would)
const seat = new pg.Client({ ...base, host: IP, ssl: { ca: CA } });
await seat.connect();
async function may(label, sql, params = []) {
  try { await seat.query(sql, params); return { label, allowed: true }; } catch (err) { return { label, allowed: false, code: err.code, error: err.message.slice(0, 80) }; }
}
const checks = [
  await may('insert clip', `INSERT INTO clips (fingerprint, size_bytes) VALUES ($1, 1)`, ['fp1']),
  await may('insert range', `INSERT INTO ranges (id, clip_fp, name) VALUES (gen_random_uuid(), 'fp1', 'take')`),
  await may('delete range', `DELETE FROM ranges WHERE name = 'take'`),
  await may('enqueue + claim a job', `WITH j AS (INSERT INTO jobs (clip_fp, stage, state) VALUES ('fp1', 'probe', 'queued') RETURNING id)
     UPDATE jobs SET state = 'running', lease_owner = 's1', lease_token = lease_token + 1 WHERE id = (SELECT id FROM jobs WHERE state = 'queued' LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id`),
  await may('LISTEN', 'LISTEN catalog_changes'),
  await may('delete segment', 'DELETE FROM segments'),
  await may('truncate jobs', 'TRUNCATE jobs'),
  await may('create table in team', 'CREATE TABLE team.x (a int)'),
  await may('create table in public', 'CREATE TABLE public.x (a int)'),
  await may('create temp table', 'CREATE TEMP TABLE x (a int)'),
  await may('create schema', 'CREATE SCHEMA s2'),
  await may('alter table', 'ALTER TABLE clips ADD COLUMN y int'),
  await may('drop table', 'DROP TABLE ranges'),
  await may('create function', 'CREATE FUNCTION team.f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$'),
  await may('read pg_authid', 'SELECT * FROM pg_authid'),
  await may('setval the cursor sequence', `SELECT setval('change_seq', 1)`),
];
await seat.end();
console.log(JSON.stringify({ experiment: 'privileges_tls', tls, seat_role: checks, node_warnings: [...new Set(warnings)] }, null, 1));
