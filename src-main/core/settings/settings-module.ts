import path from 'node:path';
import type { FfTool } from '../media/ffmpeg-locate';
import { verifyTool } from '../media/tool-check';
import type { EventBus } from '../rpc/event-bus';
import { createServiceClient } from '../service/client';
import { openTeamRoom, type TeamOptInHandlers, type TeamRoom } from '../team-port';
import type { Logger } from '../util/logger';
import type { JsonStore, SecretCipher, SecretStore } from '../util/persisted-stores';
import { bindLegacyKey, readStoredKey } from './api-key';
import { createConfJsonStore } from './conf-store';
import { createPreferences, type PreferencesService } from './preferences';
import { createSecretStore } from './secret-store';
import { createSettingsHandlers } from './settings-handlers';
import { createToolPaths, type ToolPaths } from './tool-paths';

/** What the settings need from the app (app-core.ts's options). */
export interface SettingsModuleNeeds {
  dataDir: string;
  transport: 'electron' | 'web';
  version: string;
  preferencesStore: JsonStore;
  secretCipher: SecretCipher;
  events: EventBus;
  logger: Logger;
  toolPaths?: Partial<Record<FfTool, string>>;
  chooseFile?: (tool: FfTool) => Promise<string | null>;
}

export interface SettingsModule {
  preferences: PreferencesService;
  secrets: SecretStore;
  tools: ToolPaths;
  /** The team room, opened beside Settings: its opt-in answers here, and each open catalog asks it for the seat's runtime. */
  team: TeamRoom;
  /** settings.* and the team's opt-in (team.* but team.activity): they answer whatever state the catalog is in. */
  handlers: ReturnType<typeof createSettingsHandlers> & TeamOptInHandlers;
  /** What a change of key or address means to the parts on the catalog (set while they stand). */
  onChanged(listener: () => void): void;
}

/**
 * Settings live outside the catalog: preferences, the secret store (the key bound to its origin),
 * the chosen ffmpeg/ffprobe, and the team library's opt-in beside them (joining or leaving never
 * touches this machine's catalog).
 */
export function createSettingsModule(n: SettingsModuleNeeds): SettingsModule {
  const preferences = createPreferences(n.preferencesStore, n.logger);
  const secrets = createSecretStore(path.join(n.dataDir, 'secrets.json'), n.secretCipher);
  const storedKey = readStoredKey(secrets);
  if (storedKey) n.logger.addSecret(storedKey.key);
  {
    const p = preferences.get();
    bindLegacyKey(secrets, p.baseUrls[p.region]);
  }
  const tools = createToolPaths(n.toolPaths, preferences);
  let changed = () => {};
  const settingsHandlers = createSettingsHandlers({
    preferences,
    secrets,
    events: n.events,
    logger: n.logger,
    transport: n.transport,
    dataDir: n.dataDir,
    version: n.version,
    ffmpegPath: tools.ffmpegPath,
    probeService: async (target) => {
      // A client of its own for what the form holds; it shares the limiter of that address and key.
      const p = preferences.get();
      const client = createServiceClient({ region: p.region, baseUrls: { [p.region]: target.baseUrl }, apiKey: target.apiKey, authHeader: target.authHeader, qps: p.qps, concurrency: p.concurrency });
      client.clearAuthRejection();
      const started = performance.now();
      const collections = await client.listCollections();
      return { latencyMs: performance.now() - started, collections: collections.length };
    },
    toolStatus: tools.toolStatus,
    chooseFile: n.chooseFile,
    verifyTool,
    onChanged: () => changed(),
  });
  const team = openTeamRoom({ store: createConfJsonStore(n.dataDir, 'team'), secrets, logger: n.logger });
  return {
    preferences,
    secrets,
    tools,
    team,
    handlers: { ...settingsHandlers, ...team.handlers },
    onChanged: (listener) => {
      changed = listener;
    },
  };
}
