import type { ExportSelection } from '../../../src-shared/contract/export';
import { clipFrameCount, clipTimebase, convertFrame, framesToTimecode, rateLabel, countingOf, secondsToFrame, shotFrames, type FrameRate } from '../../../src-shared/timecode';
import type { CatalogDb } from '../catalog/open-catalog';
import { clipForExport, type ClipForExport } from '../library/clip-store';
import { shotPlace, shotsById, shotsOfClip } from '../library/shot-store';
import { teamShareWhy } from '../library/team-share-entries';
import { clipMarks } from '../marks/marks-repository';
import { rangesById } from '../marks/range-store';
import { clipTagSpans } from '../search/results/segment-tags';
import type { PersonPresence } from '../people/person-presence';
import type { TagResolutionStore } from '../search/query/tag-resolution-store';
import type { ExportDocument, ExportItem, ExportMarker, ExportPersonSpan } from './export-model';
import { clipPeople, peopleInPart } from './export-people';

/** What an export reads besides the catalog's clips and marks: shots' resolved tags, and where named people are. */
export interface ExportReads {
  tags: TagResolutionStore;
  presence: PersonPresence;
}

interface ClipFacts {
  clip: ClipForExport;
  rate: FrameRate;
  /** Positions are presentation times on `rate`'s grid (timecode.ts `countingOf`). */
  conformed: boolean;
  dropFrame: boolean;
  startFrame: number;
  durationFrames: number;
  markers: ExportMarker[];
  rating: ExportItem['rating'];
  keywords: string[];
  /** Every named person's spans in the whole clip. */
  people: ExportPersonSpan[];
}

/**
 * A clip's markers in frames: one per shot (its number and resolved tags: what the editor would
 * otherwise retype), a transition's span as a marker with a duration, and the saved ranges.
 */
function clipMarkers(db: CatalogDb, tags: TagResolutionStore, clipId: number, rate: FrameRate, conformed: boolean): ExportMarker[] {
  const shots = shotsOfClip(db, clipId);
  const spans = clipTagSpans(tags, clipId);
  const out: ExportMarker[] = [];
  for (const s of shots) {
    const tags = spans.find((sp) => sp.shotId === s.id)?.tags ?? [];
    const label = tags.filter((t) => t.field !== 'people').map((t) => t.value);
    out.push({
      frame: shotFrames(shotPlace(s), rate, conformed).inFrame,
      durationFrames: 0,
      name: `Shot ${s.idx + 1}${label.length ? ` · ${label.join(', ')}` : ''}`,
      note: tags.map((t) => `${t.field}: ${t.value} (${t.source})`).join('; '),
      kind: 'shot',
    });
    if (s.transition_kind && s.transition_kind !== 'cut' && s.transition_start_s !== null && s.transition_end_s !== null) {
      const a = secondsToFrame(s.transition_start_s, rate);
      const b = Math.max(a + 1, secondsToFrame(s.transition_end_s, rate));
      out.push({ frame: a, durationFrames: b - a, name: `${s.transition_kind} into shot ${s.idx + 1}`, note: `shot boundary at its middle`, kind: 'transition' });
    }
  }
  return out;
}

function factsOf(db: CatalogDb, reads: ExportReads, clipId: number): ClipFacts | string {
  const clip = clipForExport(db, clipId);
  if (clip.sourceUrl) return `${clip.fileName} lives at a URL: an editing application needs the file on a drive`;
  if (clip.teamShare) return teamShareWhy(clip.fileName, clip.teamShare.share, clip.teamShare.relPath);
  if (!clip.fps || !clip.durationS) return `${clip.fileName} has not been read yet (no frame rate or duration)`;
  const { rate, conformed } = countingOf(clip.fps, clip.vfr);
  const tb = clipTimebase(rate, clip.timecode);
  const marks = clipMarks(db, clipId);
  const markers = clipMarkers(db, reads.tags, clipId, rate, conformed);
  for (const r of marks.ranges) {
    const a = convertFrame(r.inFrame, r.rate, rate);
    markers.push({ frame: a, durationFrames: Math.max(1, convertFrame(r.outFrame, r.rate, rate) - a), name: r.name, note: r.note, kind: 'user', rangeId: r.id });
  }
  markers.sort((x, y) => x.frame - y.frame);
  return {
    clip,
    rate,
    conformed,
    dropFrame: tb.dropFrame,
    startFrame: tb.startFrame,
    durationFrames: clipFrameCount({ frameCount: clip.frameCount, durationS: clip.durationS, conformed }, rate) ?? 1,
    markers,
    rating: marks.rating,
    keywords: marks.keywords,
    people: clipPeople(reads.presence, clipId, rate, conformed),
  };
}

/** What an item's note says of a source counted at another rate than its own. */
function conformedNote(f: ClipFacts): string {
  if (!f.conformed) return '';
  if (f.clip.vfr) return `variable frame rate source, conformed to ${rateLabel(f.rate)} fps`;
  return `${Number((f.clip.fps ?? 0).toFixed(3))} fps source, counted at ${rateLabel(f.rate)} fps`;
}

