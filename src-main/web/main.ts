import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startWebApp } from './web-app';
import { LOOPBACK_FLAG } from '../core/remote/remote-url-policy';

/** `npm run start:web`: the app without Electron, for headless machines and the e2e tests. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      'renderer-dir': { type: 'string' },
      // Programs the app runs are chosen where the app is started, never over the RPC.
      ffmpeg: { type: 'string' },
      ffprobe: { type: 'string' },
      // Add by URL may read addresses on this computer (test servers, the emulator's clips).
      [LOOPBACK_FLAG.slice(2)]: { type: 'boolean', default: false },
      // A team library's lease of a claimed clip (default 30): how soon another seat takes over a seat that died.
      'team-lease-seconds': { type: 'string' },
    },
  });
  const dataDir = path.resolve(values['data-dir'] ?? process.env.REELSCOUT_DATA_DIR ?? path.join(os.homedir(), '.reelscout-web'));
  const rendererDir = path.resolve(values['renderer-dir'] ?? path.join(__dirname, '..', 'renderer'));
  const toolPaths = { ffmpeg: values.ffmpeg && path.resolve(values.ffmpeg), ffprobe: values.ffprobe && path.resolve(values.ffprobe) };
  const remote = { allowLoopback: values[LOOPBACK_FLAG.slice(2)] === true };
  const teamLeaseMs = values['team-lease-seconds'] ? Number(values['team-lease-seconds']) * 1000 : undefined;
  const app = await startWebApp({ dataDir, rendererDir, port: Number(values.port), logToConsole: false, toolPaths, remote, teamLeaseMs });
  process.stdout.write(`Reelscout (web mode) data: ${dataDir}\nOpen: ${app.server.openUrl}\n`);
  const stop = () => void app.close().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`reelscout web: ${(e as Error).message}\n`);
  process.exit(1);
});
