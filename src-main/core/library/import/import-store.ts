import type { ImportIssue, ImportSummary } from '../../../../src-shared/contract/library';
import type { CatalogDb } from '../../catalog/open-catalog';
import { statement } from '../../catalog/statements';
import { clipAbsPath } from '../clip-store';

/**
 * The owner of the import log (`imports`, `import_issues`, `import_clips`, migrations 0002 and
 * 0020): each import's counts, the files it could not take, and the clips it catalogued, whose
 * verdicts its summary reads later.
 */

/** What an import found, as it ends. */
export type ImportRecord = Pick<ImportSummary, 'state' | 'added' | 'updated' | 'unchanged' | 'relocated' | 'missing' | 'failed' | 'skipped' | 'ignored' | 'error' | 'finishedAt'>;

/** How many issues a summary lists. */
const LISTED_ISSUES = 300;

interface ImportRow {
  id: number;
  roots_json: string;
  state: ImportSummary['state'];
  origin: ImportSummary['origin'];
  added: number;
  updated: number;
  unchanged: number;
  relocated: number;
  missing: number;
  failed: number;
  skipped: number;
  ignored: number;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

/** A running import's row; returns its id. */
export function startImport(db: CatalogDb, roots: readonly string[], origin: ImportSummary['origin'], startedAt: number): number {
  return Number(statement(db, `INSERT INTO imports (roots_json, state, origin, started_at) VALUES (?, 'running', ?, ?)`).run(JSON.stringify(roots), origin, startedAt).lastInsertRowid);
}

/** The import's end: its counts, the issues it keeps, and the clips it catalogued, changed or handed over. */
export function finishImport(db: CatalogDb, importId: number, r: ImportRecord, issues: readonly ImportIssue[], clipIds: Iterable<number>): void {
  db.transaction(() => {
    statement(
      db,
      `UPDATE imports SET state = ?, added = ?, updated = ?, unchanged = ?, relocated = ?, missing = ?, failed = ?, skipped = ?,
         ignored = ?, error = ?, finished_at = ? WHERE id = ?`,
    ).run(r.state, r.added, r.updated, r.unchanged, r.relocated, r.missing, r.failed, r.skipped, r.ignored, r.error, r.finishedAt, importId);
    const addIssue = statement(db, 'INSERT INTO import_issues (import_id, path, reason, code) VALUES (?, ?, ?, ?)');
    for (const i of issues) addIssue.run(importId, i.path, i.reason, i.code);
    const linkClip = statement(db, 'INSERT OR IGNORE INTO import_clips (import_id, clip_id) VALUES (?, ?)');
    for (const id of clipIds) linkClip.run(importId, id);
  })();
}

/**
 * The import's clips that turned out unusable, read now: ffprobe's verdicts come from the
 * pipeline after the import returned (a zero-byte file is also among them, stored as an issue).
 * `failed` is null for an import from before its clips were linked to it (migration 0020).
 */
function unusableOf(db: CatalogDb, importId: number): { failed: number | null; issues: ImportIssue[] } {
  const unusable = statement(
    db,
    `SELECT v.mount_path, c.rel_path, c.source_url, c.status_reason FROM import_clips ic JOIN clips c ON c.id = ic.clip_id JOIN volumes v ON v.id = c.volume_id
     WHERE ic.import_id = ? AND c.status IN ('error', 'unsupported') ORDER BY c.rel_path`,
  ).all(importId) as { mount_path: string; rel_path: string; source_url: string | null; status_reason: string | null }[];
  const linked = unusable.length > 0 || statement(db, 'SELECT 1 FROM import_clips WHERE import_id = ? LIMIT 1').get(importId) !== undefined;
  return {
    failed: linked ? unusable.length : null,
    issues: unusable.slice(0, LISTED_ISSUES).map((r) => ({ path: clipAbsPath(r), code: 'error', reason: r.status_reason ?? 'unusable' })),
  };
}

/** The latest imports, newest first, each with what it could not take and what turned out unusable since. */
export function importSummaries(db: CatalogDb, limit: number): ImportSummary[] {
  const latest = statement(db, 'SELECT * FROM imports ORDER BY id DESC LIMIT ?').all(limit) as ImportRow[];
  return latest.map((r) => {
    const stored = statement(db, 'SELECT path, code, reason FROM import_issues WHERE import_id = ? ORDER BY id LIMIT ?').all(r.id, LISTED_ISSUES) as ImportIssue[];
    const unusable = unusableOf(db, r.id);
    const seen = new Set(stored.map((i) => i.path));
    const issues = [...stored, ...unusable.issues.filter((i) => !seen.has(i.path))];
    const failed = unusable.failed ?? r.failed;
    const reading = (statement(db, "SELECT COUNT(*) AS n FROM import_clips ic JOIN clips c ON c.id = ic.clip_id WHERE ic.import_id = ? AND c.status = 'pending'").get(r.id) as { n: number }).n;
    return {
      importId: r.id,
      state: r.state,
      origin: r.origin,
      roots: JSON.parse(r.roots_json) as string[],
      added: r.added,
      updated: r.updated,
      unchanged: r.unchanged,
      relocated: r.relocated,
      missing: r.missing,
      failed,
      skipped: r.skipped,
      ignored: r.ignored,
      reading,
      issues,
      issuesTruncated: r.skipped + failed > issues.length,
      error: r.error,
      startedAt: r.started_at,
      finishedAt: r.finished_at,
    };
  });
}
