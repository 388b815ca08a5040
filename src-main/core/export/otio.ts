import { fps, type FrameRate } from '../../../src-shared/timecode';
import type { ExportDocument, ExportMarker } from './export-model';
import { oneLine, textBlock } from './exchange-text';
import { fileUrl } from './file-url';
import { sequenceStartFrame } from './sequence-start';

const rt = (value: number, rate: FrameRate) => ({ OTIO_SCHEMA: 'RationalTime.1', rate: fps(rate), value });
const range = (start: number, duration: number, rate: FrameRate) => ({ OTIO_SCHEMA: 'TimeRange.1', start_time: rt(start, rate), duration: rt(duration, rate) });

const MARKER_COLOR: Record<ExportMarker['kind'], string> = { shot: 'BLUE', transition: 'CYAN', tag: 'GREEN', user: 'YELLOW' };

/**
 * OpenTimelineIO JSON (Resolve imports .otio): a timeline with one video track of clips, each
 * clip's source range in its file's own time (start timecode included, at its own rate), its
 * file as an ExternalReference with the available range, markers in the same media time, and the
 * editor's marks (rating, keywords, note) under metadata.reelscout.
 */
export function writeOtio(doc: ExportDocument): string {
  const clips = doc.items.map((it) => ({
    OTIO_SCHEMA: 'Clip.2',
    name: oneLine(it.name),
    source_range: range(it.startFrame + it.inFrame, it.outFrame - it.inFrame, it.rate),
    effects: [],
    markers: it.markers.map((m) => ({
      OTIO_SCHEMA: 'Marker.2',
      name: oneLine(m.name),
      color: MARKER_COLOR[m.kind],
      marked_range: range(it.startFrame + m.frame, m.durationFrames, it.rate),
      comment: oneLine(m.note),
      metadata: { reelscout: { kind: m.kind } },
    })),
    enabled: true,
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: 'ExternalReference.1',
        name: oneLine(it.fileName),
        target_url: fileUrl(it.path),
        available_range: range(it.startFrame, it.durationFrames, it.rate),
        available_image_bounds: null,
        metadata: {},
      },
    },
    active_media_reference_key: 'DEFAULT_MEDIA',
    metadata: { reelscout: { clipId: it.clipId, rating: it.rating, keywords: it.keywords.map(oneLine), note: textBlock(it.note), dropFrame: it.dropFrame, vfr: it.vfr } },
  }));
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
      children: [{ OTIO_SCHEMA: 'Track.1', name: 'V1', kind: 'Video', source_range: null, effects: [], markers: [], enabled: true, metadata: {}, children: clips }],
    },
  };
  return `${JSON.stringify(timeline, null, 2)}\n`;
}
