import { framesToTimecode, nominalFps, type FrameRate } from '../../../src-shared/timecode';
import { oneLine, textBlock } from './exchange-text';
import { audioChannelCount, audioTrackCount, type ExportDocument, type ExportItem } from './export-model';
import { fileUrl } from './file-url';
import { assignReels } from './reels';
import { onSequence, sequenceStartFrame } from './sequence';
import { xmlEscape } from './xml-text';

/** The comment of a person's marker: the name alone could be taken for a shot's or a range's marker. */
const PERSON_COMMENT = 'person on screen';

const el = (name: string, value: string | number) => `<${name}>${xmlEscape(String(value))}</${name}>`;

/** FCP7's rate: an integer timebase plus NTSC (x1000/1001). */
function rateXml(rate: FrameRate): string {
  return `<rate>${el('timebase', nominalFps(rate))}${el('ntsc', rate.den === 1001 ? 'TRUE' : 'FALSE')}</rate>`;
}

function timecodeXml(frame: number, rate: FrameRate, dropFrame: boolean, reel?: string): string {
  const reelXml = reel ? `<reel>${el('name', reel)}</reel>` : '';
  return `<timecode>${rateXml(rate)}${el('string', framesToTimecode(frame, rate, dropFrame))}${el('frame', frame)}${el('displayformat', dropFrame ? 'DF' : 'NDF')}${reelXml}</timecode>`;
}

/** The file once in full (the first clipitem that uses it), then by reference. */
function fileXml(it: ExportItem, id: string, known: boolean, reel: string): string {
  if (known) return `<file id="${id}"/>`;
  const audio = it.audioLayout.map(
    (channels) => `<audio><samplecharacteristics>${el('depth', 16)}${el('samplerate', it.audioRate ?? 48000)}</samplecharacteristics>${el('channelcount', channels)}</audio>`,
  );
  return [
    `<file id="${id}">`,
    el('name', oneLine(it.fileName)),
    el('pathurl', fileUrl(it.path, 'localhost')),
    rateXml(it.rate),
    el('duration', it.durationFrames),
    timecodeXml(it.startFrame, it.rate, it.dropFrame, reel),
    '<media><video><samplecharacteristics>',
    rateXml(it.rate),
    it.width ? el('width', it.width) : '',
    it.height ? el('height', it.height) : '',
    '</samplecharacteristics></video>',
    ...audio,
    '</media>',
    '</file>',
  ].join('');
}

/** Where an item sits on the sequence and what it takes from its file. */
interface Placed {
  it: ExportItem;
  index: number;
  start: number;
  end: number;
  /** Its clipindex on the video track and on each audio track it has a channel on. */
  videoIndex: number;
  audioIndex: number[];
}

const videoId = (p: Placed) => `clipitem-${p.index + 1}`;
const audioId = (p: Placed, track: number) => `clipitem-${p.index + 1}-a${track + 1}`;

/** Every member of an item's linked group, in every clipitem of the group (as Premiere writes links). */
function linksXml(p: Placed): string {
  const video = `<link>${el('linkclipref', videoId(p))}${el('mediatype', 'video')}${el('trackindex', 1)}${el('clipindex', p.videoIndex)}</link>`;
  const audio = p.audioIndex.map(
    (clipIndex, t) => `<link>${el('linkclipref', audioId(p, t))}${el('mediatype', 'audio')}${el('trackindex', t + 1)}${el('clipindex', clipIndex)}${el('groupindex', 1)}</link>`,
  );
  return [video, ...audio].join('');
}

/** What a video and an audio clipitem of one item share: name, length, rate, place and source frames. */
function timingXml(p: Placed): string {
  return [el('name', oneLine(p.it.name)), el('enabled', 'TRUE'), el('duration', p.it.durationFrames), rateXml(p.it.rate), el('start', p.start), el('end', p.end), el('in', p.it.inFrame), el('out', p.it.outFrame)].join('');
}

