import type { ExportFormatId } from '../../../src-shared/contract/export';
import type { FrameRate } from '../../../src-shared/timecode';

/**
 * What every writer reads: items in frames of their own rate, frame offsets from the file's first
 * frame, so each format turns them into its own clock (rational seconds, timecode, frame counts)
 * without rounding twice. Text fields hold what the catalog holds; each writer makes them safe
 * for its format (exchange-text.ts).
 */
export type Rating = 'favorite' | 'reject' | null;

export interface ExportMarker {
  /** Frame offset from the first frame of the FILE (not of the item). */
  frame: number;
  /** 0 for a point marker. */
  durationFrames: number;
  name: string;
  note: string;
  /** shot boundary / transition / tag / user marker: writers may colour by kind. */
  kind: 'shot' | 'transition' | 'tag' | 'user';
  /** The saved range a user marker stands for: its own item leaves it out. Never written. */
  rangeId?: number;
}

/** A named person on screen in an item: frame offsets from the file's first frame, inside the item's [inFrame, outFrame). */
export interface ExportPersonSpan {
  name: string;
  inFrame: number;
  /** Out exclusive, as the item's. */
  outFrame: number;
}

export interface ExportItem {
  clipId: number;
  /** Name of the item in the NLE: a range's name, or the clip's file name without extension. */
  name: string;
  fileName: string;
  /** Absolute native path ("/Volumes/CARD/A001.mov" or "C:\\Footage\\A001.mov"). */
  path: string;
  /** The reel or tape name the file carries (tmcd or MXF metadata); null: none, a reel is made up per export. */
  reel: string | null;
  /** Conformed rate (VFR already conformed to the nearest standard). */
  rate: FrameRate;
  /** The source is variable-rate: writers say so in a note. */
  vfr: boolean;
  dropFrame: boolean;
  /** The file's start timecode as a frame count at `rate` (0 without one). */
  startFrame: number;
  /** Whole file length in frames, to its last video frame. */
  durationFrames: number;
  width: number | null;
  height: number | null;
  /** Channels of each audio stream of the file, in order ([] : no audio; [2]: one stereo stream). */
  audioLayout: number[];
  /** Sample rate (Hz); null when the file has no audio or did not say. */
  audioRate: number | null;
  /** The used part, as frame offsets from the file's first frame: [inFrame, outFrame), Out exclusive. */
  inFrame: number;
  outFrame: number;
  note: string;
  rating: Rating;
  keywords: string[];
  markers: ExportMarker[];
  /** Where each named person is seen in the used part, by In then name: a span per stretch on screen. */
  people: ExportPersonSpan[];
}

export interface ExportDocument {
  /** Project/sequence/bin name: what the export holds ("A001 – Best line", "Search red car"). */
  title: string;
  items: ExportItem[];
  /** Rate of the sequence (xmeml, EDL, OTIO timeline, FCPXML project): the first item's rate. */
  sequenceRate: FrameRate;
  sequenceDropFrame: boolean;
}

/** The formats are the contract's: one list. */
export type ExportFormat = ExportFormatId;

/** All channels of an item's audio streams. */
export function audioChannelCount(it: Pick<ExportItem, 'audioLayout'>): number {
  return it.audioLayout.reduce((a, b) => a + b, 0);
}

/** The sequence's audio tracks: one per channel of the item with the most. */
export function audioTrackCount(items: readonly Pick<ExportItem, 'audioLayout'>[]): number {
  return Math.max(0, ...items.map(audioChannelCount));
}

/** The names of an item's people, each once, in the order they first appear. */
export function peopleNames(it: Pick<ExportItem, 'people'>): string[] {
  return [...new Set(it.people.map((p) => p.name))];
}
