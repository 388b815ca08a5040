import { z } from 'zod';
import { appErrorSchema } from '../errors';
import { method, voidSchema } from './define';
import { safeText } from './safe-strings';

/**
 * The team library's opt-in (docs/notes-team-library.md). How a seat reaches the team's PostgreSQL
 * server, without the password: it goes to the secret store like the service's API key and never
 * comes back out of main, so these settings can be shown, logged and sent to the renderer
 * (`.strict()` refuses an object that carries one). There is no connection string either: in pg 8
 * `sslmode=require` means verify-full and pg 9 switches to libpq's meaning, so TLS comes from
 * these fields only.
 */
export const TEAM_SSL_MODES = ['verify-full', 'disable'] as const;

const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/;
/** A host name or an IPv4 literal (IPv6 and unix socket folders are checked apart). */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** An IPv6 literal, checked by the URL parser both main and the renderer have (no node:net here). */
export function isIpv6Literal(h: string): boolean {
  if (!h.includes(':') || /[[\]/]/.test(h)) return false;
  try {
    return new URL(`http://[${h}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

export const teamConnectionSettingsSchema = z
  .object({
    host: safeText(255)
      .min(1)
      .refine((h) => HOST_NAME.test(h) || isIpv6Literal(h) || h.startsWith('/'), 'a host name, an IP address or a unix socket folder'),
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

const teamPasswordSchema = z.string().min(1).max(1024);

/** What joining needs: the settings and the seat role's password (main keeps it in the secret store). */
export const teamJoinSchema = z.object({ settings: teamConnectionSettingsSchema, password: teamPasswordSchema }).strict();

/** The result of one check: the schema version the server is at, or why it could not be reached or used. */
export const teamCheckResultSchema = z.object({
  ok: z.boolean(),
  /** ISO time of the check. */
  at: z.string(),
  schemaVersion: z.number().int().nonnegative().nullable(),
  error: appErrorSchema.nullable(),
});
export type TeamCheckResult = z.infer<typeof teamCheckResultSchema>;

export const teamStatusSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('solo') }),
  z.object({
    mode: z.literal('configured'),
    settings: teamConnectionSettingsSchema,
    /** This workstation's id in team.seats, made when it joined. */
    seatId: z.string(),
    lastCheck: teamCheckResultSchema.nullable(),
  }),
]);
export type TeamStatus = z.infer<typeof teamStatusSchema>;

/** What this seat's share of the team's work looks like now (Settings shows it while joined). */
export const teamActivitySchema = z.object({
  joined: z.boolean(),
  /** The last contact with the team server succeeded. */
  online: z.boolean(),
  /** Clips of this catalog the team knows (by content fingerprint). */
  clips: z.number().int().nonnegative(),
  /** Indexed by this seat and published for the team. */
  indexedHere: z.number().int().nonnegative(),
  /** Results copied from other seats (nothing decoded or sent from here). */
  fromOtherSeats: z.number().int().nonnegative(),
  /** Indexed here while the server was away: published when it is back. */
  unpublished: z.number().int().nonnegative(),
  /** Clips other seats indexed whose files this seat has not found on its drives (looked for again every 30 s). */
  notHere: z.number().int().nonnegative(),
  /** The shares those clips are on, as the seats that have them name them (at most five). */
  notHereShares: z.array(z.string()),
  /** Why this joined seat works alone although the server answers (its start's check: schema, password); null otherwise. */
  held: z.string().nullable(),
});
export type TeamActivity = z.infer<typeof teamActivitySchema>;

export const teamMethods = {
  'team.status': method(voidSchema, teamStatusSchema),
  /**
   * Join: connects with what the form holds, reads the schema version and registers this seat;
   * the settings and the password are kept only when that succeeds (a failure throws its kind).
   */
  'team.configure': method(teamJoinSchema, teamStatusSchema),
  /**
   * With `form`: tries what the form holds (connect, schema version), keeps and registers nothing.
   * Without: checks the joined server and refreshes this seat (team.seats.last_seen_at).
   */
  'team.check': method(z.object({ form: teamJoinSchema.optional() }).strict().default({}), teamCheckResultSchema),
  /** Back to solo: settings and password forgotten; the catalog on this machine is not touched. */
  'team.leave': method(voidSchema, teamStatusSchema),
  /** This seat's share of the work (zeros when solo). */
  'team.activity': method(voidSchema, teamActivitySchema),
} as const;
