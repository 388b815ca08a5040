import type { FrameRate } from '../../../src-shared/timecode';
import type { ExportDocument, ExportItem } from './export-model';
import { oneLine, textBlock } from './exchange-text';
import { fileUrl } from './file-url';
import { attrs, xmlEscape } from './xml-text';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** `frames` at `rate` as FCPXML rational seconds ("1001/24000s", "10s"): exact, on the frame grid. */
export function rationalTime(frames: number, rate: FrameRate): string {
  const num = frames * rate.den;
  const den = rate.num;
  if (num === 0) return '0s';
  const g = gcd(Math.abs(num), den);
  return den / g === 1 ? `${num / g}s` : `${num / g}/${den / g}s`;
}

const formatKey = (it: ExportItem) => `${it.rate.num}/${it.rate.den} ${it.width ?? 0}x${it.height ?? 0}`;

/**
 * Final Cut Pro X interchange 1.10: one format per rate and size, one asset per file (its start
 * is the file's start timecode), and one asset-clip per item in an event named after the export,
 * holding, in the DTD's order, its note, then markers, keywords and rating (the DTD's marker
 * items, which may mix). Final Cut rejects a file that breaks the DTD as a whole, so order and
 * required attributes are checked by test/unit/export-formats.test.ts against the DTD's rules.
 */
export function writeFcpxml(doc: ExportDocument): string {
  const formats = new Map<string, string>();
  const assets = new Map<string, string>();
  const res: string[] = [];
  let nextId = 1;
  for (const it of doc.items) {
    const fk = formatKey(it);
    if (!formats.has(fk)) {
      const id = `r${nextId++}`;
      formats.set(fk, id);
      res.push(`    <format${attrs({ id, frameDuration: rationalTime(1, it.rate), width: it.width ?? undefined, height: it.height ?? undefined })}/>`);
    }
  }
  for (const it of doc.items) {
    if (assets.has(it.path)) continue;
    const id = `r${nextId++}`;
    assets.set(it.path, id);
    const audio = (it.audioChannels ?? 0) > 0;
    res.push(
      `    <asset${attrs({
        id,
        name: oneLine(it.fileName.replace(/\.[^.]+$/, '')),
        start: rationalTime(it.startFrame, it.rate),
        duration: rationalTime(it.durationFrames, it.rate),
        hasVideo: 1,
        format: formats.get(formatKey(it)),
        hasAudio: audio ? 1 : 0,
        audioSources: audio ? 1 : undefined,
        audioChannels: audio ? (it.audioChannels ?? undefined) : undefined,
        audioRate: audio && it.audioRate ? it.audioRate : undefined,
      })}>`,
      `      <media-rep${attrs({ kind: 'original-media', src: fileUrl(it.path) })}/>`,
      `    </asset>`,
    );
  }
  const clips: string[] = [];
  for (const it of doc.items) {
    const t = (f: number) => rationalTime(it.startFrame + f, it.rate);
    const span = { start: t(it.inFrame), duration: rationalTime(it.outFrame - it.inFrame, it.rate) };
    clips.push(
      `      <asset-clip${attrs({
        ref: assets.get(it.path),
        name: oneLine(it.name),
        start: span.start,
        duration: span.duration,
        format: formats.get(formatKey(it)),
        tcFormat: it.dropFrame ? 'DF' : 'NDF',
      })}>`,
    );
    if (it.note) clips.push(`        <note>${xmlEscape(textBlock(it.note))}</note>`);
    for (const m of it.markers) {
      clips.push(`        <marker${attrs({ start: t(m.frame), duration: rationalTime(Math.max(1, m.durationFrames), it.rate), value: oneLine(m.name), note: oneLine(m.note) || undefined })}/>`);
    }
    if (it.keywords.length > 0) clips.push(`        <keyword${attrs({ ...span, value: it.keywords.map(oneLine).join(', ') })}/>`);
    if (it.rating) clips.push(`        <rating${attrs({ ...span, value: it.rating })}/>`);
    clips.push(`      </asset-clip>`);
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE fcpxml>',
    '<fcpxml version="1.10">',
    '  <resources>',
    ...res,
    '  </resources>',
    '  <library>',
    `    <event${attrs({ name: oneLine(doc.title) })}>`,
    ...clips.map((l) => `  ${l}`),
    '    </event>',
    '  </library>',
    '</fcpxml>',
    '',
  ].join('\n');
}

