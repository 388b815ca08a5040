import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { messageFromJson, parseErrorBody, parseRetryAfter, errorFromResponse } from '../../../src-main/core/service/http/http-errors';
import { parseVideoStatus } from '../../../src-main/core/service/responses/videos';
import { parseCollectionsPage, parseSearchResults } from '../../../src-main/core/service/responses/collections';
import { parseStorageKeys } from '../../../src-main/core/service/responses/storage-keys';
import { parseAsyncStatus, parseRequestId, parseTagResult } from '../../../src-main/core/service/responses/tasks';
import { parseEncodeText, parseEncodeVideo } from '../../../src-main/core/service/responses/embeddings';
import { normalizeTags } from '../../../src-main/core/service/tags';
import { renderTags, type VideoAnalysis } from '../../emulator/analysis';
import { colourStats } from '../../emulator/semantics';
import { TAG_SHAPES } from '../../emulator/config';

function expectInvalid(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).kind).toBe('invalid');
    return;
  }
  throw new Error('expected AppError invalid');
}

describe('normalizeTags: the three recognised tags in every shape', () => {
  it('reads plain strings and keeps unknown keys raw', () => {
    const t = normalizeTags({ shot_size: 'Close-Up', camera_movement: 'pan left', shooting_angle: 'eye level', lighting: { key: 'soft' }, people: 2 });
    expect(t.shotSize).toEqual({ value: 'Close-Up', canonical: 'close_up' });
    expect(t.cameraMovement?.canonical).toBe('pan_left');
    expect(t.shootingAngle?.canonical).toBe('eye_level');
    expect(t.other).toEqual({ lighting: { key: 'soft' }, people: 2 });
    expect(t.segments).toBeUndefined();
  });

  it('reads {label, confidence} and other label/score spellings, percentages as fractions', () => {
    const t = normalizeTags({
      shot_size: { label: 'wide', confidence: 0.83 },
      camera_movement: { value: 'static', score: 91 },
      shooting_angle: { name: 'high angle', probability: '0.4' },
    });
    expect(t.shotSize).toEqual({ value: 'wide', canonical: 'wide', confidence: 0.83 });
    expect(t.cameraMovement?.confidence).toBeCloseTo(0.91);
    expect(t.shootingAngle).toEqual({ value: 'high angle', canonical: 'high_angle', confidence: 0.4 });
  });

  it('reads a probability map and a candidate list (highest confidence wins, else the first)', () => {
    const t = normalizeTags({
      shot_size: { close_up: 0.2, medium: 0.7, wide: 0.1 },
      camera_movement: [{ label: 'static', confidence: 0.3 }, { label: 'tilt', confidence: 0.6 }],
      shooting_angle: ['low angle', 'eye level'],
    });
    expect(t.shotSize).toEqual({ value: 'medium', canonical: 'medium', confidence: 0.7 });
    expect(t.cameraMovement?.canonical).toBe('tilt');
    expect(t.shootingAngle?.canonical).toBe('low_angle');
  });

  it('reads per-segment arrays, merges them into segments and picks the longest label overall', () => {
    const t = normalizeTags({
      shot_size: [
        { start: 0, end: 1, label: 'wide', confidence: 0.9 },
        { start: 1, end: 4, label: 'close-up', confidence: 0.6 },
      ],
      camera_movement: [
        { start_time: 0, end_time: 1, label: 'static' },
        { start_time: 1, end_time: 4, label: 'pan' },
      ],
    });
    expect(t.shotSize?.canonical).toBe('close_up');
    expect(t.shotSize?.confidence).toBeCloseTo(0.6);
    expect(t.cameraMovement?.canonical).toBe('pan');
    expect(t.segments).toEqual([
      { start: 0, end: 1, shotSize: { value: 'wide', canonical: 'wide', confidence: 0.9 }, cameraMovement: { value: 'static', canonical: 'static' } },
      { start: 1, end: 4, shotSize: { value: 'close-up', canonical: 'close_up', confidence: 0.6 }, cameraMovement: { value: 'pan', canonical: 'pan' } },
    ]);
  });

  it('recognises camelCase, Title Case and nested spellings', () => {
    expect(normalizeTags({ shotSize: 'wide' }).shotSize?.canonical).toBe('wide');
    const title = normalizeTags({ 'Shot Size': 'Medium Shot', 'Camera Movement': 'Dolly In', 'Shooting Angle': "Bird's-eye" });
    expect(title.shotSize?.canonical).toBe('medium');
    expect(title.cameraMovement?.canonical).toBe('dolly_in');
    expect(title.shootingAngle?.canonical).toBe('overhead');
    const nested = normalizeTags({ cinematography: { shotSize: { value: 'wide', score: 0.5 }, camera: { movement: 'handheld', angle: { value: 'low' } } }, color: { dominant: 'red' } });
    expect(nested.shotSize).toEqual({ value: 'wide', canonical: 'wide', confidence: 0.5 });
    expect(nested.cameraMovement?.canonical).toBe('handheld');
    expect(nested.shootingAngle?.canonical).toBe('low_angle');
    expect(nested.other).toEqual({ color: { dominant: 'red' } });
  });

  it('reads a list of segments, at the top or under "segments"', () => {
    const list = [
      { start: 0, end: 2, shot_size: 'wide', camera_movement: 'static' },
      { start: 2, end: 3, shot_size: 'close-up', shooting_angle: 'low angle' },
    ];
    for (const raw of [list, { segments: list, scene: 'beach' }]) {
      const t = normalizeTags(raw);
      expect(t.shotSize?.canonical).toBe('wide');
      expect(t.cameraMovement?.canonical).toBe('static');
      expect(t.shootingAngle?.canonical).toBe('low_angle');
      expect(t.segments).toHaveLength(2);
      expect(t.segments?.[1]).toMatchObject({ start: 2, end: 3, shotSize: { canonical: 'close_up' } });
    }
  });

  it('reads a list of labelled tags with a category member', () => {
    const t = normalizeTags([
      { category: 'shot size', label: 'medium', confidence: 0.7 },
      { type: 'camera_movement', value: 'zoom' },
      { category: 'mood', label: 'calm' },
    ]);
    expect(t.shotSize).toEqual({ value: 'medium', canonical: 'medium', confidence: 0.7 });
    expect(t.cameraMovement?.canonical).toBe('zoom');
    expect(t.shootingAngle).toBeUndefined();
  });

  it('unwraps {tags|result|data} envelopes and JSON held in a string', () => {
    expect(normalizeTags({ tags: { shot_size: 'wide' } }).shotSize?.canonical).toBe('wide');
    expect(normalizeTags({ result: { data: { shot_size: 'wide' } } }).shotSize?.canonical).toBe('wide');
    expect(normalizeTags(JSON.stringify({ camera_movement: 'pan' })).cameraMovement?.canonical).toBe('pan');
  });

  it('never crashes on odd input and keeps it raw', () => {
    for (const raw of [null, undefined, 42, 'just text', [], {}, [1, 2], { shot_size: null }, { shot_size: {} }, { shot_size: [[]] }]) {
      const t = normalizeTags(raw);
      expect(t.raw).toBe(raw);
      expect(t.shotSize).toBeUndefined();
    }
  });

  it('puts values of every field onto the vocabulary, and keeps a value outside it in snake case', () => {
    const t = normalizeTags({ shot_size: [{ start: 0, end: 1, label: 'CU' }, { start: 1, end: 3, label: 'Close-Up Shot' }, { start: 3, end: 4, label: 'WS' }], camera_movement: 'Hand-held', shooting_angle: 'POV/over-the-shoulder' });
    // "CU" and "Close-Up Shot" are one value, so their durations add up against "WS".
    expect(t.shotSize).toMatchObject({ canonical: 'close_up' });
    expect(t.segments?.map((s) => s.shotSize?.canonical)).toEqual(['close_up', 'close_up', 'wide']);
    expect(t.cameraMovement?.canonical).toBe('handheld');
    expect(t.shootingAngle).toEqual({ value: 'POV/over-the-shoulder', canonical: 'pov_over_the_shoulder' });
  });

  it("reads every tag shape the emulator can produce to the same labels", () => {
    const stats = colourStats(200, 30, 30);
    const analysis: VideoAnalysis = { stats, duration: 2, segments: [{ start: 0, end: 2, stats }] };
    const labels = TAG_SHAPES.map((shape) => {
      const t = normalizeTags(renderTags(analysis, shape));
      return [t.shotSize?.canonical, t.cameraMovement?.canonical, t.shootingAngle?.canonical];
    });
    expect(labels[0]!.every((l) => typeof l === 'string')).toBe(true);
    for (const l of labels) expect(l).toEqual(labels[0]);
  });
});

