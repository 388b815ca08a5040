import { AppError } from '../../../src-shared/errors';
import { preferencesSchema, type Preferences, type PreferencesPatch } from '../../../src-shared/contract/settings';
import type { Logger } from '../util/logger';
import type { JsonStore } from '../util/persisted-stores';


export interface PreferencesService {
  get(): Preferences;
  update(patch: PreferencesPatch): Preferences;
  /** Main only, after verifyTool: no RPC patch can carry a program path. */
  setToolPath(tool: 'ffmpeg' | 'ffprobe', file: string): Preferences;
  readonly path: string;
}

export function createPreferences(json: JsonStore, logger?: Logger): PreferencesService {
  const get = (): Preferences => {
    const parsed = preferencesSchema.safeParse(json.store);
    if (parsed.success) return parsed.data;
    // A hand-edited or older file: keep what validates field by field, default the rest.
    logger?.warn('preferences.invalid', { issues: parsed.error.issues.map((i) => i.path.join('.')) });
    const defaults = preferencesSchema.parse({});
    const merged: Record<string, unknown> = { ...defaults };
    for (const [k, v] of Object.entries(json.store ?? {})) {
      const trial = preferencesSchema.safeParse({ ...merged, [k]: v });
      if (trial.success) merged[k] = v;
    }
    return preferencesSchema.parse(merged);
  };
  const save = (candidate: unknown): Preferences => {
    const next = preferencesSchema.safeParse(candidate);
    if (!next.success) throw new AppError('invalid', next.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    json.store = next.data as unknown as Record<string, unknown>;
    return next.data;
  };
  return {
    path: json.path,
    get,
    update(patch) {
      const current = get();
      return save({ ...current, ...patch, baseUrls: { ...current.baseUrls, ...(patch.baseUrls ?? {}) } });
    },
    setToolPath(tool, file) {
      return save({ ...get(), [tool === 'ffmpeg' ? 'ffmpegPath' : 'ffprobePath']: file });
    },
  };
}

/** Shows enough of a key to recognise it, never enough to use it. */
export function maskKey(key: string | null): string {
  if (!key) return '';
  return key.length <= 8 ? '••••' : `••••••••${key.slice(-4)}`;
}
