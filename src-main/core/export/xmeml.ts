import { framesToTimecode, nominalFps, type FrameRate } from '../../../src-shared/timecode';
import { sequenceStartFrame } from './sequence-start';
import type { ExportDocument, ExportItem } from './export-model';
import { oneLine, textBlock } from './exchange-text';
import { fileUrl } from './file-url';
import { xmlEscape } from './xml-text';

const el = (name: string, value: string | number) => `<${name}>${xmlEscape(String(value))}</${name}>`;

/** FCP7's rate: an integer timebase plus NTSC (x1000/1001). */
function rateXml(rate: FrameRate): string {
  return `<rate>${el('timebase', nominalFps(rate))}${el('ntsc', rate.den === 1001 ? 'TRUE' : 'FALSE')}</rate>`;
}

function timecodeXml(frame: number, rate: FrameRate, dropFrame: boolean): string {
  return `<timecode>${rateXml(rate)}${el('string', framesToTimecode(frame, rate, dropFrame))}${el('frame', frame)}${el('displayformat', dropFrame ? 'DF' : 'NDF')}</timecode>`;
}

/** Frames at one rate as frames at another (a 25 fps item on a 23.976 sequence). */
function onSequence(frames: number, from: FrameRate, to: FrameRate): number {
  return Math.round((frames * from.den * to.num) / (from.num * to.den));
}

function fileXml(it: ExportItem, id: string, known: boolean): string {
  if (known) return `<file id="${id}"/>`;
  const audio = (it.audioChannels ?? 0) > 0;
  return [
    `<file id="${id}">`,
    el('name', oneLine(it.fileName)),
    el('pathurl', fileUrl(it.path, 'localhost')),
    rateXml(it.rate),
    el('duration', it.durationFrames),
    timecodeXml(it.startFrame, it.rate, it.dropFrame),
    '<media><video><samplecharacteristics>',
    rateXml(it.rate),
    it.width ? el('width', it.width) : '',
    it.height ? el('height', it.height) : '',
    '</samplecharacteristics></video>',
    audio ? `<audio><samplecharacteristics>${el('depth', 16)}${el('samplerate', it.audioRate ?? 48000)}</samplecharacteristics>${el('channelcount', it.audioChannels ?? 2)}</audio>` : '',
    '</media>',
    '</file>',
  ].join('');
}

/**
 * Final Cut Pro 7 XML (xmeml 4), which Premiere Pro and DaVinci Resolve import: one sequence with
 * the items one after another on V1, each a clipitem with its In/Out in source frames, its file
 * (file://localhost URL, rate, start timecode), its markers (source frames; out -1 = a point) and
 * the editor's marks as logging info (description = note, log note = keywords, good = favourite).
 */
export function writeXmeml(doc: ExportDocument): string {
  const seq = doc.sequenceRate;
  const fileIds = new Map<string, string>();
  const items: string[] = [];
  let at = 0;
  doc.items.forEach((it, i) => {
    const len = Math.max(1, onSequence(it.outFrame - it.inFrame, it.rate, seq));
    const known = fileIds.has(it.path);
    if (!known) fileIds.set(it.path, `file-${fileIds.size + 1}`);
    items.push(
      [
        `<clipitem id="clipitem-${i + 1}">`,
        el('name', oneLine(it.name)),
        el('enabled', 'TRUE'),
        el('duration', it.durationFrames),
        rateXml(it.rate),
        el('start', at),
        el('end', at + len),
        el('in', it.inFrame),
        el('out', it.outFrame),
        fileXml(it, fileIds.get(it.path)!, known),
        ...it.markers.map((m) => `<marker>${el('name', oneLine(m.name))}${el('comment', textBlock(m.note))}${el('in', m.frame)}${el('out', m.durationFrames > 0 ? m.frame + m.durationFrames : -1)}</marker>`),
        `<logginginfo>${el('description', textBlock(it.note))}${el('lognote', it.keywords.map(oneLine).join(', '))}${el('good', it.rating === 'favorite' ? 'TRUE' : 'FALSE')}</logginginfo>`,
        it.rating === 'reject' ? `<labels>${el('label2', 'Rejected')}</labels>` : '',
        '</clipitem>',
      ].join(''),
    );
    at += len;
  });
  const first = doc.items[0];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE xmeml>',
    '<xmeml version="4">',
    `<sequence id="sequence-1">${el('name', oneLine(doc.title))}${el('duration', at)}${rateXml(seq)}`,
    timecodeXml(sequenceStartFrame(seq, doc.sequenceDropFrame), seq, doc.sequenceDropFrame),
    '<media><video>',
    `<format><samplecharacteristics>${rateXml(seq)}${first?.width ? el('width', first.width) : ''}${first?.height ? el('height', first.height) : ''}</samplecharacteristics></format>`,
    '<track>',
    ...items,
    '</track>',
    '</video></media>',
    '</sequence>',
    '</xmeml>',
    '',
  ].join('\n');
}
