/**
 * How the project's own service emulator (test/emulator, a test double) tells the app that it is
 * one: a header on every answer. The spec (../shared/spec/service-interface.md) defines no such
 * header, so a real service never sends it; the app only reads it, on the answers of calls it makes
 * anyway, to warn the editor that search against a test double follows colours and tags, not
 * meaning. Read tolerantly: any casing of the name (fetch and node:http both lower-case it), and
 * only an explicit "1"/"true"/"yes" counts; anything else is a service like any other.
 */
export const EMULATOR_HEADER = 'x-reelscout-emulator';

export function saysEmulator(value: string | null | undefined): boolean {
  return typeof value === 'string' && /^\s*(1|true|yes)\s*$/i.test(value);
}
