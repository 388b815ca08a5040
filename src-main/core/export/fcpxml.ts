import type { FrameRate } from '../../../src-shared/timecode';
import { oneLine, textBlock } from './exchange-text';
import { audioChannelCount, audioTrackCount, type ExportDocument, type ExportItem } from './export-model';
import { fileUrl } from './file-url';
import { onSequence } from './sequence';
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

/**
 * A person's name as one keyword: Final Cut reads a keyword's value as a comma-separated list, so
 * "Smith, John" would come in as two keywords ("Smith" and "John"); the comma becomes a space.
 */
const personKeyword = (name: string) => oneLine(name).replace(/\s*,\s*/g, ' ').trim();

const formatKey = (it: Pick<ExportItem, 'rate' | 'width' | 'height'>) => `${it.rate.num}/${it.rate.den} ${it.width ?? 0}x${it.height ?? 0}`;

/** The sequence's audio rate as the DTD spells it; undefined when it is none of those. */
const SEQUENCE_AUDIO_RATES: Record<number, string> = { 32000: '32k', 44100: '44.1k', 48000: '48k', 88200: '88.2k', 96000: '96k', 176400: '176.4k', 192000: '192k' };

/**
 * Final Cut Pro X interchange 1.10, with what both of Final Cut's imports want:
 * - the event (named after the export): one asset-clip per item holding, in the DTD's order, its
 *   note, then markers, keywords and rating (what a browser import keeps); each named person is a
 *   keyword of their own (the plain name, what an editor filters the browser by) over the frames
 *   they are seen on, so Final Cut lists them as keyword ranges of the clip;
 * - a "Selects" project in that event whose sequence lays the same items one after another on
 *   its spine from 00:00:00:00 (Final Cut's own project start), markers on each, so a timeline
 *   import (and OpenTimelineIO's fcpx_xml reader, which reads projects only) gets the cut.
 * One format per rate and size; one asset per file (its start is the file's start timecode, its
 * length the last video frame, its audio the file's streams and channels). Clip times are exact
 * rationals on each clip's own frame grid; on the spine an item's length is counted in the
 * sequence's frames (the first item's rate), to the nearest frame when its own rate differs.
 * Final Cut rejects a file that breaks the DTD as a whole, so order and required attributes are
 * checked by tests against the DTD's rules.
 */
export function writeFcpxml(doc: ExportDocument): string {
  const formats = new Map<string, string>();
  const assets = new Map<string, string>();
  const res: string[] = [];
  let nextId = 1;
  const formatOf = (it: Pick<ExportItem, 'rate' | 'width' | 'height'>) => {
    const fk = formatKey(it);
    if (!formats.has(fk)) {
      const id = `r${nextId++}`;
      formats.set(fk, id);
      res.push(`    <format${attrs({ id, frameDuration: rationalTime(1, it.rate), width: it.width ?? undefined, height: it.height ?? undefined })}/>`);
    }
    return formats.get(fk)!;
  };
  const first = doc.items[0];
  const seqFormat = formatOf({ rate: doc.sequenceRate, width: first?.width ?? null, height: first?.height ?? null });
  for (const it of doc.items) formatOf(it);
  for (const it of doc.items) {
    if (assets.has(it.path)) continue;
    const id = `r${nextId++}`;
    assets.set(it.path, id);
    const channels = audioChannelCount(it);
    res.push(
      `    <asset${attrs({
        id,
        name: oneLine(it.fileName.replace(/\.[^.]+$/, '')),
        start: rationalTime(it.startFrame, it.rate),
        duration: rationalTime(it.durationFrames, it.rate),
        hasVideo: 1,
        format: formats.get(formatKey(it)),
        hasAudio: channels > 0 ? 1 : 0,
        audioSources: channels > 0 ? it.audioLayout.length : undefined,
        audioChannels: channels > 0 ? channels : undefined,
        audioRate: channels > 0 && it.audioRate ? it.audioRate : undefined,
      })}>`,
      `      <media-rep${attrs({ kind: 'original-media', src: fileUrl(it.path) })}/>`,
      `    </asset>`,
    );
  }
  const clipOpen = (it: ExportItem, extra: Record<string, string>, duration: string) =>
    `<asset-clip${attrs({
      ref: assets.get(it.path),
      ...extra,
      name: oneLine(it.name),
      start: rationalTime(it.startFrame + it.inFrame, it.rate),
      duration,
      format: formats.get(formatKey(it)),
      tcFormat: it.dropFrame ? 'DF' : 'NDF',
    })}>`;
  const markers = (it: ExportItem, indent: string) =>
    it.markers.map(
      (m) =>
        `${indent}<marker${attrs({ start: rationalTime(it.startFrame + m.frame, it.rate), duration: rationalTime(Math.max(1, m.durationFrames), it.rate), value: oneLine(m.name), note: oneLine(m.note) || undefined })}/>`,
    );

  const clips: string[] = [];
  for (const it of doc.items) {
    const span = { start: rationalTime(it.startFrame + it.inFrame, it.rate), duration: rationalTime(it.outFrame - it.inFrame, it.rate) };
    clips.push(`      ${clipOpen(it, {}, span.duration)}`);
    if (it.note) clips.push(`        <note>${xmlEscape(textBlock(it.note))}</note>`);
    clips.push(...markers(it, '        '));
    if (it.keywords.length > 0) clips.push(`        <keyword${attrs({ ...span, value: it.keywords.map(oneLine).join(', ') })}/>`);
    for (const p of it.people) {
      clips.push(`        <keyword${attrs({ start: rationalTime(it.startFrame + p.inFrame, it.rate), duration: rationalTime(p.outFrame - p.inFrame, it.rate), value: personKeyword(p.name) })}/>`);
    }
    if (it.rating) clips.push(`        <rating${attrs({ ...span, value: it.rating })}/>`);
    clips.push(`      </asset-clip>`);
  }

  const seq = doc.sequenceRate;
  const spine: string[] = [];
  let at = 0;
  for (const it of doc.items) {
    const len = Math.max(1, onSequence(it.outFrame - it.inFrame, it.rate, seq));
    spine.push(`            ${clipOpen(it, { offset: rationalTime(at, seq) }, rationalTime(len, seq))}`, ...markers(it, '              '), '            </asset-clip>');
    at += len;
  }
  const channels = audioTrackCount(doc.items);
  const project = [
    `      <project${attrs({ name: 'Selects' })}>`,
    `        <sequence${attrs({
      format: seqFormat,
      duration: rationalTime(at, seq),
      tcStart: '0s',
      tcFormat: doc.sequenceDropFrame ? 'DF' : 'NDF',
      audioLayout: channels === 0 ? undefined : channels === 1 ? 'mono' : channels === 6 ? 'surround' : 'stereo',
      audioRate: SEQUENCE_AUDIO_RATES[doc.items.find((it) => it.audioRate)?.audioRate ?? 0],
    })}>`,
    '          <spine>',
    ...spine,
    '          </spine>',
    '        </sequence>',
    '      </project>',
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE fcpxml>',
    '<fcpxml version="1.10">',
    '  <resources>',
    ...res,
    '  </resources>',
    '  <library>',
    `    <event${attrs({ name: oneLine(doc.title) })}>`,
    ...clips,
    ...project,
    '    </event>',
    '  </library>',
    '</fcpxml>',
    '',
  ].join('\n');
}
