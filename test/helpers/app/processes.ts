import fs from 'node:fs';

/**
 * The processes whose command line mentions `needle` (Linux /proc; none elsewhere): how tests see
 * the ffmpeg a job started, that it runs at low priority, or that it is gone. Nothing is killed here.
 */
export function processesUsing(needle: string): number[] {
  if (!fs.existsSync('/proc/self/cmdline')) return [];
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle)) out.push(Number(pid));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}