describe('embeddings of any dimension', () => {
  it('reads the spec shape and takes the dimension from the first vector', () => {
    const r = parseEncodeVideo({ embeddings: [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], model: 'x' });
    expect(r.dimension).toBe(3);
    expect(r.embeddings).toHaveLength(2);
    const big = Array.from({ length: 1024 }, (_, i) => i / 1024);
    expect(parseEncodeVideo({ embeddings: [big] }).dimension).toBe(1024);
  });

  it('reads a flat vector, an "embedding" field and list-of-objects forms', () => {
    expect(parseEncodeVideo({ embeddings: [1, 2] }).embeddings).toEqual([[1, 2]]);
    expect(parseEncodeVideo({ embedding: [1, 2, 3] }).dimension).toBe(3);
    expect(parseEncodeVideo({ data: [{ embedding: [1, 2] }, { embedding: [3, 4] }] }).embeddings).toEqual([[1, 2], [3, 4]]);
    expect(parseEncodeText({ embedding: [0.5, 0.5] }).dimension).toBe(2);
    expect(parseEncodeText({ embedding: [[0.5, 0.5, 0.1]] }).dimension).toBe(3);
    expect(parseEncodeText({ result: { embeddings: [[9, 8]] } }).embedding).toEqual([9, 8]);
  });

  it('rejects bodies without a vector as invalid (not retried)', () => {
    expectInvalid(() => parseEncodeVideo({ embeddings: [] }));
    expectInvalid(() => parseEncodeText({ embedding: ['a', 'b'] }));
    expectInvalid(() => parseEncodeText('nope'));
  });
});

