import net from 'node:net';
import type { ClientConfig } from 'pg';
import { teamConnectionSettingsSchema, type TeamConnectionSettings } from '../../../../src-shared/contract/team';
import { AppError } from '../../../../src-shared/errors';

/**
 * Settings + password -> the pg client's configuration, with the TLS rule. The settings' schema is
 * the contract's (src-shared/contract/team.ts): the password is never part of it.
 */

/** 127.0.0.0/8, ::1, localhost or a unix socket: the only places a connection may go without TLS. */
export function isLoopbackHost(host: string): boolean {
  if (host.startsWith('/')) return true;
  if (/^localhost\.?$/i.test(host)) return true;
  if (net.isIPv4(host)) return host.split('.')[0] === '127';
  if (net.isIPv6(host)) return new URL(`http://[${host}]/`).hostname === '[::1]';
  return false;
}

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The pg client configuration for a seat: TLS verified against the team CA (or the system's) unless
 * the server is on this machine. A plain connection to any other host is refused here, before any
 * packet is sent, whatever the server would accept.
 */
export function teamClientConfig(settings: TeamConnectionSettings, password: string): ClientConfig {
  const parsed = teamConnectionSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new AppError('invalid', `team server settings: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'} ${i.message}`).join('; ')}`);
  const s = parsed.data;
  if (s.sslmode === 'disable' && !isLoopbackHost(s.host)) {
    throw new AppError('invalid', `the team server ${s.host} is not on this machine: TLS (verify-full) is required`);
  }
  return {
    host: s.host,
    port: s.port,
    database: s.database,
    user: s.user,
    password,
    ssl: s.sslmode === 'disable' ? false : { rejectUnauthorized: true, ...(s.caCertificate ? { ca: s.caCertificate } : {}) },
    application_name: 'reelscout',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  };
}