/**
 * Final Cut Pro 7 XML (xmeml 4), which Premiere Pro and DaVinci Resolve import: one sequence with
 * the items one after another, each a video clipitem on V1 and one audio clipitem per source
 * channel on A1, A2... (the file's channel layout: a stereo stream on two tracks, four mono
 * streams on four), linked so the NLE moves picture and sound together. Clipitems carry In/Out in
 * source frames, their file (file://localhost URL, rate, start timecode with the reel the EDL of
 * the same export uses, its audio streams), markers (source frames; out -1 = a point), a marker
 * per stretch a named person is seen (their name, over those frames: xmeml has no keyword
 * ranges, and Premiere and Resolve list clip markers with their spans) and the editor's marks as
 * logging info (description = note, log note = keywords, good = favourite).
 * Out is exclusive, as xmeml counts it. With mixed rates the sequence takes the first item's, and
 * an item's length on it is its own length in sequence frames, to the nearest frame.
 */
export function writeXmeml(doc: ExportDocument): string {
  const seq = doc.sequenceRate;
  const reels = assignReels(doc.items);
  const tracks = audioTrackCount(doc.items);
  const onTrack = new Array<number>(tracks).fill(0);
  const placed: Placed[] = [];
  let at = 0;
  doc.items.forEach((it, index) => {
    const len = Math.max(1, onSequence(it.outFrame - it.inFrame, it.rate, seq));
    const audioIndex = Array.from({ length: audioChannelCount(it) }, (_, t) => ++onTrack[t]!);
    placed.push({ it, index, start: at, end: at + len, videoIndex: index + 1, audioIndex });
    at += len;
  });

  const fileIds = new Map<string, string>();
  const video = placed.map((p) => {
    const it = p.it;
    const known = fileIds.has(it.path);
    if (!known) fileIds.set(it.path, `file-${fileIds.size + 1}`);
    return [
      `<clipitem id="${videoId(p)}">`,
      timingXml(p),
      fileXml(it, fileIds.get(it.path)!, known, reels.get(it.path) ?? 'AX'),
      ...it.markers.map((m) => `<marker>${el('name', oneLine(m.name))}${el('comment', textBlock(m.note))}${el('in', m.frame)}${el('out', m.durationFrames > 0 ? m.frame + m.durationFrames : -1)}</marker>`),
      ...it.people.map((p) => `<marker>${el('name', oneLine(p.name))}${el('comment', PERSON_COMMENT)}${el('in', p.inFrame)}${el('out', p.outFrame)}</marker>`),
      p.audioIndex.length > 0 ? linksXml(p) : '',
      `<logginginfo>${el('description', textBlock(it.note))}${el('lognote', it.keywords.map(oneLine).join(', '))}${el('good', it.rating === 'favorite' ? 'TRUE' : 'FALSE')}</logginginfo>`,
      it.rating === 'reject' ? `<labels>${el('label2', 'Rejected')}</labels>` : '',
      '</clipitem>',
    ].join('');
  });
  const audioTracks = Array.from({ length: tracks }, (_, t) =>
    [
      '<track>',
      ...placed
        .filter((p) => p.audioIndex.length > t)
        .map((p) =>
          [
            `<clipitem id="${audioId(p, t)}">`,
            timingXml(p),
            `<file id="${fileIds.get(p.it.path)!}"/>`,
            `<sourcetrack>${el('mediatype', 'audio')}${el('trackindex', t + 1)}</sourcetrack>`,
            linksXml(p),
            '</clipitem>',
          ].join(''),
        ),
      '</track>',
    ].join('\n'),
  );
  const first = doc.items[0];
  const rateOfAudio = doc.items.find((it) => it.audioRate)?.audioRate ?? 48000;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE xmeml>',
    '<xmeml version="4">',
    `<sequence id="sequence-1">${el('name', oneLine(doc.title))}${el('duration', at)}${rateXml(seq)}`,
    timecodeXml(sequenceStartFrame(seq, doc.sequenceDropFrame), seq, doc.sequenceDropFrame),
    '<media><video>',
    `<format><samplecharacteristics>${rateXml(seq)}${first?.width ? el('width', first.width) : ''}${first?.height ? el('height', first.height) : ''}</samplecharacteristics></format>`,
    '<track>',
    ...video,
    '</track>',
    '</video>',
    tracks > 0 ? `<audio>${el('numOutputChannels', Math.min(2, tracks))}<format><samplecharacteristics>${el('depth', 16)}${el('samplerate', rateOfAudio)}</samplecharacteristics></format>` : '',
    ...audioTracks,
    tracks > 0 ? '</audio>' : '',
    '</media>',
    '</sequence>',
    '</xmeml>',
    '',
  ]
    .filter((l) => l !== '')
    .join('\n')
    .concat('\n');
}