function baseName(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, '');
}

function item(f: ClipFacts, part: { inFrame: number; outFrame: number; name: string; rangeId?: number; note?: string; rating?: ExportItem['rating']; keywords?: string[] }): ExportItem {
  const inFrame = Math.max(0, Math.min(part.inFrame, f.durationFrames - 1));
  const outFrame = Math.max(inFrame + 1, Math.min(part.outFrame, f.durationFrames));
  return {
    clipId: f.clip.id,
    name: part.name,
    fileName: f.clip.fileName,
    path: f.clip.path,
    rate: f.rate,
    vfr: f.clip.vfr,
    dropFrame: f.dropFrame,
    startFrame: f.startFrame,
    durationFrames: f.durationFrames,
    width: f.clip.width,
    height: f.clip.height,
    reel: f.clip.reel,
    audioLayout: f.clip.audioLayout,
    audioRate: f.clip.audioRate,
    inFrame,
    outFrame,
    note: [part.note, conformedNote(f)].filter(Boolean).join(' · '),
    rating: part.rating === undefined ? f.rating : part.rating,
    keywords: [...new Set([...(part.keywords ?? []), ...f.keywords])],
    // Markers of the used part only (an NLE drops or misplaces markers outside a clip's In/Out),
    // without the range that is this item itself (by id: its span may have been trimmed to the file).
    markers: f.markers.filter((m) => m.frame >= inFrame && m.frame < outFrame && (part.rangeId === undefined || m.rangeId !== part.rangeId)),
    // Unlike markers, a person seen from before the In is on the item too: from its In on.
    people: peopleInPart(f.people, inFrame, outFrame),
  };
}

/**
 * A title for an export the caller did not name, in plain words from what it holds: the item's
 * name when there is one ("Best line"), the clip's when all come from one ("A001, 3 items"), else
 * the counts ("5 items from 3 clips"): a file name listing clip names is cut short mid-name.
 */
export function titleFor(items: readonly Pick<ExportItem, 'name' | 'fileName'>[]): string {
  if (items.length === 1) return items[0]!.name;
  const files = [...new Set(items.map((it) => baseName(it.fileName)))];
  if (files.length === 1) return `${files[0]}, ${items.length} items`;
  return items.length === files.length ? `${items.length} clips` : `${items.length} items from ${files.length} clips`;
}

/**
 * The export document for a selection: whole clips, saved ranges, shots and moments (search
 * results), in that order; clips that cannot be placed on a timeline are listed in `skipped`.
 * `title` names it (what the selection is); without one it is named after its items.
 */
export function buildExportDocument(
  db: CatalogDb,
  reads: ExportReads,
  sel: ExportSelection,
  title?: string,
): { doc: ExportDocument; skipped: { clipId: number; reason: string }[] } {
  const facts = new Map<number, ClipFacts | string>();
  const factsFor = (clipId: number) => {
    if (!facts.has(clipId)) facts.set(clipId, factsOf(db, reads, clipId));
    return facts.get(clipId)!;
  };
  const items: ExportItem[] = [];
  const skipped: { clipId: number; reason: string }[] = [];
  const add = (clipId: number, make: (f: ClipFacts) => ExportItem) => {
    const f = factsFor(clipId);
    if (typeof f === 'string') skipped.push({ clipId, reason: f });
    else items.push(make(f));
  };
  for (const clipId of sel.clipIds) add(clipId, (f) => item(f, { inFrame: 0, outFrame: f.durationFrames, name: baseName(f.clip.fileName) }));
  for (const r of rangesById(db, sel.rangeIds)) {
    add(r.clipId, (f) =>
      item(f, { inFrame: convertFrame(r.inFrame, r.rate, f.rate), outFrame: convertFrame(r.outFrame, r.rate, f.rate), name: r.name, rangeId: r.id, note: r.note, rating: r.rating ?? f.rating, keywords: r.keywords }),
    );
  }
  if (sel.shotIds.length > 0) {
    const shots = shotsById(db, sel.shotIds);
    const byId = new Map(shots.map((s) => [s.id, s]));
    for (const id of sel.shotIds) {
      const s = byId.get(id);
      if (!s) continue;
      add(s.clip_id, (f) => item(f, { ...shotFrames(shotPlace(s), f.rate, f.conformed), name: `${baseName(f.clip.fileName)} shot ${s.idx + 1}` }));
    }
  }
  for (const s of sel.spans) {
    // Frames of the clip's counting, as the search result carried them.
    add(s.clipId, (f) => item(f, { inFrame: s.inFrame, outFrame: s.outFrame, name: s.name ?? `${baseName(f.clip.fileName)} ${framesToTimecode(f.startFrame + s.inFrame, f.rate, f.dropFrame)}` }));
  }
  const first = items[0];
  return {
    doc: {
      title: title ?? titleFor(items),
      items,
      sequenceRate: first?.rate ?? { num: 25, den: 1 },
      sequenceDropFrame: first?.dropFrame ?? false,
    },
    skipped,
  };
}
