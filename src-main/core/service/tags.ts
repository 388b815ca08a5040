/**
 * The spec does not show the inner structure of tags. This reads the three tags the app filters on
 * (shot size, camera movement, shooting angle) from every plausible shape and keeps the rest raw:
 *   - a plain string:                 { shot_size: "close-up" }
 *   - a label with a confidence:      { shot_size: { label: "close-up", confidence: 0.9 } }
 *   - a probability map:              { shot_size: { close_up: 0.9, wide: 0.1 } }
 *   - candidates:                     { shot_size: [{ label, confidence }, ...] } or ["close-up", ...]
 *   - per-segment arrays:             { shot_size: [{ start, end, label, confidence }, ...] }
 *   - other key spellings or nesting: shotSize, "Shot Size", { camera: { movement } }, { cinematography: {...} }
 *   - a list of segments:             [{ start, end, shot_size, camera_movement, ... }] or { segments: [...] }
 *   - a list of labelled tags:        [{ category: "shot size", label: "wide" }]
 */

import type { TagField } from '../../../src-shared/contract/search';
import { canonicalTag } from '../tags/tag-vocabulary';

export type { TagField };
export const TAG_FIELDS: readonly TagField[] = ['shotSize', 'cameraMovement', 'shootingAngle'];

export interface TagValue {
  /** As the service wrote it. */
  value: string;
  /** The vocabulary's id (tags/tag-vocabulary.ts): "CU", "Close-Up Shot" -> "close_up". */
  canonical: string;
  confidence?: number;
}

export interface TagSegment {
  start?: number;
  end?: number;
  shotSize?: TagValue;
  cameraMovement?: TagValue;
  shootingAngle?: TagValue;
}

export interface NormalizedTags {
  shotSize?: TagValue;
  cameraMovement?: TagValue;
  shootingAngle?: TagValue;
  segments?: TagSegment[];
  /** Top-level entries that are not one of the three recognised tags. */
  other: Record<string, unknown>;
  raw: unknown;
}

const FIELD_KEYS: Record<TagField, string[]> = {
  shotSize: ['shotsize', 'shottype', 'shotscale', 'framing', 'shotsizes'],
  cameraMovement: ['cameramovement', 'cameramotion', 'cameramove', 'cameramovements', 'movement'],
  shootingAngle: ['shootingangle', 'cameraangle', 'shotangle', 'angle', 'shootingangles'],
};

const LABEL_KEYS = ['label', 'value', 'name', 'tag', 'class', 'prediction', 'category_label', 'text', 'type'];
const CONFIDENCE_KEYS = ['confidence', 'score', 'probability', 'prob', 'conf', 'p'];
const START_KEYS = ['start', 'start_time', 'starttime', 'start_sec', 'begin', 'from', 'start_s', 'startseconds'];
const END_KEYS = ['end', 'end_time', 'endtime', 'end_sec', 'stop', 'to', 'end_s', 'endseconds'];
const CATEGORY_KEYS = ['category', 'attribute', 'key', 'kind', 'dimension', 'type', 'name'];

const MAX_DEPTH = 4;

