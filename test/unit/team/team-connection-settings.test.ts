import { describe, expect, it } from 'vitest';
import { isLoopbackHost, teamClientConfig } from '../../../src-main/core/team/seat/connection-settings';
import { teamConnectionSettingsSchema, type TeamConnectionSettings } from '../../../src-shared/contract/team';

const base: TeamConnectionSettings = { host: 'db.post.example', port: 5432, database: 'reelscout_team', user: 'reelscout_seat', sslmode: 'verify-full', seatName: 'Edit 1' };
const CA = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

describe('team connection settings', () => {
  it('names loopback by address, name and unix socket, and nothing else', () => {
    for (const h of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', 'localhost', 'LOCALHOST.', '/var/run/postgresql']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['10.0.0.5', '128.0.0.1', '::2', '::ffff:10.0.0.1', 'nas.local', 'localhost.example', '127.0.0.1.nip.io', '0.0.0.0']) expect(isLoopbackHost(h), h).toBe(false);
  });

  it('refuses a plain connection to any host but this machine, before connecting', () => {
    expect(() => teamClientConfig({ ...base, sslmode: 'disable' }, 'pw')).toThrow(expect.objectContaining({ kind: 'invalid', message: expect.stringContaining('TLS') }));
    expect(() => teamClientConfig({ ...base, host: '192.168.1.20', sslmode: 'disable' }, 'pw')).toThrow(expect.objectContaining({ kind: 'invalid' }));
    for (const host of ['127.0.0.1', '::1', 'localhost', '/tmp/pg']) {
      expect(teamClientConfig({ ...base, host, sslmode: 'disable' }, 'pw')).toMatchObject({ host, ssl: false, password: 'pw' });
    }
  });

  it('verifies the server certificate: against the team CA when given, else the system CAs', () => {
    expect(teamClientConfig({ ...base, caCertificate: CA }, 'pw').ssl).toEqual({ rejectUnauthorized: true, ca: CA });
    expect(teamClientConfig(base, 'pw').ssl).toEqual({ rejectUnauthorized: true });
    // TLS to loopback is allowed too.
    expect(teamClientConfig({ ...base, host: '127.0.0.1' }, 'pw').ssl).toEqual({ rejectUnauthorized: true });
    expect(teamClientConfig(base, 'secret')).toMatchObject({ host: base.host, port: 5432, database: 'reelscout_team', user: 'reelscout_seat', password: 'secret' });
  });

  it('never carries a password, a connection string or a bad host in the settings', () => {
    expect(teamConnectionSettingsSchema.safeParse(base).success).toBe(true);
    expect(teamConnectionSettingsSchema.safeParse({ ...base, password: 'x' }).success).toBe(false);
    expect(teamConnectionSettingsSchema.safeParse({ ...base, connectionString: 'postgres://u:p@h/db?sslmode=require' }).success).toBe(false);
    for (const host of ['', 'a b', 'host\n', 'db.example;x', 'x'.repeat(256)]) expect(teamConnectionSettingsSchema.safeParse({ ...base, host }).success, JSON.stringify(host)).toBe(false);
    for (const host of ['::1', 'fe80::1', '10.0.0.5', '/var/run/postgresql']) expect(teamConnectionSettingsSchema.safeParse({ ...base, host }).success, host).toBe(true);
    for (const host of [':::', '[::1]', '::1/64', 'fe80::1::2']) expect(teamConnectionSettingsSchema.safeParse({ ...base, host }).success, host).toBe(false);
    expect(teamConnectionSettingsSchema.safeParse({ ...base, sslmode: 'require' }).success).toBe(false);
    expect(teamConnectionSettingsSchema.safeParse({ ...base, caCertificate: 'not a pem' }).success).toBe(false);
    expect(teamConnectionSettingsSchema.safeParse({ ...base, seatName: '  ' }).success).toBe(false);
    expect(teamConnectionSettingsSchema.safeParse({ ...base, port: 70000 }).success).toBe(false);
    // Handed a password inside the settings, the config function refuses too, as a value with a kind.
    expect(() => teamClientConfig({ ...base, password: 'x' } as TeamConnectionSettings, 'pw')).toThrow(expect.objectContaining({ kind: 'invalid', message: expect.stringContaining('password') }));
  });
});
