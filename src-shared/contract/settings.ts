import { z } from 'zod';
import { appErrorSchema } from '../errors';
import { method, voidSchema, okSchema } from './define';
import { safeText } from './safe-strings';

export const REGION_IDS = ['asia', 'usa', 'china'] as const;
export const regionIdSchema = z.enum(REGION_IDS);
export type RegionId = z.infer<typeof regionIdSchema>;

/** The spec: only the primary (Asia) region is available; the other two are announced. */
/** The spec announces usa and china as "coming soon": they are listed, never used. */
export const REGIONS: readonly { id: RegionId; label: string; available: boolean }[] = [
  { id: 'asia', label: 'Asia (primary)', available: true },
  { id: 'usa', label: 'USA (coming soon)', available: false },
  { id: 'china', label: 'China (coming soon)', available: false },
];

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or plain http to this machine only: the API key travels with every request. */
export function isAllowedServiceUrl(s: string): boolean {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname));
}

/** The origin a URL sends to ("" for none): the API key is bound to it. */
export function originOf(s: string): string {
  try {
    return new URL(s).origin;
  } catch {
    return '';
  }
}

const httpUrl = safeText(2048)
  .trim()
  .refine((s) => s === '' || isAllowedServiceUrl(s), 'must be an https URL (plain http only to localhost)');

/**
 * When a clip's indexing also writes a viewing proxy: always; when needed (the player cannot
 * decode the original, or it is on a drive that can be unplugged); never.
 */
export const PROXY_POLICIES = ['always', 'needed', 'never'] as const;
export const proxyPolicySchema = z.enum(PROXY_POLICIES);
export type ProxyPolicy = z.infer<typeof proxyPolicySchema>;
/** Space the viewing proxies may take unless the editor sets another (GB). */
export const DEFAULT_PROXY_BUDGET_GB = 200;

export const preferencesSchema = z.object({
  region: regionIdSchema.refine((r) => REGIONS.find((x) => x.id === r)?.available, 'region is not available yet').default('asia'),
  baseUrls: z
    .object({ asia: httpUrl.default(''), usa: httpUrl.default(''), china: httpUrl.default('') })
    .default({ asia: '', usa: '', china: '' }),
  authHeader: z.enum(['x-api-key', 'bearer']).default('x-api-key'),
  qps: z.number().positive().max(1000).default(5),
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Field name for Base64 video in synchronous tagging: the spec does not name it. */
  base64VideoField: safeText(64).min(1).default('video_base64'),
  /**
   * Chosen in main only (a native file dialog in Electron, a flag in web mode) and checked to be
   * ffmpeg/ffprobe: no RPC can set a program the app will run.
   */
  ffmpegPath: safeText(4096).default(''),
  ffprobePath: safeText(4096).default(''),
  proxies: proxyPolicySchema.default('needed'),
  /** Space the viewing proxies may take; past it the least recently played go first. */
  proxyBudgetGb: z.number().min(1).max(100_000).default(DEFAULT_PROXY_BUDGET_GB),
  /**
   * Face recognition while clips are indexed: each face found is measured and, when clear enough,
   * turned into an identity embedding stored in the catalog on this machine (never uploaded). Off:
   * faces are still found, nothing to tell people apart is made.
   */
  faceRecognition: z.boolean().default(true),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const preferencesPatchSchema = z
  .object({
    region: regionIdSchema,
    baseUrls: z.object({ asia: httpUrl, usa: httpUrl, china: httpUrl }).partial(),
    authHeader: z.enum(['x-api-key', 'bearer']),
    qps: z.number().positive().max(1000),
    concurrency: z.number().int().min(1).max(64),
    base64VideoField: safeText(64).min(1),
    proxies: proxyPolicySchema,
    proxyBudgetGb: z.number().min(1).max(100_000),
    faceRecognition: z.boolean(),
  })
  .partial()
  .strict();
export type PreferencesPatch = z.infer<typeof preferencesPatchSchema>;

/**
 * The key itself never reaches the renderer: only whether it is set, a masked hint, the origin it
 * was saved for, and whether that is the current region's address (if not, it is not used).
 */
export const apiKeyStatusSchema = z.object({ set: z.boolean(), masked: z.string(), origin: z.string().nullable(), usable: z.boolean() });

export const TOOLS = ['ffmpeg', 'ffprobe'] as const;
export const toolSchema = z.enum(TOOLS);
export const toolStatusSchema = z.object({
  tool: toolSchema,
  path: z.string().nullable(),
  source: z.enum(['setting', 'flag', 'env', 'bundled', 'system']).nullable(),
  /** A bundled tool's npm package and version ("@ffmpeg-installer/linux-x64 4.1.0"). */
  origin: z.string().nullable(),
  version: z.string().nullable(),
  error: appErrorSchema.nullable(),
});
export type ToolStatus = z.infer<typeof toolStatusSchema>;
/** canChoose: false in web mode, where `--ffmpeg`/`--ffprobe` or the environment choose. */
export const toolsViewSchema = z.object({ tools: z.array(toolStatusSchema), canChoose: z.boolean() });

const apiKeyInput = safeText(512).trim().min(8);

export const settingsViewSchema = z.object({
  preferences: preferencesSchema,
  apiKey: apiKeyStatusSchema,
  regions: z.array(z.object({ id: regionIdSchema, label: z.string(), available: z.boolean() })),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

export const connectionTestSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number().optional(),
  collections: z.number().int().optional(),
  error: appErrorSchema.optional(),
});

export const settingsMethods = {
  'settings.get': method(voidSchema, settingsViewSchema),
  'settings.update': method(preferencesPatchSchema, settingsViewSchema),
  /** Saved for the origin of the current region's base URL, and used only there. */
  'settings.setApiKey': method(z.object({ key: apiKeyInput }).strict(), settingsViewSchema),
  'settings.clearApiKey': method(voidSchema, settingsViewSchema),
  /**
   * Tests what the form holds, saved or not. The stored key is sent only to the origin it was saved
   * for: testing another address needs the key typed in the form.
   */
  'settings.testConnection': method(
    z.object({ baseUrl: httpUrl.optional(), authHeader: z.enum(['x-api-key', 'bearer']).optional(), apiKey: apiKeyInput.optional() }).strict().default({}),
    connectionTestSchema,
  ),
  /** ffmpeg/ffprobe in use, where from, their version, and whether this app can choose others (Electron). */
  'settings.tools': method(voidSchema, toolsViewSchema),
  /** Electron: main's own file dialog picks the program, which is checked before it is kept. Web mode: a flag or the environment. */
  'settings.chooseTool': method(z.object({ tool: toolSchema }).strict(), toolsViewSchema),
  'settings.clearTool': method(z.object({ tool: toolSchema }).strict(), toolsViewSchema),
  'app.info': method(
    voidSchema,
    z.object({ version: z.string(), transport: z.enum(['electron', 'web']), dataDir: z.string(), ffmpeg: z.string().nullable() }),
  ),
} as const;

export const settingsEvents = {
  'settings.changed': settingsViewSchema,
} as const;

export { okSchema };