export function normalizeKey(k: string): string {
  return k.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function fieldForKey(key: string): TagField | undefined {
  const n = normalizeKey(key);
  for (const f of TAG_FIELDS) if (FIELD_KEYS[f].includes(n)) return f;
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The first of keys (in priority order) present in o, matched case- and punctuation-insensitively. */
function pickByKeys(o: Record<string, unknown>, keys: string[]): unknown {
  const byNorm = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) if (!byNorm.has(normalizeKey(k))) byNorm.set(normalizeKey(k), v);
  for (const k of keys) {
    const v = byNorm.get(normalizeKey(k));
    if (v !== undefined) return v;
  }
  return undefined;
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Confidences written as percentages (1 < c <= 100) are read as fractions. */
function asConfidence(v: unknown): number | undefined {
  const n = asNumber(v);
  if (n === undefined || n < 0) return undefined;
  return n > 1 && n <= 100 ? n / 100 : n;
}

function tagValue(field: TagField, value: string, confidence?: number): TagValue | undefined {
  const canonical = canonicalTag(field, value);
  if (!canonical) return undefined;
  return confidence === undefined ? { value, canonical } : { value, canonical, confidence };
}

function hasTimes(o: Record<string, unknown>): boolean {
  return asNumber(pickByKeys(o, START_KEYS)) !== undefined || asNumber(pickByKeys(o, END_KEYS)) !== undefined;
}

interface TimedValue {
  start?: number;
  end?: number;
  tag: TagValue;
}

/** A label-bearing object: { label, confidence }. */
function labelOf(o: Record<string, unknown>, field: TagField): TagValue | undefined {
  const label = pickByKeys(o, LABEL_KEYS);
  if (typeof label === 'string') return tagValue(field, label, asConfidence(pickByKeys(o, CONFIDENCE_KEYS)));
  if (isRecord(label)) return labelOf(label, field);
  return undefined;
}

/** { close_up: 0.9, wide: 0.1 }: every value a number, the largest wins. */
function fromProbabilityMap(o: Record<string, unknown>, field: TagField): TagValue | undefined {
  const entries = Object.entries(o);
  if (entries.length === 0 || !entries.every(([, v]) => asNumber(v) !== undefined)) return undefined;
  let best: [string, number] | undefined;
  for (const [k, v] of entries) {
    const n = asNumber(v)!;
    if (!best || n > best[1]) best = [k, n];
  }
  return best ? tagValue(field, best[0], asConfidence(best[1])) : undefined;
}

function bestCandidate(items: TagValue[]): TagValue | undefined {
  let best: TagValue | undefined;
  for (const t of items) if (!best || (t.confidence ?? -1) > (best.confidence ?? -1)) best = t;
  return best;
}

/** Duration-weighted majority over segments; confidence is the mean of the winner's segments. */
function dominantValue(field: TagField, timed: TimedValue[]): TagValue | undefined {
  const byCanonical = new Map<string, { weight: number; first: TagValue; confs: number[] }>();
  for (const t of timed) {
    const dur = t.start !== undefined && t.end !== undefined && t.end > t.start ? t.end - t.start : 1;
    const e = byCanonical.get(t.tag.canonical) ?? { weight: 0, first: t.tag, confs: [] };
    e.weight += dur;
    if (t.tag.confidence !== undefined) e.confs.push(t.tag.confidence);
    byCanonical.set(t.tag.canonical, e);
  }
  let best: { weight: number; first: TagValue; confs: number[] } | undefined;
  for (const e of byCanonical.values()) if (!best || e.weight > best.weight) best = e;
  if (!best) return undefined;
  const conf = best.confs.length ? best.confs.reduce((a, b) => a + b, 0) / best.confs.length : undefined;
  return tagValue(field, best.first.value, conf);
}

interface ReadValue {
  value?: TagValue;
  timed?: TimedValue[];
}

function readFieldValue(field: TagField, v: unknown, depth: number): ReadValue {
  if (typeof v === 'string') return { value: tagValue(field, v) };
  if (typeof v === 'number' || typeof v === 'boolean') return { value: tagValue(field, String(v)) };
  if (Array.isArray(v)) {
    const timed: TimedValue[] = [];
    const candidates: TagValue[] = [];
    for (const item of v) {
      if (typeof item === 'string') {
        const t = tagValue(field, item);
        if (t) candidates.push(t);
      } else if (isRecord(item)) {
        const tag = labelOf(item, field) ?? (depth < MAX_DEPTH ? readFieldValue(field, pickByKeys(item, ['segments']), depth + 1).value : undefined);
        if (!tag) continue;
        if (hasTimes(item)) timed.push({ start: asNumber(pickByKeys(item, START_KEYS)), end: asNumber(pickByKeys(item, END_KEYS)), tag });
        else candidates.push(tag);
      }
    }
    if (timed.length) return { value: dominantValue(field, timed), timed };
    // Candidates without confidences keep the service's order: the first is its pick.
    const anyConf = candidates.some((c) => c.confidence !== undefined);
    return { value: anyConf ? bestCandidate(candidates) : candidates[0] };
  }
  if (isRecord(v)) {
    const label = labelOf(v, field);
    const segs = pickByKeys(v, ['segments', 'per_segment', 'timeline']);
    if (Array.isArray(segs) && depth < MAX_DEPTH) {
      const inner = readFieldValue(field, segs, depth + 1);
      return { value: label ?? inner.value, timed: inner.timed };
    }
    if (label) return { value: label };
    return { value: fromProbabilityMap(v, field) };
  }
  return {};
}

type Found = Partial<Record<TagField, ReadValue>>;

/** Breadth-first, so a shallow key wins over a deeper one of the same field. */
function findFields(root: Record<string, unknown>): { found: Found; usedTopKeys: Set<string> } {
  const found: Found = {};
  const usedTopKeys = new Set<string>();
  let level: Array<{ obj: Record<string, unknown>; parentKey: string; topKey?: string }> = [{ obj: root, parentKey: '' }];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const next: typeof level = [];
    for (const { obj, parentKey, topKey } of level) {
      for (const [k, v] of Object.entries(obj)) {
        const field = fieldForKey(k) ?? (parentKey ? fieldForKey(parentKey + k) : undefined);
        const owner = topKey ?? k;
        if (field) {
          if (!found[field]) {
            const read = readFieldValue(field, v, depth);
            if (read.value || read.timed) {
              found[field] = read;
              usedTopKeys.add(owner);
            }
          }
          continue;
        }
        if (isRecord(v)) next.push({ obj: v, parentKey: k, topKey: owner });
      }
    }
    level = next;
  }
  return { found, usedTopKeys };
}

/** [{ category: "shot size", label: "wide" }]: items name their field in a category-like member. */
function fromLabelledList(items: unknown[]): Found {
  const found: Found = {};
  for (const item of items) {
    if (!isRecord(item)) continue;
    for (const [k, v] of Object.entries(item)) {
      if (!CATEGORY_KEYS.includes(k.toLowerCase()) || typeof v !== 'string') continue;
      const field = fieldForKey(v);
      if (!field || found[field]) continue;
      const rest = { ...item };
      delete rest[k];
      const read = readFieldValue(field, rest, 1);
      if (read.value) found[field] = read;
    }
  }
  return found;
}

function segmentsFromList(items: unknown[]): TagSegment[] {
  const out: TagSegment[] = [];
  for (const item of items) {
    if (!isRecord(item) || !hasTimes(item)) continue;
    const seg: TagSegment = {};
    const start = asNumber(pickByKeys(item, START_KEYS));
    const end = asNumber(pickByKeys(item, END_KEYS));
    if (start !== undefined) seg.start = start;
    if (end !== undefined) seg.end = end;
    const { found } = findFields(item);
    let any = false;
    for (const f of TAG_FIELDS) {
      const v = found[f]?.value;
      if (v) {
        seg[f] = v;
        any = true;
      }
    }
    if (any) out.push(seg);
  }
  return out;
}

function mergeTimedIntoSegments(found: Found): TagSegment[] {
  const byRange = new Map<string, TagSegment>();
  for (const f of TAG_FIELDS) {
    for (const t of found[f]?.timed ?? []) {
      const key = `${t.start ?? ''}|${t.end ?? ''}`;
      const seg = byRange.get(key) ?? {};
      if (t.start !== undefined) seg.start = t.start;
      if (t.end !== undefined) seg.end = t.end;
      seg[f] = t.tag;
      byRange.set(key, seg);
    }
  }
  return [...byRange.values()].sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}

function unwrap(raw: unknown): unknown {
  let cur = raw;
  for (let i = 0; i < 3 && isRecord(cur); i++) {
    const keys = Object.keys(cur);
    if (keys.length === 1 && ['tags', 'result', 'data', 'results'].includes(keys[0]!.toLowerCase())) cur = cur[keys[0]!];
    else break;
  }
  return cur;
}

export function normalizeTags(raw: unknown): NormalizedTags {
  const body = unwrap(raw);
  const out: NormalizedTags = { other: {}, raw };
  if (typeof body === 'string') {
    // A bare JSON string is sometimes how a service nests structured output.
    try {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed === 'object' && parsed !== null) return { ...normalizeTags(parsed), raw };
    } catch {
      /* a plain string stays raw */
    }
    return out;
  }
  let segmentsList: unknown[] | undefined;
  let found: Found = {};
  if (Array.isArray(body)) {
    segmentsList = body;
    found = fromLabelledList(body);
  } else if (isRecord(body)) {
    const r = findFields(body);
    found = r.found;
    for (const [k, v] of Object.entries(body)) if (!r.usedTopKeys.has(k)) out.other[k] = v;
    const segs = pickByKeys(body, ['segments', 'shots', 'clips', 'timeline']);
    if (Array.isArray(segs)) segmentsList = segs;
  }
  let segments = mergeTimedIntoSegments(found);
  if (segmentsList) {
    const listed = segmentsFromList(segmentsList);
    if (listed.length) segments = segments.length ? segments : listed;
    for (const f of TAG_FIELDS) {
      if (found[f]?.value) continue;
      const timed = listed.filter((s) => s[f]).map((s) => ({ start: s.start, end: s.end, tag: s[f]! }));
      const v = dominantValue(f, timed);
      if (v) found[f] = { value: v };
    }
  }
  for (const f of TAG_FIELDS) {
    const v = found[f]?.value;
    if (v) out[f] = v;
  }
  if (segments.length) out.segments = segments;
  return out;
}
