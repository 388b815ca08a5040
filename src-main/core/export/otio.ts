import { fps, type FrameRate } from '../../../src-shared/timecode';
import { audioChannelCount, audioTrackCount, peopleNames, type ExportDocument, type ExportItem, type ExportMarker } from './export-model';
import { oneLine, textBlock } from './exchange-text';
import { fileUrl } from './file-url';
import { sequenceStartFrame } from './sequence';

const rt = (value: number, rate: FrameRate) => ({ OTIO_SCHEMA: 'RationalTime.1', rate: fps(rate), value });
const range = (start: number, duration: number, rate: FrameRate) => ({ OTIO_SCHEMA: 'TimeRange.1', start_time: rt(start, rate), duration: rt(duration, rate) });

/** A clip's marker: the item's own, or a stretch a named person is seen (kind `person`). */
type OtioMarker = Omit<ExportMarker, 'kind' | 'rangeId'> & { kind: ExportMarker['kind'] | 'person' };

const MARKER_COLOR: Record<OtioMarker['kind'], string> = { shot: 'BLUE', transition: 'CYAN', tag: 'GREEN', user: 'YELLOW', person: 'MAGENTA' };

const personMarkers = (it: ExportItem): OtioMarker[] => it.people.map((p) => ({ frame: p.inFrame, durationFrames: p.outFrame - p.inFrame, name: p.name, note: '', kind: 'person' }));

const track = (name: string, kind: 'Video' | 'Audio', children: unknown[]) => ({
  OTIO_SCHEMA: 'Track.1',
  name,
  kind,
  source_range: null,
  effects: [],
  markers: [],
  enabled: true,
  metadata: {},
  children,
});

/**
 * OpenTimelineIO JSON (Resolve imports .otio): a timeline with a video track of clips and one
 * audio track per source channel (as the FCP7 XML lays them out; a clip without that channel
 * leaves a gap of its length), each clip's source range in its file's own time (start timecode
 * included, at its own rate, Out exclusive), its file as an ExternalReference with the available
 * range to the last video frame, markers in the same media time (a named person's stretches on
 * screen as MAGENTA markers named after them), and the editor's marks (rating, keywords, note)
 * and the people's names under metadata.reelscout.
 */
export function writeOtio(doc: ExportDocument): string {
  const reference = (it: ExportItem) => ({
    DEFAULT_MEDIA: {
      OTIO_SCHEMA: 'ExternalReference.1',
      name: oneLine(it.fileName),
      target_url: fileUrl(it.path),
      available_range: range(it.startFrame, it.durationFrames, it.rate),
      available_image_bounds: null,
      metadata: {},
    },
  });
  const clip = (it: ExportItem, markers: OtioMarker[], metadata: Record<string, unknown>) => ({
    OTIO_SCHEMA: 'Clip.2',
    name: oneLine(it.name),
    source_range: range(it.startFrame + it.inFrame, it.outFrame - it.inFrame, it.rate),
    effects: [],
    markers: markers.map((m) => ({
      OTIO_SCHEMA: 'Marker.2',
      name: oneLine(m.name),
      color: MARKER_COLOR[m.kind],
      marked_range: range(it.startFrame + m.frame, m.durationFrames, it.rate),
      comment: oneLine(m.note),
      metadata: { reelscout: { kind: m.kind } },
    })),
    enabled: true,
    media_references: reference(it),
    active_media_reference_key: 'DEFAULT_MEDIA',
    metadata: { reelscout: metadata },
  });
  const gap = (it: ExportItem) => ({ OTIO_SCHEMA: 'Gap.1', name: '', source_range: range(0, it.outFrame - it.inFrame, it.rate), effects: [], markers: [], enabled: true, metadata: {} });
  const video = doc.items.map((it) =>
    clip(it, [...it.markers, ...personMarkers(it)], {
      clipId: it.clipId,
      rating: it.rating,
      keywords: it.keywords.map(oneLine),
      people: peopleNames(it).map(oneLine),
      note: textBlock(it.note),
      dropFrame: it.dropFrame,
      vfr: it.vfr,
    }),
  );
  const channels = audioTrackCount(doc.items);
  const audio = Array.from({ length: channels }, (_, t) =>
    track(
      `A${t + 1}`,
      'Audio',
      doc.items.map((it) => (audioChannelCount(it) > t ? clip(it, [], { clipId: it.clipId, channel: t + 1 }) : gap(it))),
    ),
  );
  const timeline = {
    OTIO_SCHEMA: 'Timeline.1',
    name: oneLine(doc.title),
    global_start_time: rt(sequenceStartFrame(doc.sequenceRate, doc.sequenceDropFrame), doc.sequenceRate),
    metadata: {},
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      name: 'tracks',
      source_range: null,
      effects: [],
      markers: [],
      enabled: true,
      metadata: {},
      children: [track('V1', 'Video', video), ...audio],
    },
  };
  return `${JSON.stringify(timeline, null, 2)}\n`;
}
