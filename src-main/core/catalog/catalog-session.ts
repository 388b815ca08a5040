import fs from 'node:fs';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import { AppError, toAppError } from '../../../src-shared/errors';
import type { EventBus } from '../rpc/event-bus';
import { roomToReopen, type DiskGuard } from '../util/disk-space';
import type { Logger } from '../util/logger';
import { backupFile, backupFiles, backupStamp, catalogChangedAt, dailyBackupDue, keepAsBackup, listBackups, takeBackup, type BackupCounters } from './catalog-backups';
import { lookAtDisk } from './disk-look';
import { catalogFileProblem, fullDiskWords, openCheckedCatalog, type DiskWords } from './open-checked';
import type { CatalogDb } from './open-catalog';

/** What the app builds on an open catalog (or, damaged, without one), and takes down before it closes. */
export interface CatalogParts {
  dispose(): Promise<void>;
}

export interface CatalogSessionOptions<P extends CatalogParts> {
  file: string;
  backupsDir: string;
  disk: DiskGuard;
  events: EventBus;
  logger?: Logger;
  /** How the clips and ranges of a catalog (the open one, a backup) are counted, by the tables' owners. */
  counters: BackupCounters;
  /** The app on an open catalog; `readOnly` on a full disk (nothing that writes is started). */
  compose(db: CatalogDb, readOnly: boolean): P;
  /** The app with no catalog to open (damaged, or no room for one yet): only what does not need it. */
  recovery(): P;
  /** How often the disk is looked at (to follow it into read-only and out), and the daily backup is considered. */
  intervals?: { diskMs?: number; backupMs?: number };
}

/**
 * The catalog's life in the running app: opened after it was checked (open-checked.ts), read-only
 * while the disk is full (at start or since) and writable again by itself once there is room, not
 * opened while there is no room to start or upgrade it and opened by itself once there is, damaged and then
 * restored from a backup or started anew in one call, backed up once it holds clips and after each
 * day's work. Each change of state takes
 * the app's parts down and builds them again on the catalog as it now is, so no module ever holds a
 * connection that was closed under it.
 */
