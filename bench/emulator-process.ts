import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What the benchmarks that run the emulator as a service share: its own process, and where CPU went. */

let clockTick: number | undefined;

/** CPU seconds of a process (self: with its worker threads) and of its exited children, where /proc tells (Linux); null elsewhere. */
export function cpuSeconds(pid: number | 'self' = 'self'): { own: number; children: number } | null {
  const file = `/proc/${pid}/stat`;
  if (!fs.existsSync(file)) return null;
  // getconf runs before the reading below: its own CPU is counted in neither.
  const tick = (clockTick ??= Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100);
  const stat = fs.readFileSync(file, 'utf8');
  // Fields after the command name: utime, stime, cutime, cstime are 14-17 of stat(5), in clock ticks.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { own: (f[11]! + f[12]!) / tick, children: (f[13]! + f[14]!) / tick };
}

/**
 * CPU seconds of the calling thread so far, exact (the scheduler's nanoseconds on CPU, not ticks),
 * from /proc/thread-self/schedstat (Linux); 0 elsewhere.
 */
export function threadCpuS(): number {
  try {
    return Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return 0;
  }
}

/**
 * The emulator in a process of its own, as the service is: its CPU is told apart from the app's,
 * and its parsing of the uploads does not hold up the pipeline's event loop.
 */
export async function startEmulatorProcess(keySpec: string): Promise<{ url: string; cpuS: () => number | null; close: () => Promise<void> }> {
  const cli = path.resolve(__dirname, '..', 'test', 'emulator', 'cli.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--api-key', keySpec], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A bench that fails must not leave the emulator listening behind it.
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('error', reject);
    void exited.then(() => reject(new Error(`the emulator exited before listening: ${out}`)));
  });
  return {
    url,
    cpuS: () => cpuSeconds(child.pid!)?.own ?? null,
    close: async () => {
      process.off('exit', stop);
      stop();
      await exited;
    },
  };
}