describe('async status', () => {
  it('maps the spec statuses and keeps unknown fields', () => {
    const s = parseAsyncStatus({ request_id: 'r1', status: 'processing', eta_s: 4 }, 'r1');
    expect(s.status).toBe('processing');
    expect((s.raw as { eta_s: number }).eta_s).toBe(4);
    expect(parseAsyncStatus({ status: 'pending' }, 'r').status).toBe('pending');
  });

  it('reports an unknown status instead of failing', () => {
    const s = parseAsyncStatus({ status: 'thinking-hard' }, 'r');
    expect(s.status).toBe('unknown');
    expect(s.rawStatus).toBe('thinking-hard');
    expect(parseAsyncStatus({}, 'r').status).toBe('unknown');
    expect(parseAsyncStatus({ status: 'SUCCEEDED' }, 'r').status).toBe('completed');
    expect(parseAsyncStatus({ state: 'in progress' }, 'r').status).toBe('processing');
  });

  it('carries error_message (or an error object) when failed', () => {
    expect(parseAsyncStatus({ status: 'failed', error_message: 'bad tensor' }, 'r').errorMessage).toBe('bad tensor');
    expect(parseAsyncStatus({ status: 'failed', error: { message: 'decoder' } }, 'r').errorMessage).toBe('decoder');
  });

  it('finds the embedding of a completed embedding task', () => {
    expect(parseAsyncStatus({ status: 'completed', embedding: [1, 2, 3] }, 'r').embedding).toEqual([1, 2, 3]);
    const s = parseAsyncStatus({ status: 'completed', result: { embedding: [4, 5] } }, 'r');
    expect(s.embedding).toEqual([4, 5]);
    expect(s.tagsRaw).toBeUndefined();
  });

  it('finds a completed tagging result under tags, result or data', () => {
    for (const field of ['tags', 'result', 'data']) {
      const s = parseAsyncStatus({ status: 'completed', [field]: { shot_size: 'wide' } }, 'r');
      expect(s.tags?.shotSize?.canonical).toBe('wide');
    }
    expect(parseAsyncStatus({ status: 'completed', result: { tags: { camera_movement: 'pan' } } }, 'r').tags?.cameraMovement?.canonical).toBe('pan');
  });

  it('reads request ids under several names', () => {
    expect(parseRequestId({ request_id: 'a' }, 'x')).toBe('a');
    expect(parseRequestId({ task_id: 'b' }, 'x')).toBe('b');
    expect(parseRequestId({ id: 7 }, 'x')).toBe('7');
    expectInvalid(() => parseRequestId({ status: 'ok' }, 'x'));
  });

  it('reads sync tagging results', () => {
    expect(parseTagResult({ tags: { shot_size: 'wide' }, took_ms: 3 }).tags.shotSize?.canonical).toBe('wide');
    expect(parseTagResult({ result: { 'Shot Size': 'Wide' } }).tags.shotSize?.canonical).toBe('wide');
    expect(parseTagResult({ shot_size: 'wide' }).tags.shotSize?.canonical).toBe('wide');
  });
});