export class CatalogSession<P extends CatalogParts> {
  private parts: P | null = null;
  private db: CatalogDb | null = null;
  private state: CatalogHealth['state'] = 'damaged';
  private message: string | null = null;
  /** While the disk is full: the message again from a new reading (disk-look.ts). */
  private words: DiskWords | null = null;
  private switching: Promise<void> = Promise.resolve();
  private diskTimer: NodeJS.Timeout | null = null;
  private backupTimer: NodeJS.Timeout | null = null;
  private backingUp: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly o: CatalogSessionOptions<P>) {}

  /** The parts now, once any switch under way has finished. */
  async current(): Promise<P> {
    await this.switching;
    if (!this.parts) throw new AppError('cancelled', 'the app is closing');
    return this.parts;
  }

  /** The open catalog (tests and the composition root); throws while damaged or waiting for room. */
  catalog(): CatalogDb {
    if (!this.db) throw this.unavailable();
    return this.db;
  }

  /** Why a method that needs the catalog cannot answer now: damage, or a disk without room for it yet. */
  unavailable(): AppError {
    if (this.state === 'no_room') return new AppError('disk_full', this.message ?? 'there is no room to open the catalog');
    return new AppError('damaged', this.message ?? 'the catalog is not open');
  }

  health(): CatalogHealth {
    return { state: this.state, message: this.message, file: this.o.file, backups: listBackups(this.o.backupsDir, this.o.counters) };
  }

  /** A write refused by a read-only catalog is the full disk's doing: say that, not SQLite's words. */
  explain(e: AppError): AppError {
    const code = (e.cause as { code?: unknown } | undefined)?.code;
    if (this.state === 'read_only' && typeof code === 'string' && code.startsWith('SQLITE_READONLY')) return new AppError('disk_full', this.message ?? e.message, { cause: e });
    if (e.kind === 'disk_full' && this.state === 'ok') return this.o.disk.explain(e);
    return e;
  }

  /** At start: a catalog that cannot be opened leaves the app on its recovery screen, saying why. */
  async open(): Promise<void> {
    await this.switchTo(async () => {}).catch(() => undefined);
  }

  /** Puts a listed backup in place of the catalog and opens it; what it replaces is kept. */
  async restore(backupId: string): Promise<CatalogHealth> {
    const src = backupFile(this.o.backupsDir, backupId);
    if (!src) throw new AppError('not_found', `no backup named ${backupId}`);
    const problem = catalogFileProblem(src);
    if (problem) throw new AppError('invalid', `the backup ${backupId} cannot be read either: ${problem}`);
    await this.switchTo(async (was) => {
      this.setAside(was);
      const tmp = `${this.o.file}.restoring`;
      fs.copyFileSync(src, tmp);
      fs.renameSync(tmp, this.o.file);
    });
    return this.health();
  }

  /** Starts an empty catalog in place of a damaged one (kept beside it); a sound catalog is never set aside this way. */
  async startNew(): Promise<CatalogHealth> {
    await this.switching;
    if (this.state === 'no_room') throw this.unavailable();
    if (this.state !== 'damaged') throw new AppError('invalid', 'the catalog is not damaged: to go back to an earlier state, restore a backup');
    await this.switchTo(async (was) => this.setAside(was));
    return this.health();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.switchTo(async () => {});
  }

  /**
   * The catalog the app leaves: a healthy one becomes a `before-restore` backup (it was closed, so
   * its journal is in it); a damaged one is renamed beside itself with its journal, never deleted.
   */
  private setAside(was: CatalogHealth['state']): void {
    const f = this.o.file;
    if (!fs.existsSync(f)) return;
    if (was !== 'damaged') keepAsBackup(f, this.o.backupsDir, 'before-restore');
    else {
      const at = backupStamp(Date.now());
      for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(f + suffix)) fs.renameSync(f + suffix, `${f}.damaged-${at}${suffix}`);
    }
    for (const suffix of ['-wal', '-shm']) fs.rmSync(f + suffix, { force: true });
  }

  /** Takes the parts down, runs `change` on the files, opens again (unless closing) and says so. */
  private switchTo(change: (was: CatalogHealth['state']) => Promise<void>): Promise<void> {
    const run = this.switching.then(async () => {
      const was = this.state;
      this.stopTimers();
      await this.backingUp;
      await this.parts?.dispose();
      this.parts = null;
      this.db?.close();
      this.db = null;
      this.words = null;
      await change(was);
      if (this.closed) return;
      try {
        await this.openNow();
      } catch (e) {
        const err = toAppError(e);
        this.o.logger?.error('catalog.open.failed', { message: err.message });
        this.parts = this.o.recovery();
        if (err.kind === 'disk_full') {
          // The room looked enough, and a write of the open met a full disk all the same: no damage;
          // wait for more room than there is now (metFullDisk), not open again into the same wall.
          this.state = 'no_room';
          this.words = fullDiskWords(this.o.disk, 'no_open');
          this.message = this.words(roomToReopen(this.o.disk.metFullDisk()));
          this.watchDisk();
        } else {
          // Whatever else kept it from opening (a folder that cannot be written, a copy that failed)
          // is said on the recovery screen, which still offers the backups.
          this.state = 'damaged';
          this.message = `The catalog ${this.o.file} could not be opened: ${err.message}`;
        }
        this.o.events.emit('catalog.health', this.health());
        throw err;
      }
      this.o.events.emit('catalog.health', this.health());
    });
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async openNow(): Promise<void> {
    const checked = await openCheckedCatalog(this.o.file, { backupsDir: this.o.backupsDir, disk: this.o.disk, logger: this.o.logger });
    this.state = checked.state;
    this.message = checked.message;
    if (checked.state === 'damaged') {
      this.o.logger?.error('catalog.damaged', { message: checked.message });
      this.parts = this.o.recovery();
      return;
    }
    this.watchDisk();
    if (checked.state === 'no_room') {
      this.o.logger?.warn('catalog.no_room', { message: checked.message });
      this.words = checked.words;
      this.parts = this.o.recovery();
      return;
    }
    try {
      this.parts = this.o.compose(checked.db, checked.state === 'read_only');
    } catch (e) {
      // Not left open under the recovery parts that take the place of the app it could not build.
      checked.db.close();
      throw e;
    }
    this.db = checked.db;
    if (checked.state === 'read_only') {
      this.o.logger?.warn('catalog.read_only', { message: checked.message });
      this.words = checked.words;
      return;
    }
    this.backupIfDue();
    this.backupTimer = setInterval(() => this.backupIfDue(), this.o.intervals?.backupMs ?? 60 * 60 * 1000);
    this.backupTimer.unref();
  }

  /**
   * Follows the disk (a statfs every couple of seconds, nothing written): an open catalog whose disk
   * fills becomes read-only, as the contract promises, rather than meeting the full disk write by
   * write; one read-only or waiting for room opens again, the whole app with it, once there is room;
   * meanwhile the editor's figures are the disk's as it is now.
   */
  private watchDisk(): void {
    this.diskTimer = setInterval(() => {
      if (!this.diskTimer) return;
      const look = lookAtDisk({ state: this.state, message: this.message }, this.o.disk.room(), this.words);
      if (look.kind === 'reopen') {
        this.stopTimers();
        void this.switchTo(async () => {}).catch((e: unknown) => this.o.logger?.error('catalog.reopen.failed', { message: toAppError(e).message }));
      } else if (look.kind === 'say') {
        this.message = look.message;
        this.o.events.emit('catalog.health', this.health());
      }
    }, this.o.intervals?.diskMs ?? 2000);
    this.diskTimer.unref();
  }

  /**
   * Takes the daily backup when it is due (dailyBackupDue): at open, every hour, and after an
   * import (the first clips catalogued are worth a backup at once, not an hour later).
   */
  backupIfDue(): void {
    this.backingUp ??= this.dailyBackup().finally(() => (this.backingUp = null));
  }

  private async dailyBackup(): Promise<void> {
    const db = this.db;
    if (!db || this.state !== 'ok' || !this.o.disk.room().ok) return;
    try {
      const catalog = { clips: this.o.counters.clips(db), changedAt: catalogChangedAt(this.o.file) };
      if (!dailyBackupDue(backupFiles(this.o.backupsDir), catalog)) return;
      const b = await takeBackup(db, this.o.backupsDir, 'daily');
      this.o.logger?.info('catalog.backup', { id: b.id, bytes: b.sizeBytes });
    } catch (e) {
      this.o.logger?.warn('catalog.backup.failed', { message: toAppError(e).message });
    }
  }

  private stopTimers(): void {
    if (this.diskTimer) clearInterval(this.diskTimer);
    if (this.backupTimer) clearInterval(this.backupTimer);
    this.diskTimer = null;
    this.backupTimer = null;
  }
}
