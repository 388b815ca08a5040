import { frozenCanonicalTag, type FrozenTagField } from './frozen-tag-vocabulary';

/**
 * The service's confidence per tag field, read from a stored answer as migration 0015 read it:
 * service/tags.ts's normalizeTags at 598be33 (unchanged since c732043), frozen and cut down to
 * what picks each field's value and its confidence. The live parser may learn new shapes; this
 * copy keeps what 0015 wrote the same for every catalog it ever upgrades.
 */
export type FrozenConfidences = Partial<Record<FrozenTagField, number | undefined>>;

const FIELDS: readonly FrozenTagField[] = ['shotSize', 'cameraMovement', 'shootingAngle'];
const FIELD_KEYS: Record<FrozenTagField, string[]> = {
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

/** A field's pick: its id (the grouping key of per-segment answers) and the service's confidence. */
interface Pick {
  value: string;
  id: string;
  confidence?: number;
}
interface Timed {
  start?: number;
  end?: number;
  tag: Pick;
}
interface Read {
  value?: Pick;
  timed?: Timed[];
}
type Found = Partial<Record<FrozenTagField, Read>>;

const normKey = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fieldForKey(key: string): FrozenTagField | undefined {
  const n = normKey(key);
  return FIELDS.find((f) => FIELD_KEYS[f].includes(n));
}

function pickByKeys(o: Record<string, unknown>, keys: string[]): unknown {
  const byNorm = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) if (!byNorm.has(normKey(k))) byNorm.set(normKey(k), v);
  for (const k of keys) {
    const v = byNorm.get(normKey(k));
    if (v !== undefined) return v;
  }
  return undefined;
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function asConfidence(v: unknown): number | undefined {
  const n = asNumber(v);
  if (n === undefined || n < 0) return undefined;
  return n > 1 && n <= 100 ? n / 100 : n;
}

function pick(field: FrozenTagField, value: string, confidence?: number): Pick | undefined {
  const id = frozenCanonicalTag(field, value);
  if (!id) return undefined;
  return confidence === undefined ? { value, id } : { value, id, confidence };
}

const hasTimes = (o: Record<string, unknown>) => asNumber(pickByKeys(o, START_KEYS)) !== undefined || asNumber(pickByKeys(o, END_KEYS)) !== undefined;

function labelOf(o: Record<string, unknown>, field: FrozenTagField): Pick | undefined {
  const label = pickByKeys(o, LABEL_KEYS);
  if (typeof label === 'string') return pick(field, label, asConfidence(pickByKeys(o, CONFIDENCE_KEYS)));
  if (isRecord(label)) return labelOf(label, field);
  return undefined;
}

function fromProbabilityMap(o: Record<string, unknown>, field: FrozenTagField): Pick | undefined {
  const entries = Object.entries(o);
  if (entries.length === 0 || !entries.every(([, v]) => asNumber(v) !== undefined)) return undefined;
  let best: [string, number] | undefined;
  for (const [k, v] of entries) if (!best || asNumber(v)! > best[1]) best = [k, asNumber(v)!];
  return best ? pick(field, best[0], asConfidence(best[1])) : undefined;
}

function dominant(field: FrozenTagField, timed: Timed[]): Pick | undefined {
  const byId = new Map<string, { weight: number; first: Pick; confs: number[] }>();
  for (const t of timed) {
    const dur = t.start !== undefined && t.end !== undefined && t.end > t.start ? t.end - t.start : 1;
    const e = byId.get(t.tag.id) ?? { weight: 0, first: t.tag, confs: [] };
    e.weight += dur;
    if (t.tag.confidence !== undefined) e.confs.push(t.tag.confidence);
    byId.set(t.tag.id, e);
  }
  let best: { weight: number; first: Pick; confs: number[] } | undefined;
  for (const e of byId.values()) if (!best || e.weight > best.weight) best = e;
  if (!best) return undefined;
  return pick(field, best.first.value, best.confs.length ? best.confs.reduce((a, b) => a + b, 0) / best.confs.length : undefined);
}

function readField(field: FrozenTagField, v: unknown, depth: number): Read {
  if (typeof v === 'string') return { value: pick(field, v) };
  if (typeof v === 'number' || typeof v === 'boolean') return { value: pick(field, String(v)) };
  if (Array.isArray(v)) {
    const timed: Timed[] = [];
    const candidates: Pick[] = [];
    for (const item of v) {
      if (typeof item === 'string') {
        const t = pick(field, item);
        if (t) candidates.push(t);
      } else if (isRecord(item)) {
        const tag = labelOf(item, field) ?? (depth < MAX_DEPTH ? readField(field, pickByKeys(item, ['segments']), depth + 1).value : undefined);
        if (!tag) continue;
        if (hasTimes(item)) timed.push({ start: asNumber(pickByKeys(item, START_KEYS)), end: asNumber(pickByKeys(item, END_KEYS)), tag });
        else candidates.push(tag);
      }
    }
    if (timed.length) return { value: dominant(field, timed), timed };
    if (!candidates.some((c) => c.confidence !== undefined)) return { value: candidates[0] };
    let best: Pick | undefined;
    for (const t of candidates) if (!best || (t.confidence ?? -1) > (best.confidence ?? -1)) best = t;
    return { value: best };
  }
  if (isRecord(v)) {
    const label = labelOf(v, field);
    const segs = pickByKeys(v, ['segments', 'per_segment', 'timeline']);
    if (Array.isArray(segs) && depth < MAX_DEPTH) {
      const inner = readField(field, segs, depth + 1);
      return { value: label ?? inner.value, timed: inner.timed };
    }
    return { value: label ?? fromProbabilityMap(v, field) };
  }
  return {};
}

function findFields(root: Record<string, unknown>): Found {
  const found: Found = {};
  let level: Array<{ obj: Record<string, unknown>; parentKey: string }> = [{ obj: root, parentKey: '' }];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const next: typeof level = [];
    for (const { obj, parentKey } of level) {
      for (const [k, v] of Object.entries(obj)) {
        const field = fieldForKey(k) ?? (parentKey ? fieldForKey(parentKey + k) : undefined);
        if (field) {
          if (!found[field]) {
            const read = readField(field, v, depth);
            if (read.value || read.timed) found[field] = read;
          }
          continue;
        }
        if (isRecord(v)) next.push({ obj: v, parentKey: k });
      }
    }
    level = next;
  }
  return found;
}

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
      const read = readField(field, rest, 1);
      if (read.value) found[field] = read;
    }
  }
  return found;
}