describe('collections list variants', () => {
  it('reads a bare array', () => {
    const p = parseCollectionsPage([{ id: 'c1', name: 'A', owner: 'me' }, { id: 'c2', name: 'B' }]);
    expect(p.items.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect((p.items[0]!.raw as { owner: string }).owner).toBe('me');
    expect(p.next).toBeUndefined();
  });

  it('reads an object holding an array plus token paging', () => {
    const p = parseCollectionsPage({ items: [{ id: 'c1', name: 'A' }], next_page_token: 'T2' });
    expect(p.next).toEqual({ kind: 'query', params: { page_token: 'T2' } });
    expect(parseCollectionsPage({ items: [{ id: 'c1' }], next_page_token: null }).next).toBeUndefined();
    expect(parseCollectionsPage({ data: [{ id: 'c1' }], nextCursor: 'k' }).next).toEqual({ kind: 'query', params: { cursor: 'k' } });
  });

  it('reads page numbers, next URLs, links and offsets', () => {
    expect(parseCollectionsPage({ data: [{ id: 'c1' }], page: 1, total_pages: 3 }).next).toEqual({ kind: 'query', params: { page: '2' } });
    expect(parseCollectionsPage({ data: [{ id: 'c1' }], page: 3, total_pages: 3 }).next).toBeUndefined();
    expect(parseCollectionsPage({ results: [{ id: 'c1' }], page: 2, has_more: true }).next).toEqual({ kind: 'query', params: { page: '3' } });
    expect(parseCollectionsPage({ collections: [{ id: 'c1' }], next: '/collections?offset=1' }).next).toEqual({ kind: 'url', url: '/collections?offset=1' });
    expect(parseCollectionsPage({ collections: [{ id: 'c1' }], links: { next: { href: 'https://x/collections?p=2' } } }).next).toEqual({ kind: 'url', url: 'https://x/collections?p=2' });
    expect(parseCollectionsPage({ records: [{ id: 'c1' }, { id: 'c2' }], offset: 0, total: 5 }).next).toEqual({ kind: 'query', params: { offset: '2' } });
    expect(parseCollectionsPage({ data: { items: [{ collection_id: 'c9', title: 'T' }], next_page_token: 'z' } })).toMatchObject({
      items: [{ id: 'c9', name: 'T' }],
      next: { kind: 'query', params: { page_token: 'z' } },
    });
  });

  it('skips items without an id and reads an empty object as an empty list', () => {
    expect(parseCollectionsPage([{ name: 'no id' }, { _id: 'x' }]).items.map((c) => c.id)).toEqual(['x']);
    expect(parseCollectionsPage({}).items).toEqual([]);
  });
});

describe('storage keys', () => {
  it('reads the object form under storage_keys', () => {
    const k = parseStorageKeys({ storage_keys: { video_input_key: 'v1', audio_input_key: 'a1' }, expires_in: 3600 });
    expect(k).toMatchObject({ videoInputKey: 'v1', audioInputKey: 'a1' });
    expect(k.videoKwargsKey).toBeUndefined();
  });

  it('reads role names without _key, nested key objects, lists and top-level keys', () => {
    expect(parseStorageKeys({ storage_keys: { video_input: 'v', video_kwargs: 'k' } })).toMatchObject({ videoInputKey: 'v', videoKwargsKey: 'k' });
    expect(parseStorageKeys({ storage_keys: { video_input: { key: 'v' } } }).videoInputKey).toBe('v');
    expect(parseStorageKeys({ storage_keys: [{ name: 'video_input', key: 'v' }, { field: 'audio_input', storage_key: 'a' }] })).toMatchObject({ videoInputKey: 'v', audioInputKey: 'a' });
    expect(parseStorageKeys({ video_input_key: 'v', request_id: 'r' }).videoInputKey).toBe('v');
  });

  it('rejects a body with no key at all', () => {
    expectInvalid(() => parseStorageKeys({ storage_keys: {} }));
    expectInvalid(() => parseStorageKeys({ ok: true }));
  });
});

describe('video status and search results', () => {
  it('reads statuses and progress in its forms', () => {
    expect(parseVideoStatus({ status: 'processing', progress: 42 }, 'v')).toMatchObject({ status: 'processing', progress: 42 });
    expect(parseVideoStatus({ status: 'processing', progress: '55%' }, 'v').progress).toBe(55);
    expect(parseVideoStatus({ status: 'processing', progress: 140 }, 'v').progress).toBe(100);
    expect(parseVideoStatus({ status: 'uploaded' }, 'v').progress).toBeUndefined();
    expect(parseVideoStatus({ status: 'ready' }, 'v').status).toBe('processed');
    expect(parseVideoStatus({ status: 'failed', error_message: 'codec' }, 'v')).toMatchObject({ status: 'failed', errorMessage: 'codec' });
    expect(parseVideoStatus({ status: 'archived' }, 'v')).toMatchObject({ status: 'unknown', rawStatus: 'archived' });
  });

  it('sorts hits by similarity and keeps extra fields', () => {
    const hits = parseSearchResults({ results: [{ video_id: 'a', similarity: 0.1 }, { video_id: 'b', similarity: 0.9, start: 3 }, { videoId: 'c', score: 0.5 }] });
    expect(hits.map((h) => h.videoId)).toEqual(['b', 'c', 'a']);
    expect((hits[0]!.raw as { start: number }).start).toBe(3);
    expect(parseSearchResults([{ video_id: 'x', similarity: 1 }])).toHaveLength(1);
    expectInvalid(() => parseSearchResults({ nothing: true }));
  });
});

describe('error bodies and Retry-After', () => {
  it('reads JSON messages in their common shapes', () => {
    expect(parseErrorBody('{"detail":"bad key"}').message).toBe('bad key');
    expect(parseErrorBody('{"error":{"code":"x","message":"too big"}}').message).toBe('too big');
    expect(parseErrorBody('{"message":"m","error":"e"}').message).toBe('m');
    expect(parseErrorBody('{"error":"quota_exceeded"}').message).toBe('quota_exceeded');
    expect(parseErrorBody('{"errors":[{"message":"a"},{"message":"b"}]}').message).toBe('a; b');
  });

  it('reads FastAPI validation arrays with their field paths', () => {
    const body = JSON.stringify({ detail: [{ loc: ['body', 'top_k'], msg: 'must be >= 1', type: 'value_error' }, { loc: ['body', 'text'], msg: 'field required' }] });
    expect(parseErrorBody(body).message).toBe('top_k: must be >= 1; text: field required');
    expect(messageFromJson({ detail: [{ msg: 'x' }] })).toBe('x');
  });

  it('reads text and HTML bodies, and bodies that only look like JSON', () => {
    expect(parseErrorBody('Gateway exploded\n').message).toBe('Gateway exploded');
    expect(parseErrorBody('<html><body><h1>502 Bad Gateway</h1></body></html>').message).toBe('502 Bad Gateway');
    expect(parseErrorBody('{not json').message).toBe('{not json');
    expect(parseErrorBody('').message).toBeUndefined();
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('maps every status of the spec table to its kind', () => {
    const table: Array<[number, string]> = [
      [400, 'invalid'],
      [401, 'auth'],
      [402, 'quota'],
      [404, 'not_found'],
      [413, 'too_large'],
      [422, 'invalid'],
      [429, 'rate_limit'],
      [500, 'server'],
      [502, 'upstream'],
      [504, 'timeout'],
      [418, 'invalid'],
      [599, 'server'],
    ];
    for (const [status, kind] of table) {
      const e = errorFromResponse(status, '{"detail":"why"}', status === 429 ? '2' : null, 'op');
      expect(e.kind).toBe(kind);
      expect(e.status).toBe(status);
      expect(e.message).toContain('why');
    }
    expect(errorFromResponse(429, '', '2', 'op').retryAfterMs).toBe(2000);
  });
});
