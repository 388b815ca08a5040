import type { ExportFormatId } from '../../../src-shared/contract/export';
import type { FrameRate } from '../../../src-shared/timecode';

/**
 * What every writer reads: items in frames of their own rate, frame offsets from the file's first
 * frame, so each format turns them into its own clock (rational seconds, timecode, frame counts)
 * without rounding twice.
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
}

export interface ExportItem {
  clipId: number;
  /** Name of the item in the NLE: a range's name, or the clip's file name without extension. */
  name: string;
  fileName: string;
  /** Absolute native path ("/Volumes/CARD/A001.mov" or "C:\\Footage\\A001.mov"). */
  path: string;
  /** Conformed rate (VFR already conformed to the nearest standard). */
  rate: FrameRate;
  /** The source is variable-rate: writers say so in a note. */
  vfr: boolean;
  dropFrame: boolean;
  /** The file's start timecode as a frame count at `rate` (0 without one). */
  startFrame: number;
  /** Whole file length in frames. */
  durationFrames: number;
  width: number | null;
  height: number | null;
  /** null or 0: no audio. */
  audioChannels: number | null;
  audioRate: number | null;
  /** The used part, as frame offsets from the file's first frame: [inFrame, outFrame). */
  inFrame: number;
  outFrame: number;
  note: string;
  rating: Rating;
  keywords: string[];
  markers: ExportMarker[];
}

export interface ExportDocument {
  /** Project/sequence/bin name, e.g. "Reelscout selects 2026-11-24". */
  title: string;
  items: ExportItem[];
  /** Rate of the sequence (xmeml, EDL, OTIO timeline): the first item's rate. */
  sequenceRate: FrameRate;
  sequenceDropFrame: boolean;
}

/** The formats are the contract's: one list. */
export type ExportFormat = ExportFormatId;
