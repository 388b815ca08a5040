import { describe, expect, it } from 'vitest';
import { appRequestPath, isAppUrl } from '../../../src-main/ipc/app-origin';
import { fromApp } from '../../../src-main/ipc/sender';
import { createLogger } from '../../../src-main/core/util/logger';

describe('the app origin (Electron, tested without Electron)', () => {
  it('trusts only app://reelscout exactly, never a file:// page', () => {
    expect(isAppUrl('app://reelscout/')).toBe(true);
    expect(isAppUrl('app://reelscout/assets/index.js')).toBe(true);
    for (const u of ['file:///home/me/Downloads/evil.html', 'file:///C:/x.html', 'app://reelscout.evil/', 'app://evil/', 'https://reelscout/', 'app:reelscout', '', 'not a url']) {
      expect(isAppUrl(u), u).toBe(false);
    }
  });

  it('in development trusts the dev server origin exactly, not a look-alike host', () => {
    const dev = 'http://localhost:5173';
    expect(isAppUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isAppUrl('ws://localhost:5173/', dev)).toBe(true);
    for (const u of ['http://localhost:5173.evil/', 'http://localhost:51730/', 'http://localhost:5173@evil.example/', 'https://localhost:5173/', 'file:///x']) {
      expect(isAppUrl(u, dev), u).toBe(false);
    }
  });

  it('maps app:// requests onto renderer files', () => {
    expect(appRequestPath('app://reelscout/')).toBe('index.html');
    expect(appRequestPath('app://reelscout/assets/a%20b.js')).toBe('assets/a b.js');
    expect(appRequestPath('app://other/index.html')).toBeNull();
    expect(appRequestPath('https://reelscout/index.html')).toBeNull();
  });

  it('every IPC handler refuses a sender that is not the app frame', () => {
    const logger = createLogger({});
    // The shape fromApp reads of Electron's IpcMainInvokeEvent (electron itself stays out of tests).
    const ev = (url: string | undefined) => ({ senderFrame: url === undefined ? null : { url } }) as unknown as Parameters<typeof fromApp>[0];
    expect(fromApp(ev('app://reelscout/'), logger, 'x')).toBe(true);
    expect(fromApp(ev('file:///tmp/evil.html'), logger, 'x')).toBe(false);
    expect(fromApp(ev('https://evil.example/'), logger, 'x')).toBe(false);
    expect(fromApp(ev(undefined), logger, 'x')).toBe(false);
  });
});
