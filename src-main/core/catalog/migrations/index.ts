import type { Migration } from '../migration';
import { m0001Library } from './0001-library';
import { m0002ImportLog } from './0002-import-log';
import { m0004ServiceCache } from './0004-service-cache';

/** Numbered, append-only. Never edit a migration that has shipped: add the next number. */
export const MIGRATIONS: readonly Migration[] = [m0001Library, m0002ImportLog, m0004ServiceCache];
