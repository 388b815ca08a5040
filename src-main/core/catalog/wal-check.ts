import fs from 'node:fs';

/** What reading a WAL file the way SQLite's recovery does found (https://sqlite.org/fileformat2.html#walformat). */
export interface WalCheck {
  /** Frames SQLite will replay: up to the last commit before anything unreadable. */
  replayed: number;
  /**
   * Frames written in this generation of the WAL (its salts) that SQLite will silently skip: a
   * frame whose checksum does not hold, and every frame after it. 0 for a sound WAL.
   */
  lost: number;
  /** Commits among the lost frames (transactions that will be missing). */
  lostCommits: number;
  /** Why, in words, when something is lost. */
  reason: string | null;
}

const HEADER = 32;
const FRAME_HEADER = 24;
const NOTHING: WalCheck = { replayed: 0, lost: 0, lostCommits: 0, reason: null };

/** A page size SQLite accepts in a WAL header (a power of two from 512 to 65536). */
const validPage = (n: number) => n >= 512 && n <= 65536 && (n & (n - 1)) === 0;

/** The page size in the database file's own header (1 stands for 65536); null when it cannot be read. */
function dbPageSize(dbFile: string): number | null {
  try {
    const fd = fs.openSync(dbFile, 'r');
    try {
      const head = Buffer.alloc(18);
      if (fs.readSync(fd, head, 0, 18, 0) < 18) return null;
      const n = head.readUInt16BE(16);
      return n === 1 ? 65536 : validPage(n) ? n : null;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * SQLite recovers a WAL by replaying frames while their salts match the header and their running
 * checksum holds, up to the last commit frame; the first bad frame silently ends the replay, and
 * every transaction after it is gone without a word. Leftover frames of an earlier generation
 * (other salts) are normal. This reads the file the same way and counts the frames of the current
 * generation that will not be replayed, so a start can say what a damaged journal cost.
 *
 * A header SQLite cannot use (not a WAL's magic number, or no valid page size) makes it read the
 * WAL as empty: then every committed transaction in it is lost, and only those are counted. The
 * frames are then told apart by the database file's page size, and the generation is the first
 * frame's (SQLite writes each generation from the start of the file); a WAL holding frames with
 * no commit frame (a transaction cut off before it was saved) lost no saved change.
 */
export function checkWal(walFile: string): WalCheck {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(walFile);
  } catch {
    return NOTHING;
  }
  if (buf.length < HEADER) return NOTHING;
  const magic = buf.readUInt32BE(0);
  const usable = (magic === 0x377f0682 || magic === 0x377f0683) && validPage(buf.readUInt32BE(8));
  // Frames that cannot be told apart cannot be counted; a catalog file without a page size is
  // damage quick_check names on its own.
  const pageSize = usable ? buf.readUInt32BE(8) : dbPageSize(walFile.replace(/-wal$/, ''));
  if (pageSize === null) return NOTHING;
  const bigEndian = (magic & 1) === 1;
  const salt1 = buf.readUInt32BE(usable ? 16 : HEADER + 8);
  const salt2 = buf.readUInt32BE(usable ? 20 : HEADER + 12);
  const frameSize = FRAME_HEADER + pageSize;
  const total = Math.floor((buf.length - HEADER) / frameSize);
  if (total === 0) return NOTHING;
  const word = (off: number) => (bigEndian ? buf.readUInt32BE(off) : buf.readUInt32LE(off));
  const sum = (from: number, to: number, s: [number, number]): [number, number] => {
    let [s0, s1] = s;
    for (let i = from; i < to; i += 8) {
      s0 = (s0 + word(i) + s1) >>> 0;
      s1 = (s1 + word(i + 4) + s0) >>> 0;
    }
    return [s0, s1];
  };
  const salted = (n: number) => buf.readUInt32BE(HEADER + n * frameSize + 8) === salt1 && buf.readUInt32BE(HEADER + n * frameSize + 12) === salt2;
  const commit = (n: number) => buf.readUInt32BE(HEADER + n * frameSize + 4) !== 0;
  let s = sum(0, 24, [0, 0]);
  const headerOk = usable && s[0] === buf.readUInt32BE(24) && s[1] === buf.readUInt32BE(28);
  // Replay: while salts match and the running checksum holds; what counts is the last commit.
  let replayed = 0;
  let firstBad = 0;
  if (headerOk) {
    for (; firstBad < total; firstBad++) {
      const off = HEADER + firstBad * frameSize;
      if (!salted(firstBad)) break;
      s = sum(off + FRAME_HEADER, off + frameSize, sum(off, off + 8, s));
      if (s[0] !== buf.readUInt32BE(off + 16) || s[1] !== buf.readUInt32BE(off + 20)) break;
      if (commit(firstBad)) replayed = firstBad + 1;
    }
  }
  // Committed transactions of this generation (our salts) past that point are lost. Frames of an
  // earlier generation are leftovers, and an uncommitted tail (a crash mid-transaction, a torn
  // last frame) was never saved: neither is damage.
  let lastCommit = -1;
  let lostCommits = 0;
  for (let n = firstBad; n < total; n++) {
    if (salted(n) && commit(n)) {
      lastCommit = n;
      lostCommits++;
    }
  }
  if (lostCommits === 0) return { replayed, lost: 0, lostCommits: 0, reason: null };
  const reason = !usable ? 'its header is not a WAL header' : headerOk ? `frame ${firstBad + 1} of ${total} cannot be read (its checksum does not hold)` : 'its header checksum does not hold';
  return { replayed, lost: lastCommit + 1 - replayed, lostCommits, reason };
}
