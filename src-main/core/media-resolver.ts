import path from 'node:path';
import type { MediaRef } from '../../src-shared/media-ref';
import type { CatalogDb } from './catalog/open-catalog';
import { resolveUnder } from './util/resolve-under';

/**
 * Only two kinds of file are ever served to the renderer: files in the thumbnail cache and
 * catalogued clips on a drive (a clip that lives at a URL is not a file: main streams it, see
 * remote/remote-clip-stream.ts). Anything else (a crafted path) resolves to null.
 */
export function createMediaResolver(db: CatalogDb, thumbsDir: string): (ref: MediaRef) => string | null {
  const clipPath = db.prepare(
    `SELECT v.mount_path AS mount, c.rel_path AS rel FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ? AND c.source_url IS NULL`,
  );
  return (ref) => {
    if (ref.kind === 'thumb') return resolveUnder(thumbsDir, ref.path);
    const row = clipPath.get(ref.clipId) as { mount: string; rel: string } | undefined;
    return row ? path.join(row.mount, ...row.rel.split('/')) : null;
  };
}
