import type { FacetField, ResultSource, SearchResult } from '../../../../src-shared/contract/search';
import { frameToSeconds, secondsToFrame, type FrameRate } from '../../../../src-shared/timecode';

/** A result the collection search found without naming a moment: every frame of its clip. */
export function isWholeClip(r: Pick<SearchResult, 'segmentId' | 'inFrame' | 'outFrame' | 'clipDurationS' | 'clipRate'>): boolean {
  if (r.segmentId !== null || r.inFrame !== 0) return false;
  return r.clipDurationS === null || r.clipRate === null || r.outFrame >= secondsToFrame(r.clipDurationS, r.clipRate) - 1;
}

/**
 * A moment's frames as the viewer is opened at them: each frame's exact start, so its In and Out
 * are these frames again (viewer/marks.ts rangeOfFrames). A clip without a rate counts at 25 (as main does).
 */
export function viewerRangeOf(m: { inFrame: number; outFrame: number }, rate: FrameRate | null): { startS: number; endS: number } {
  const r = rate ?? { num: 25, den: 1 };
  return { startS: frameToSeconds(m.inFrame, r), endS: frameToSeconds(m.outFrame, r) };
}

export const FIELD_LABEL: Record<FacetField, string> = {
  shotSize: 'Shot size',
  cameraMovement: 'Movement',
  shootingAngle: 'Angle',
  people: 'People',
};

export const SOURCE_LABEL: Record<ResultSource, string> = {
  local: 'local',
  cache: 'cache',
  collection: 'collection',
};

export const SOURCE_TITLE: Record<ResultSource, string> = {
  local: 'Found in the local index with a query the service just encoded',
  cache: 'Found in the local index with the query embedding saved earlier (works offline)',
  collection: 'Found by the service’s collection search',
};

/** A relevance score in words, for the badge and its reader: 50 is the floor of a good match. */
export function scoreBand(score: number | null): 'strong' | 'good' | 'weak' | 'none' {
  if (score === null) return 'none';
  return score >= 80 ? 'strong' : score >= 50 ? 'good' : 'weak';
}

export function cosineText(similarity: number): string {
  return similarity.toFixed(3);
}

export function dateInputValue(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A yyyy-mm-dd input as local midnight (start of day) or the last millisecond of the day. */
export function dateFromInput(value: string, endOfDay: boolean): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return endOfDay ? d.getTime() + 86_400_000 - 1 : d.getTime();
}

