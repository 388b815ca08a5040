import { z } from 'zod';
import { method, voidSchema } from './define';
import { safeText } from './safe-strings';

/** Why a backup of the catalog was taken. */
export const BACKUP_REASONS = ['daily', 'before-migration', 'before-restore'] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];

export const catalogBackupSchema = z.object({
  /** Its file name in the backups folder: what catalog.restore takes. */
  id: z.string(),
  takenAt: z.number(),
  reason: z.enum(BACKUP_REASONS),
  sizeBytes: z.number().int(),
  /**
   * What it holds, read from the backup file itself: clips catalogued and ranges saved (deleted
   * ones not counted). null: the file could not be read, or its schema is too old to tell.
   */
  clips: z.number().int().nonnegative().nullable(),
  ranges: z.number().int().nonnegative().nullable(),
});
export type CatalogBackup = z.infer<typeof catalogBackupSchema>;

/**
 * The catalog as the app could open it: `ok`; `read_only` (the disk holding it is full, at start or
 * since: browse and search work, nothing is saved, and it opens for writing by itself once there is
 * room); `no_room` (not enough room yet to start a catalog, or to upgrade this one: nothing can be
 * shown yet, and it opens by itself once there is room); `damaged` (it cannot be read: restore a
 * backup or start a new one; the footage is untouched). While the disk is full the message carries
 * the free space as it is now.
 */
export const CATALOG_STATES = ['ok', 'read_only', 'no_room', 'damaged'] as const;
export const catalogHealthSchema = z.object({
  state: z.enum(CATALOG_STATES),
  /** What the editor must be told, naming the file: damage, a full disk, a journal that lost changes. */
  message: z.string().nullable(),
  file: z.string(),
  backups: z.array(catalogBackupSchema),
});
export type CatalogHealth = z.infer<typeof catalogHealthSchema>;

export const catalogMethods = {
  'catalog.health': method(voidSchema, catalogHealthSchema),
  /** Puts a backup in place of the catalog (the one replaced is kept) and opens it. */
  'catalog.restore': method(z.object({ backupId: safeText(200).min(1) }).strict(), catalogHealthSchema),
  /** A damaged catalog with no usable backup: start an empty one (the damaged file is kept beside it). */
  'catalog.startNew': method(voidSchema, catalogHealthSchema),
} as const;

export const catalogEvents = {
  /** The catalog's state changed (damaged at start, restored, read-only on a full disk, writable again), or a full disk's figures did. */
  'catalog.health': catalogHealthSchema,
} as const;
