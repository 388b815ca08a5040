import { z } from 'zod';
import { appErrorSchema } from '../errors';
import { method, voidSchema, okSchema } from './define';

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

const httpUrl = z
  .string()
  .trim()
  .refine((s) => s === '' || /^https?:\/\/[^\s]+$/i.test(s), 'must be an http(s) URL');

export const preferencesSchema = z.object({
  region: regionIdSchema.refine((r) => REGIONS.find((x) => x.id === r)?.available, 'region is not available yet').default('asia'),
  baseUrls: z
    .object({ asia: httpUrl.default(''), usa: httpUrl.default(''), china: httpUrl.default('') })
    .default({ asia: '', usa: '', china: '' }),
  authHeader: z.enum(['x-api-key', 'bearer']).default('x-api-key'),
  qps: z.number().positive().max(1000).default(5),
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Field name for Base64 video in synchronous tagging: the spec does not name it. */
  base64VideoField: z.string().min(1).max(64).default('video_base64'),
  ffmpegPath: z.string().default(''),
  ffprobePath: z.string().default(''),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const preferencesPatchSchema = z
  .object({
    region: regionIdSchema,
    baseUrls: z.object({ asia: httpUrl, usa: httpUrl, china: httpUrl }).partial(),
    authHeader: z.enum(['x-api-key', 'bearer']),
    qps: z.number().positive().max(1000),
    concurrency: z.number().int().min(1).max(64),
    base64VideoField: z.string().min(1).max(64),
    ffmpegPath: z.string(),
    ffprobePath: z.string(),
  })
  .partial()
  .strict();
export type PreferencesPatch = z.infer<typeof preferencesPatchSchema>;

/** The key itself never reaches the renderer: only whether it is set and a masked hint. */
export const apiKeyStatusSchema = z.object({ set: z.boolean(), masked: z.string() });

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
  'settings.setApiKey': method(z.object({ key: z.string().trim().min(8).max(512) }).strict(), settingsViewSchema),
  'settings.clearApiKey': method(voidSchema, settingsViewSchema),
  'settings.testConnection': method(voidSchema, connectionTestSchema),
  'app.info': method(
    voidSchema,
    z.object({ version: z.string(), transport: z.enum(['electron', 'web']), dataDir: z.string(), ffmpeg: z.string().nullable() }),
  ),
} as const;

export const settingsEvents = {
  'settings.changed': settingsViewSchema,
} as const;

export { okSchema };