/** Per field, the segments of a list of timed segments that name it. */
function timedFromList(items: unknown[]): Partial<Record<FrozenTagField, Timed[]>> {
  const out: Partial<Record<FrozenTagField, Timed[]>> = {};
  for (const item of items) {
    if (!isRecord(item) || !hasTimes(item)) continue;
    const start = asNumber(pickByKeys(item, START_KEYS));
    const end = asNumber(pickByKeys(item, END_KEYS));
    const found = findFields(item);
    for (const f of FIELDS) {
      const tag = found[f]?.value;
      if (tag) (out[f] ??= []).push({ start, end, tag });
    }
  }
  return out;
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

/** Each field's confidence in a stored service answer (undefined: the field or its confidence is absent). */
export function frozenTagConfidences(raw: unknown): FrozenConfidences {
  const body = unwrap(raw);
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed === 'object' && parsed !== null) return frozenTagConfidences(parsed);
    } catch {
      /* a plain string names no field */
    }
    return {};
  }
  let list: unknown[] | undefined;
  let found: Found = {};
  if (Array.isArray(body)) {
    list = body;
    found = fromLabelledList(body);
  } else if (isRecord(body)) {
    found = findFields(body);
    const segs = pickByKeys(body, ['segments', 'shots', 'clips', 'timeline']);
    if (Array.isArray(segs)) list = segs;
  }
  const out: FrozenConfidences = {};
  const timed = list ? timedFromList(list) : {};
  for (const f of FIELDS) {
    const v = found[f]?.value ?? dominant(f, timed[f] ?? []);
    if (v) out[f] = v.confidence;
  }
  return out;
}
