import { REGIONS, type settingsMethods, type SettingsView } from '../../../src-shared/contract/settings';
import { toAppError } from '../../../src-shared/errors';
import type { HandlersFor } from '../rpc/handlers';
import type { EventBus } from '../rpc/event-bus';
import type { Logger } from '../util/logger';
import { maskKey, type PreferencesService } from './preferences';
import type { SecretStore } from './secret-store';

export const API_KEY_SECRET = 'service.apiKey';

export interface SettingsDeps {
  preferences: PreferencesService;
  secrets: SecretStore;
  events: EventBus;
  logger: Logger;
  transport: 'electron' | 'web';
  dataDir: string;
  version: string;
  ffmpegPath: () => string | null;
  /** One cheap authenticated call (the collection list) against the configured service. */
  probeService: () => Promise<{ latencyMs: number; collections: number }>;
}

export function readApiKey(secrets: SecretStore): string | null {
  try {
    return secrets.get(API_KEY_SECRET);
  } catch {
    return null;
  }
}

export function createSettingsHandlers(d: SettingsDeps): HandlersFor<typeof settingsMethods> {
  const view = (): SettingsView => {
    const key = readApiKey(d.secrets);
    return { preferences: d.preferences.get(), apiKey: { set: !!key, masked: maskKey(key) }, regions: [...REGIONS] };
  };
  const changed = () => {
    const v = view();
    d.events.emit('settings.changed', v);
    return v;
  };
  return {
    'settings.get': () => view(),
    'settings.update': (patch) => {
      d.preferences.update(patch);
      d.logger.info('settings.updated', { fields: Object.keys(patch) });
      return changed();
    },
    'settings.setApiKey': ({ key }) => {
      d.logger.addSecret(key);
      d.secrets.set(API_KEY_SECRET, key);
      d.logger.info('settings.apiKey.set', { store: d.secrets.kind });
      return changed();
    },
    'settings.clearApiKey': () => {
      d.secrets.delete(API_KEY_SECRET);
      d.logger.info('settings.apiKey.cleared');
      return changed();
    },
    'settings.testConnection': async () => {
      try {
        const r = await d.probeService();
        return { ok: true, latencyMs: r.latencyMs, collections: r.collections };
      } catch (e) {
        const err = toAppError(e);
        d.logger.warn('settings.testConnection.failed', { kind: err.kind, message: err.message });
        return { ok: false, error: err.toJSON() };
      }
    },
    'app.info': () => ({ version: d.version, transport: d.transport, dataDir: d.dataDir, ffmpeg: d.ffmpegPath() }),
  };
}
