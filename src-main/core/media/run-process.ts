import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';

export interface RunOptions {
  signal?: AbortSignal;
  /** Cap on captured stdout; decoders that stream use spawnTool instead. */
  maxStdoutBytes?: number;
  cwd?: string;
  input?: Buffer;
}

export interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

const STDERR_KEEP = 64 * 1024;

/** Kills a child and its pipes: SIGTERM first, SIGKILL if it lingers (ffmpeg can ignore TERM mid-write). */
export function killChild(child: ChildProcess, graceMs = 2000): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const t = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, graceMs);
  t.unref();
  child.once('exit', () => clearTimeout(t));
}

/**
 * Niceness of the media tools: below normal, so while a card decodes on every core the app's own
 * processes (the main process answering the UI, the renderer) are scheduled first. The tools
 * still get every cycle the app leaves idle.
 */
export const TOOL_PRIORITY = 10;

/** macOS's EBADARCH: the binary is for another CPU and nothing can translate it (Rosetta 2 missing). */
const EBADARCH = -86;

/**
 * Why a tool could not start, as the error editors see: the tool missing, a binary their Mac cannot
 * run without Rosetta 2 (macOS arm64's bundled ffmpeg is an x86-64 build: README, "Library
 * choices"), or another system error. One reading for every place that spawns a tool.
 */
export function toolStartFailure(bin: string, err: NodeJS.ErrnoException, platform: NodeJS.Platform = process.platform): AppError {
  const name = path.basename(bin);
  if (err.code === 'ENOENT') return new AppError('media', `${name} was not found at ${bin}: set its path in Settings`, { cause: err });
  if (platform === 'darwin' && (err.errno === EBADARCH || err.code === 'EBADARCH' || /Bad CPU type/i.test(err.message))) {
    return new AppError('media', `${name} is an Intel (x86-64) build and this Mac cannot run it without Rosetta 2: install Rosetta 2 (Terminal: softwareupdate --install-rosetta) or set another ${name} in Settings`, { cause: err });
  }
  return new AppError('io', `${bin}: ${err.message}`, { cause: err });
}

const spawned = new Map<string, number>();

/**
 * How many tool processes this process has started, by program name (ffmpeg, ffprobe): every one
 * pays the program's start-up before it reads a byte, which bench:index prices.
 */
export function toolsSpawned(): ReadonlyMap<string, number> {
  return spawned;
}

/** Spawns a tool whose lifetime follows the signal: aborting the job kills the process. */
export function spawnTool(bin: string, args: string[], signal?: AbortSignal, options: SpawnOptions = {}): ChildProcess {
  if (signal?.aborted) throw new AppError('cancelled', 'cancelled before start');
  const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, ...options });
  const name = path.basename(bin, '.exe');
  spawned.set(name, (spawned.get(name) ?? 0) + 1);
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, TOOL_PRIORITY);
    } catch {
      // Not allowed here (some sandboxes) or already gone: it runs at normal priority.
    }
  }
  if (signal) {
    const onAbort = () => killChild(child);
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('exit', () => signal.removeEventListener('abort', onAbort));
  }
  return child;
}

/** Runs a tool to completion, capturing stdout and the tail of stderr. Non-zero exit is returned, not thrown. */
export function runTool(bin: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawnTool(bin, args, opts.signal, { cwd: opts.cwd });
    } catch (e) {
      reject(e);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let overflow = false;
    child.stdout!.on('data', (c: Buffer) => {
      size += c.length;
      if (opts.maxStdoutBytes !== undefined && size > opts.maxStdoutBytes) {
        if (!overflow) {
          overflow = true;
          killChild(child);
        }
        return;
      }
      chunks.push(c);
    });
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
      if (stderr.length > STDERR_KEEP * 2) stderr = stderr.slice(-STDERR_KEEP);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(toolStartFailure(bin, err));
    });
    child.once('close', (code, sig) => {
      if (opts.signal?.aborted) return reject(new AppError('cancelled', `${bin} cancelled`));
      if (overflow) return reject(new AppError('io', `${bin} produced more than ${opts.maxStdoutBytes} bytes`));
      resolve({ code: code ?? (sig ? 128 : 1), stdout: Buffer.concat(chunks), stderr: stderr.slice(-STDERR_KEEP) });
    });
    child.stdin!.on('error', () => {
      /* the tool may exit before reading all input: its exit code says what happened */
    });
    if (opts.input) child.stdin!.end(opts.input);
    else child.stdin!.end();
  });
}
