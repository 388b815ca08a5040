import net from 'node:net';
import type { ClientConfig } from 'pg';
import { z } from 'zod';
import { safeText } from '../../../src-shared/contract/safe-strings';
import { AppError } from '../../../src-shared/errors';

/**
 * How a seat reaches the team's PostgreSQL server. The password is not here: it is kept in the
 * secret store like the service's API key and handed to `teamClientConfig` only when connecting,
 * so a settings object can be shown, logged or sent to the renderer without it (`.strict()` refuses
 * one that carries a password). There is no connection string either: in pg 8 `sslmode=require`
 * means verify-full and pg 9 switches to libpq's meaning, so TLS comes from these fields only.
 */
export const TEAM_SSL_MODES = ['verify-full', 'disable'] as const;

const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/;
/** A host name, an IPv4 or IPv6 literal, or the absolute path of a unix socket's folder. */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

export const teamConnectionSettingsSchema = z
  .object({
    host: safeText(255)
      .min(1)
      .refine((h) => HOST_NAME.test(h) || net.isIP(h) !== 0 || h.startsWith('/'), 'a host name, an IP address or a unix socket folder'),
    port: z.number().int().min(1).max(65535),
    database: safeText(63).min(1),
    user: safeText(63).min(1),
    /** verify-full: TLS with the server's certificate checked against `caCertificate` or the system's CAs. */
    sslmode: z.enum(TEAM_SSL_MODES),
    /** PEM of the team's own CA, when the server's certificate is not publicly trusted. */
    caCertificate: z.string().max(65_536).regex(PEM_CERTIFICATE, 'a PEM certificate').optional(),
    /** How this workstation is named to the others (Jobs, authors of marks). */
    seatName: safeText(100).trim().min(1),
  })
  .strict();

export type TeamConnectionSettings = z.infer<typeof teamConnectionSettingsSchema>;

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
