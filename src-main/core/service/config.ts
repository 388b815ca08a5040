import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';
import { DEFAULT_ADAPTIVE, type AdaptiveOptions, type CallPriority } from './http/rate-limiter';
import { DEFAULT_RETRY, type RetryOptions } from './http/retry';
import type { RegionId } from './regions';

export type AuthHeaderMode = 'x-api-key' | 'bearer';

export interface ServiceConfig {
  region: RegionId;
  baseUrls: Partial<Record<RegionId, string>>;
  apiKey: string;
  /** X-API-Key is the spec's recommended method and the default. */
  authHeader: AuthHeaderMode;
  /** The key's QPS, as sold with the plan: the spec gives no number. */
  qps: number;
  /** Requests in flight per key, across every caller. */
  concurrency: number;
  /** Deadline of one JSON request; for uploads, the longest silence on the socket. */
  timeoutMs?: number;
  /** The spec accepts base64 video for sync tagging without naming the field. */
  base64VideoField?: string;
  retry?: Partial<RetryOptions>;
  /**
   * Overrides of `retry` for idempotent reads (GET): reading again changes nothing on the service,
   * so a client may be more patient with them than with a submit (interactive-client.ts).
   */
  readRetry?: Partial<RetryOptions>;
  adaptive?: Partial<AdaptiveOptions>;
  /** Someone waiting (service/interactive-client.ts) or background work (the default): who gets the key's next token. */
  priority?: CallPriority;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_BASE64_FIELD = 'video_base64';

const regionSchema = z.enum(['asia', 'usa', 'china']);

const retrySchema = z
  .object({
    maxAttempts: z.number().int().positive(),
    serverAttempts: z.number().int().positive(),
    timeoutAttempts: z.number().int().positive(),
    offlineAttempts: z.number().int().positive(),
    baseDelayMs: z.number().nonnegative(),
    maxDelayMs: z.number().nonnegative(),
    deadlineMs: z.number().int().positive(),
  })
  .partial()
  .optional();

export const serviceConfigSchema = z.object({
  region: regionSchema,
  baseUrls: z.partialRecord(regionSchema, z.string()),
  apiKey: z.string(),
  authHeader: z.enum(['x-api-key', 'bearer']),
  qps: z.number().positive(),
  concurrency: z.number().int().positive(),
  timeoutMs: z.number().int().positive().optional(),
  base64VideoField: z.string().min(1).optional(),
  retry: retrySchema,
  readRetry: retrySchema,
  adaptive: z
    .object({
      decreaseFactor: z.number().positive().max(1),
      minFraction: z.number().positive().max(1),
      recoveryFractionPerSecond: z.number().nonnegative(),
      cooldownMs: z.number().nonnegative(),
    })
    .partial()
    .optional(),
  priority: z.enum(['interactive', 'background']).optional(),
});

export interface ResolvedServiceConfig extends Required<Omit<ServiceConfig, 'retry' | 'adaptive'>> {
  retry: RetryOptions;
  /** Laid over `retry` for GETs; {} when the client reads as it sends. */
  readRetry: Partial<RetryOptions>;
  adaptive: AdaptiveOptions;
}

export function resolveConfig(config: ServiceConfig): ResolvedServiceConfig {
  const parsed = serviceConfigSchema.safeParse(config);
  if (!parsed.success) throw new AppError('invalid', `service settings are invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  if (!config.apiKey.trim()) throw new AppError('auth', 'no API key is set');
  if (/[\r\n]/.test(config.apiKey)) throw new AppError('invalid', 'the API key contains a line break');
  return {
    ...config,
    apiKey: config.apiKey.trim(),
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    base64VideoField: config.base64VideoField ?? DEFAULT_BASE64_FIELD,
    priority: config.priority ?? 'background',
    retry: { ...DEFAULT_RETRY, ...config.retry },
    readRetry: config.readRetry ?? {},
    adaptive: { ...DEFAULT_ADAPTIVE, ...config.adaptive },
  };
}
