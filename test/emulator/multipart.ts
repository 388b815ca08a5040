/**
 * A small streaming multipart/form-data parser: parts are emitted as they arrive, so a file part
 * can go to disk without the body ever being held in memory.
 */
export interface PartHeaders {
  name?: string;
  filename?: string;
  contentType?: string;
}

export interface MultipartHandlers {
  onPartStart(h: PartHeaders): void;
  onPartData(chunk: Buffer): void;
  onPartEnd(): void;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

function parseHeaders(block: string): PartHeaders {
  const h: PartHeaders = {};
  for (const line of block.split('\r\n')) {
    const i = line.indexOf(':');
    if (i < 0) continue;
    const key = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    if (key === 'content-disposition') {
      const name = /\bname="([^"]*)"/i.exec(value) ?? /\bname=([^;\s]+)/i.exec(value);
      if (name) h.name = name[1];
      const fn = /\bfilename="([^"]*)"/i.exec(value);
      if (fn) h.filename = fn[1];
    } else if (key === 'content-type') h.contentType = value;
  }
  return h;
}

export class MultipartParser {
  private buf: Buffer = Buffer.alloc(0);
  private state: 'preamble' | 'afterBoundary' | 'headers' | 'body' | 'done' = 'preamble';
  private readonly delimiter: Buffer;
  private readonly first: Buffer;

  constructor(
    boundary: string,
    private readonly h: MultipartHandlers,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    this.first = Buffer.from(`--${boundary}`);
  }

  get finished(): boolean {
    return this.state === 'done';
  }

  write(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (this.state === 'preamble') {
        // The first boundary may open the body without a leading CRLF.
        if (this.buf.length >= this.first.length && this.buf.subarray(0, this.first.length).equals(this.first)) {
          this.buf = this.buf.subarray(this.first.length);
          this.state = 'afterBoundary';
          continue;
        }
        const i = this.buf.indexOf(this.delimiter);
        if (i < 0) {
          this.buf = this.buf.subarray(Math.max(0, this.buf.length - this.delimiter.length));
          return;
        }
        this.buf = this.buf.subarray(i + this.delimiter.length);
        this.state = 'afterBoundary';
      } else if (this.state === 'afterBoundary') {
        if (this.buf.length < 2) return;
        const two = this.buf.subarray(0, 2).toString('latin1');
        if (two === '--') {
          this.state = 'done';
          this.buf = Buffer.alloc(0);
          return;
        }
        const eol = this.buf.indexOf('\r\n');
        if (eol < 0) return;
        this.buf = this.buf.subarray(eol + 2);
        this.state = 'headers';
      } else if (this.state === 'headers') {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (this.buf.length > 16 * 1024) throw new Error('multipart part headers too long');
          return;
        }
        this.h.onPartStart(parseHeaders(this.buf.subarray(0, end).toString('utf8')));
        this.buf = this.buf.subarray(end + 4);
        this.state = 'body';
      } else if (this.state === 'body') {
        const i = this.buf.indexOf(this.delimiter);
        if (i < 0) {
          const keep = this.delimiter.length - 1;
          if (this.buf.length > keep) {
            this.h.onPartData(this.buf.subarray(0, this.buf.length - keep));
            this.buf = this.buf.subarray(this.buf.length - keep);
          }
          return;
        }
        if (i > 0) this.h.onPartData(this.buf.subarray(0, i));
        this.h.onPartEnd();
        this.buf = this.buf.subarray(i + this.delimiter.length);
        this.state = 'afterBoundary';
      } else return;
    }
  }
}
