import fs from 'node:fs';
import path from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
  /** Values that must never be written, whatever field or message they hide in. */
  addSecret(value: string): void;
}

const SECRET_FIELD = /^(api[-_]?key|x-api-key|authorization|token|secret|password)$/i;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

export function redact(value: unknown, secrets: ReadonlySet<string>): unknown {
  if (typeof value === 'string') {
    let s = value.replace(BEARER, '$1***');
    for (const secret of secrets) if (secret.length >= 4) s = s.split(secret).join('***');
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) ? '***' : redact(v, secrets);
    return out;
  }
  return value;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** JSON-lines logger; every line passes through redaction before it reaches a file or stderr. */
export function createLogger(opts: { file?: string; level?: LogLevel; console?: boolean } = {}): Logger {
  const secrets = new Set<string>();
  const min = ORDER[opts.level ?? 'info'];
  let stream: fs.WriteStream | undefined;
  let droppedAt = -Infinity;
  // A log file that cannot be written (a full disk) must not end the app: the stream is dropped
  // on its first error and opened again a little later; lines meanwhile are lost.
  const open = (file: string) => {
    droppedAt = Date.now();
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const s = fs.createWriteStream(file, { flags: 'a' });
      s.on('error', () => {
        if (stream === s) stream = undefined;
        droppedAt = Date.now();
      });
      stream = s;
    } catch {
      stream = undefined;
    }
  };
  if (opts.file) open(opts.file);
  const write = (level: LogLevel, msg: string, data?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    const line = JSON.stringify(redact({ t: new Date().toISOString(), level, msg, ...data }, secrets));
    if (!stream && opts.file && Date.now() - droppedAt > 5000) open(opts.file);
    stream?.write(line + '\n');
    if (opts.console) process.stderr.write(line + '\n');
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
    addSecret: (v) => {
      if (v) secrets.add(v);
    },
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, addSecret() {} };
