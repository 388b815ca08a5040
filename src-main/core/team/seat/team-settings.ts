import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import {
  teamCheckResultSchema,
  teamConnectionSettingsSchema,
  type TeamCheckResult,
  type TeamConnectionSettings,
  type TeamStatus,
} from '../../../../src-shared/contract/team';
import { AppError, toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import type { JsonStore, SecretStore } from '../../util/persisted-stores';
import { teamClientConfig } from './connection-settings';
import { readTeamMigrations } from '../server/migrate-team';
import { schemaMismatch, serverSchemaVersion } from '../server/migration-store';
import { teamErrorOf } from '../server/pg-errors';
import { joinSeat } from '../server/seat-store';

/**
 * Whether this workstation is a seat of a team library, and the one place that says so: the
 * connection settings, the seat's id and the last check live in their own JSON file (not the
 * preferences: leaving forgets them whole), the password in the secret store beside the API key.
 * Joining and checking connect with the TLS rule (connection-settings.ts), read the schema version
 * and register the seat; while joined, the seat runtime (../team-runtime.ts) works with it.
 */

export const TEAM_PASSWORD_SECRET = 'team.password';

const storedSchema = z.object({
  settings: teamConnectionSettingsSchema,
  seatId: z.uuid(),
  lastCheck: teamCheckResultSchema.nullable(),
});
type StoredTeam = z.infer<typeof storedSchema>;
/** What a leave keeps of it: the seat's id, for the next join. */
const keptSeatSchema = z.object({ seatId: z.uuid() });

export interface TeamSettingsDeps {
  /** team.json in the data folder (handed down by the composition root). */
  store: JsonStore;
  /** The secret store the API key lives in (OS keychain in Electron, the encrypted file in web mode). */
  secrets: SecretStore;
  logger: Logger;
  /** The schema version this app's migrations reach (default: the packaged migration files). */
  appSchemaVersion?: () => number;
}

export interface TeamSettings {
  status(): TeamStatus;
  /** Checks the form, registering the seat; keeps settings and password only if that succeeds. */
  join(settings: TeamConnectionSettings, password: string): Promise<TeamStatus>;
  /** The form, tried without keeping or registering anything. */
  tryForm(settings: TeamConnectionSettings, password: string): Promise<TeamCheckResult>;
  /** The joined server, again: refreshes the seat and records the result. */
  check(): Promise<TeamCheckResult>;
  /** A check's outcome as Settings' "Last check", kept only while `seatId` is still the joined seat (a leave may have run meanwhile). */
  recordCheck(seatId: string, check: TeamCheckResult): void;
  leave(): TeamStatus;
  /** Main only, never the renderer: what the seat runtime connects with, while joined. */
  joined(): { settings: TeamConnectionSettings; password: string; seatId: string } | null;
  /** Told after a join or a leave (the seat runtime starts or stops). */
  onChanged(listener: () => void): () => void;
  /** The schema version this app's migrations reach: a seat works only with a server at it. */
  appSchemaVersion(): number;
}

export function createTeamSettings(d: TeamSettingsDeps): TeamSettings {
  // The packaged migrations do not change while the app runs: read them once, at the first check.
  let packagedVersion: number | undefined;
  const appVersion = d.appSchemaVersion ?? (() => (packagedVersion ??= readTeamMigrations().at(-1)?.version ?? 0));
  const stored = (): StoredTeam | null => {
    const raw = d.store.store;
    // After a leave only the seat's id is kept (below): not joined.
    if (!raw || !('settings' in raw)) return null;
    const parsed = storedSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    d.logger.warn('team.settings.invalid', { issues: parsed.error.issues.map((i) => i.path.join('.')) });
    return null;
  };
  const save = (s: StoredTeam) => {
    d.store.store = s as unknown as Record<string, unknown>;
  };
  const password = (): string => {
    const p = d.secrets.get(TEAM_PASSWORD_SECRET);
    if (!p) throw new AppError('auth', 'the team server password is not stored on this machine: leave the team and join again');
    return p;
  };
  const seatIdAfterLeave = (): string | null => {
    const kept = keptSeatSchema.safeParse(d.store.store);
    return kept.success ? kept.data.seatId : null;
  };
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  const status = (): TeamStatus => {
    const s = stored();
    return s ? { mode: 'configured', settings: s.settings, seatId: s.seatId, lastCheck: s.lastCheck } : { mode: 'solo' };
  };

  /** One connection: the server's schema version, compared with this app's, and (given a seat) the seat registered. */
  const connectAndCheck = async (settings: TeamConnectionSettings, pw: string, seatId: string | null): Promise<number> => {
    const client = new pg.Client(teamClientConfig(settings, pw));
    // A socket error after connect arrives as an event; the pending query rejects with it.
    client.on('error', () => undefined);
    try {
      await client.connect();
      const server = await serverSchemaVersion(client);
      const mismatch = schemaMismatch(server, appVersion());
      if (mismatch) throw new AppError('invalid', mismatch);
      if (seatId) await joinSeat(client, { seatId, name: settings.seatName, roots: [] });
      return server;
    } catch (e) {
      throw teamErrorOf(e, settings);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  /** A check's outcome as a value: its schema version, or its error with a kind. */
  const settle = async (check: () => Promise<number>): Promise<TeamCheckResult> => {
    try {
      const schemaVersion = await check();
      return { ok: true, at: new Date().toISOString(), schemaVersion, error: null };
    } catch (e) {
      return { ok: false, at: new Date().toISOString(), schemaVersion: null, error: toAppError(e).toJSON() };
    }
  };

  const recordCheck = (seatId: string, check: TeamCheckResult) => {
    const s = stored();
    if (s?.seatId === seatId) save({ ...s, lastCheck: check });
  };

  return {
    status,
    recordCheck,
    async join(settings, pw) {
      d.logger.addSecret(pw);
      const seatId = stored()?.seatId ?? seatIdAfterLeave() ?? randomUUID();
      const check = await settle(() => connectAndCheck(settings, pw, seatId));
      if (!check.ok) {
        d.logger.warn('team.join.failed', { host: settings.host, kind: check.error?.kind, message: check.error?.message });
        throw AppError.from(check.error!);
      }
      d.secrets.set(TEAM_PASSWORD_SECRET, pw);
      save({ settings, seatId, lastCheck: check });
      d.logger.info('team.joined', { host: settings.host, database: settings.database, seatId, schemaVersion: check.schemaVersion, store: d.secrets.kind });
      changed();
      return status();
    },
    async tryForm(settings, pw) {
      d.logger.addSecret(pw);
      return settle(() => connectAndCheck(settings, pw, null));
    },
    async check() {
      const s = stored();
      if (!s) throw new AppError('invalid', 'this workstation has not joined a team library (Settings, Team library)');
      const check = await settle(() => connectAndCheck(s.settings, password(), s.seatId));
      recordCheck(s.seatId, check);
      if (!check.ok) d.logger.warn('team.check.failed', { kind: check.error?.kind, message: check.error?.message });
      return check;
    },
    leave() {
      d.secrets.delete(TEAM_PASSWORD_SECRET);
      // The seat's id stays: joining again (another login, a team moved to a role per seat) is the same
      // seat, whose login the server binds to it (team migration 0011), with its marks and results.
      const s = stored();
      d.store.store = s ? { seatId: s.seatId } : {};
      d.logger.info('team.left');
      changed();
      return status();
    },
    joined() {
      const s = stored();
      const pw = s ? d.secrets.get(TEAM_PASSWORD_SECRET) : null;
      if (!s || !pw) return null;
      d.logger.addSecret(pw);
      return { settings: s.settings, password: pw, seatId: s.seatId };
    },
    onChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    appSchemaVersion: appVersion,
  };
}
