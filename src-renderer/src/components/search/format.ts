import type { ResultSource, SegmentTag, TagField } from '../../../../src-shared/contract/search';

/** 75.5 -> "1:15.5": editors read time ranges in minutes and seconds. */
export function clock(s: number): string {
  const safe = Math.max(0, s);
  const m = Math.floor(safe / 60);
  const sec = safe - m * 60;
  return `${m}:${sec < 10 ? '0' : ''}${sec.toFixed(1)}`;
}

export function timeRange(startS: number, endS: number): string {
  return `${clock(startS)}–${clock(endS)}`;
}

export const FIELD_LABEL: Record<TagField, string> = {
  shotSize: 'Shot size',
  cameraMovement: 'Movement',
  shootingAngle: 'Angle',
};

export const SOURCE_LABEL: Record<ResultSource, string> = {
  local: 'local',
  cache: 'cache',
  collection: 'collection',
};

export const SOURCE_TITLE: Record<ResultSource, string> = {
  local: 'Found in the local index with a query the service just encoded',
  cache: 'Found in the local index with the query embedding saved earlier (works offline)',
  collection: 'Found by the service’s collection search (a whole video: no time range given)',
};

/** The tag to show per field: the service's first, else the most confident local one. */
export function primaryTags(tags: readonly SegmentTag[]): SegmentTag[] {
  const out: SegmentTag[] = [];
  for (const field of ['shotSize', 'cameraMovement', 'shootingAngle'] as const) {
    const of = tags.filter((t) => t.field === field);
    const pick = of.find((t) => t.source === 'service') ?? of[0];
    if (pick) out.push(pick);
  }
  return out;
}

export function percent(similarity: number): string {
  return `${Math.round(similarity * 1000) / 10}%`;
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

/** "eye_level" -> "eye level": services often answer in snake case. */
export function tagText(value: string): string {
  return value.replace(/_/g, ' ');
}
