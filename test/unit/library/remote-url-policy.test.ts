import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { addressRefusal, checkRemoteUrl } from '../../../src-main/core/remote/remote-url-policy';
import { boundedRange } from '../../../src-main/core/remote/remote-clip-stream';

const strict = { allowLoopback: false };
const loopbackOk = { allowLoopback: true };
const refusal = (url: string, policy = strict): string | null => {
  try {
    checkRemoteUrl(url, policy);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).kind).toBe('invalid');
    return (e as AppError).message;
  }
};

describe('which addresses main reads for Add by URL (issue 29 item 1)', () => {
  it('reads https on the internet', () => {
    expect(refusal('https://cdn.example.com/review/A001.mp4?sig=x')).toBeNull();
    expect(refusal('https://93.184.216.34/a.mp4')).toBeNull();
    expect(refusal('https://[2606:2800:220:1:248:1893:25c8:1946]/a.mp4')).toBeNull();
  });

  it('refuses plain http to the internet, other schemes and credentials', () => {
    expect(refusal('http://cdn.example.com/a.mp4')).toMatch(/plain http/);
    expect(refusal('http://93.184.216.34/a.mp4')).toMatch(/plain http/);
    expect(refusal('file:///etc/passwd')).toMatch(/file: addresses are not read/);
    expect(refusal('ftp://example.com/a.mp4')).toMatch(/not read/);
    expect(refusal('https://user:pw@example.com/a.mp4')).toMatch(/user name or password/);
    expect(refusal('not a url')).toMatch(/not a web address/);
  });

  it('refuses this computer unless the app was started to allow it, in every spelling', () => {
    for (const url of ['http://127.0.0.1:8080/a.mp4', 'https://127.0.0.1/a.mp4', 'http://127.1.2.3/', 'http://[::1]/a', 'http://[::ffff:127.0.0.1]/a', 'http://2130706433/a', 'http://0x7f.1/a', 'http://localhost/a', 'https://LOCALHOST./a', 'http://app.localhost/a']) {
      expect(refusal(url), url).toMatch(/this computer/);
      expect(refusal(url, loopbackOk), url).toBeNull();
    }
  });

  it('never reads private, link-local, metadata, multicast or reserved addresses, whatever the flag', () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'https://10.0.0.5/a', 'https://172.16.3.4/a', 'https://192.168.1.10/a', 'https://100.64.0.1/a', 'https://0.0.0.0/a', 'https://[fd00::1]/a', 'https://[fe80::1]/a', 'https://224.0.0.1/a', 'https://[::]/a', 'https://[::127.0.0.1]/a']) {
      expect(refusal(url, loopbackOk), url).toMatch(/private, link-local or reserved/);
    }
  });

  it('checks resolved addresses by the same rules (what a name resolves to at connection time)', () => {
    expect(addressRefusal('127.0.0.1', 'https:', strict)).toMatch(/this computer/);
    expect(addressRefusal('127.0.0.1', 'http:', loopbackOk)).toBeNull();
    expect(addressRefusal('10.1.2.3', 'https:', loopbackOk)).toMatch(/private/);
    expect(addressRefusal('93.184.216.34', 'http:', strict)).toMatch(/plain http/);
    expect(addressRefusal('93.184.216.34', 'https:', strict)).toBeNull();
  });
});

describe("the viewer's range requests to an address", () => {
  it('answers an open-ended range in parts, leaves a bounded small one alone', () => {
    expect(boundedRange('bytes=0-', 1000)).toBe('bytes=0-999');
    expect(boundedRange('bytes=5000-', 1000)).toBe('bytes=5000-5999');
    expect(boundedRange('bytes=10-19', 1000)).toBe('bytes=10-19');
    expect(boundedRange('bytes=10-99999', 1000)).toBe('bytes=10-1009');
    expect(boundedRange('bytes=-500', 1000)).toBe('bytes=-500');
    expect(boundedRange(undefined, 1000)).toBeUndefined();
  });
});
