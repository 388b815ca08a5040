import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../../src-shared/errors';
import { formatBytes } from '../util/disk-space';
import { openRemote, type OpenRemoteOptions } from './remote-fetch';

/**
 * Largest file copied whole from a server that does not take range requests. ffmpeg cannot seek
 * in a stream it is handed in one piece (the poster's seeks and a range cut failed with its own
 * words), so such a file is read once into the data folder and read locally; above this it is
 * refused in a sentence instead of filling the disk.
 */
export const MAX_SPOOL_BYTES = 1024 ** 3;

export interface SpoolOptions {
  /** A folder of the app's own (the data folder's cache), emptied at start. */
  dir: string;
  maxBytes?: number;
}

export interface Spooled {
  file: string;
  size: number;
  contentType: string | null;
}

/** A server without range requests whose file is over the limit: what it means and what to do. */
export function noRangesTooLarge(host: string, maxBytes: number): AppError {
  return new AppError(
    'invalid',
    `${host} does not let Reelscout read parts of the file (it ignores range requests), and the file is larger than ${formatBytes(maxBytes)}, the most Reelscout copies whole to read it. Download the file and import it from disk, or give an address that allows range requests (most buckets and CDNs do).`,
  );
}

const DISK_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * The whole file at `url` copied into `o.dir` (main's reader: the address rules and timeouts),
 * bounded by `maxBytes` before and while it is read. `onBytes` sees every piece (the playlist
 * check, the byte count). The copy is the caller's to delete; a failed one is deleted here.
 */
export async function spoolRemote(url: string, open: Omit<OpenRemoteOptions, 'range' | 'method' | 'agents'>, o: SpoolOptions & { onBytes?: (chunk: Buffer) => void }): Promise<Spooled> {
  const host = new URL(url).host;
  const max = o.maxBytes ?? MAX_SPOOL_BYTES;
  const r = await openRemote(url, open);
  if (Number(r.headers['content-length'] ?? 0) > max) {
    r.body.destroy();
    throw noRangesTooLarge(host, max);
  }
  fs.mkdirSync(o.dir, { recursive: true });
  const file = path.join(o.dir, `${randomBytes(12).toString('hex')}.part`);
  let size = 0;
  try {
    await pipeline(
      r.body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > max) throw noRangesTooLarge(host, max);
          o.onBytes?.(chunk);
          yield chunk;
        }
      },
      fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }),
    );
    if (!r.body.complete) throw new AppError('offline', `${host} closed the connection before the whole file was read`);
  } catch (e) {
    fs.rmSync(file, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && DISK_CODES.has(code)) {
      throw new AppError('disk_full', `${host} does not let Reelscout read parts of the file, and there is no room in ${o.dir} for a copy of it to read (${formatBytes(size)} written when the disk refused). Free some room, or download the file and import it from another disk.`, { cause: e });
    }
    throw e;
  }
  return { file, size, contentType: r.headers['content-type'] ?? null };
}
