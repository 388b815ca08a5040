import type { Migration } from '../migration';
import { m0001Library } from './0001-library';

/** Numbered, append-only. Never edit a migration that has shipped: add the next number. */
export const MIGRATIONS: readonly Migration[] = [m0001Library];
