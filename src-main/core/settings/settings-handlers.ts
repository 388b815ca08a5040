import { originOf, REGIONS, type settingsMethods, type SettingsView, type ToolStatus } from '../../../src-shared/contract/settings';
import { AppError, toAppError } from '../../../src-shared/errors';
import type { FfTool } from '../media/ffmpeg-locate';
import type { HandlersFor } from '../rpc/handlers';
import type { EventBus } from '../rpc/event-bus';
import type { Logger } from '../util/logger';
import { clearKey, readStoredKey, storeKey } from './api-key';
import { maskKey, type PreferencesService } from './preferences';
import type { SecretStore } from '../util/persisted-stores';

export interface SettingsDeps {
  preferences: PreferencesService;
  secrets: SecretStore;
  events: EventBus;
  logger: Logger;
  transport: 'electron' | 'web';
  dataDir: string;
  version: string;
  ffmpegPath: () => string | null;
  /** One cheap authenticated call (the collection list) against this address, header and key. */
  probeService: (target: { baseUrl: string; authHeader: 'x-api-key' | 'bearer'; apiKey: string }) => Promise<{ latencyMs: number; collections: number }>;
  /** Where ffmpeg and ffprobe come from, checked. */
  toolStatus: () => ToolStatus[];
  /** Main's native file dialog (Electron); absent in web mode, where flags and the environment choose. */
  chooseFile?: (tool: FfTool) => Promise<string | null>;
  /** Checks a chosen program is that tool (tool-check.ts); throws 'media' when it is not. */
  verifyTool: (tool: FfTool, file: string) => string;
  /** What the rest of the app does when settings change (wired in the composition root). */
  onChanged?: () => void;
}

export function createSettingsHandlers(d: SettingsDeps): HandlersFor<typeof settingsMethods> {
  const currentBaseUrl = () => {
    const p = d.preferences.get();
    return p.baseUrls[p.region];
  };
  const view = (): SettingsView => {
    const stored = readStoredKey(d.secrets);
    return {
      preferences: d.preferences.get(),
      apiKey: { set: !!stored, masked: maskKey(stored?.key ?? null), origin: stored?.origin ?? null, usable: !!stored && stored.origin === originOf(currentBaseUrl()) },
      regions: [...REGIONS],
    };
  };
  const toolsView = () => ({ tools: d.toolStatus(), canChoose: !!d.chooseFile });
  const changed = () => {
    const v = view();
    d.onChanged?.();
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
      storeKey(d.secrets, key, currentBaseUrl());
      d.logger.info('settings.apiKey.set', { store: d.secrets.kind, origin: originOf(currentBaseUrl()) });
      return changed();
    },
    'settings.clearApiKey': () => {
      clearKey(d.secrets);
      d.logger.info('settings.apiKey.cleared');
      return changed();
    },
    'settings.testConnection': async (form) => {
      try {
        const p = d.preferences.get();
        const baseUrl = form.baseUrl || currentBaseUrl();
        if (!baseUrl) throw new AppError('invalid', 'no service address to test');
        let apiKey = form.apiKey;
        if (apiKey) d.logger.addSecret(apiKey);
        else {
          // The stored key goes only to the origin it was saved for.
          const stored = readStoredKey(d.secrets);
          if (!stored) throw new AppError('auth', 'no API key: type one to test the connection');
          if (stored.origin !== originOf(baseUrl)) throw new AppError('auth', `the stored API key is for ${stored.origin ?? 'another address'}: type the key for ${originOf(baseUrl)} to test it`);
          apiKey = stored.key;
        }
        const r = await d.probeService({ baseUrl, authHeader: form.authHeader ?? p.authHeader, apiKey });
        return { ok: true, latencyMs: r.latencyMs, collections: r.collections };
      } catch (e) {
        const err = toAppError(e);
        d.logger.warn('settings.testConnection.failed', { kind: err.kind, message: err.message });
        return { ok: false, error: err.toJSON() };
      }
    },
    'settings.tools': () => toolsView(),
    'settings.chooseTool': async ({ tool }) => {
      if (!d.chooseFile) {
        throw new AppError('invalid', `web mode: start it with --${tool} PATH, or set ${tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH'}`);
      }
      const file = await d.chooseFile(tool);
      if (file) {
        const version = d.verifyTool(tool, file);
        d.preferences.setToolPath(tool, file);
        d.logger.info('settings.tool.chosen', { tool, version });
        changed();
      }
      return toolsView();
    },
    'settings.clearTool': ({ tool }) => {
      d.preferences.setToolPath(tool, '');
      changed();
      return toolsView();
    },
    'app.info': () => ({ version: d.version, transport: d.transport, dataDir: d.dataDir, ffmpeg: d.ffmpegPath() }),
  };
}
