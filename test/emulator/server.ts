import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { analyzeFrames, renderTags, type VideoAnalysis } from './analysis';
import { DEFAULT_CONFIG, keyPatchSchema, loadConfigFile, mergeConfig, parseKeySpec, type EmulatorConfig, type KeySpec } from './config';
import { decodeVideoFrames } from './frames';
import { HttpError, readBody, readJsonObject, renderError, requireString, sendJson, sendText, sleep } from './http-util';
import { boundaryOf, MultipartParser } from './multipart';
import { cosine, embedStats, embedText, prng, type FrameStats } from './semantics';
import { countSends, EmulatorState, LOG_CAP, type EmulatorStats, type SendRecord, type KeyRecord, type Outcome, type TaskRecord, type TensorRole, type VideoRecord } from './state';
import { decodeDescriptor, TensorProblem, videoTensorFrames } from './tensors';

export interface EmulatorOptions extends Partial<EmulatorConfig> {
  /** 0 (default) picks a free port. */
  port?: number;
  /** API keys as "KEY[:QPS[:QUOTA]]" strings or objects. */
  keys?: Array<string | KeySpec>;
  /** A JSON file with config knobs and an optional "keys" array. */
  configFile?: string;
}

export interface FailNextSpec {
  status: number;
  count?: number;
  /** Route name, e.g. "POST /video_embedding/encode_text"; all routes when absent. */
  endpoint?: string;
  retryAfterSeconds?: number;
  /**
   * The request is carried out, then answered with the status: a gateway that timed out while the
   * service did the work. The client cannot tell from the answer whether anything happened.
   */
  afterWork?: boolean;
}

export interface EmulatorAdmin {
  getConfig(): EmulatorConfig;
  setConfig(patch: Partial<EmulatorConfig>): EmulatorConfig;
  setKey(patch: { key: string; qps?: number | null; quota?: number | null; used?: number }): void;
  failNext(spec: FailNextSpec): void;
  /** Clears data (collections, tasks, tensors, videos) and/or stats; keys and config stay. */
  reset(what?: { data?: boolean; stats?: boolean }): void;
}

export interface EmulatorHandle {
  url: string;
  port: number;
  admin: EmulatorAdmin;
  stats(): EmulatorStats;
  /** Every tensor upload and task submission carried out, in order (test-only; `countSends` sums them). */
  sends(): SendRecord[];
  /** Stops answering (connections refused, open ones cut) while keeping every bit of state. */
  suspend(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

const ROUTES: Array<{ method: string; pattern: RegExp; name: string; billable: boolean }> = [
  { method: 'POST', pattern: /^\/video_embedding\/encode_video$/, name: 'POST /video_embedding/encode_video', billable: true },
  { method: 'POST', pattern: /^\/video_embedding\/encode_text$/, name: 'POST /video_embedding/encode_text', billable: true },
  { method: 'POST', pattern: /^\/video_embedding\/encode_video\/async$/, name: 'POST /video_embedding/encode_video/async', billable: true },
  { method: 'GET', pattern: /^\/async_status\/([^/]+)$/, name: 'GET /async_status/{request_id}', billable: false },
  { method: 'POST', pattern: /^\/video_tagging$/, name: 'POST /video_tagging', billable: true },
  { method: 'POST', pattern: /^\/video_tagging\/async$/, name: 'POST /video_tagging/async', billable: true },
  { method: 'POST', pattern: /^\/files\/upload\/tensors$/, name: 'POST /files/upload/tensors', billable: true },
  { method: 'POST', pattern: /^\/collections$/, name: 'POST /collections', billable: false },
  { method: 'GET', pattern: /^\/collections$/, name: 'GET /collections', billable: false },
  { method: 'POST', pattern: /^\/collections\/([^/]+)\/search$/, name: 'POST /collections/{collection_id}/search', billable: true },
  { method: 'POST', pattern: /^\/collections\/([^/]+)\/videos\/upload$/, name: 'POST /collections/{collection_id}/videos/upload', billable: true },
  { method: 'GET', pattern: /^\/videos\/([^/]+)\/status$/, name: 'GET /videos/{video_id}/status', billable: false },
];

export const ROUTE_NAMES = ROUTES.map((r) => r.name);

interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  param: string;
  key: KeyRecord;
  route: (typeof ROUTES)[number];
  charged: boolean;
  /** Arrival, on the clock of the request log. */
  arrival: number;
  /** Sent instead of the success answer (FailNextSpec.afterWork). */
  lateFailure?: HttpError;
}

/** The header naming the emulator on every answer (README "The service emulator", "Who answers"). */
export const EMULATOR_HEADER = 'X-Reelscout-Emulator';

const MAX_TEXT = 2000;
const MAX_NAME = 200;

function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

class Emulator {
  config: EmulatorConfig;
  readonly state = new EmulatorState();
  private failRandom: () => number;
  private taskRandom: () => number;
  private readonly failQueue: Array<FailNextSpec & { count: number }> = [];
  readonly tmpDir: string;

  constructor(config: EmulatorConfig, keys: KeySpec[]) {
    this.config = config;
    this.failRandom = prng(config.failureSeed);
    this.taskRandom = prng(config.failureSeed + 1);
    for (const k of keys) this.state.setKey(k);
    this.tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-emulator-'));
  }

  setConfig(patch: unknown): EmulatorConfig {
    const next = mergeConfig(this.config, patch);
    if (next.failureSeed !== this.config.failureSeed) {
      this.failRandom = prng(next.failureSeed);
      this.taskRandom = prng(next.failureSeed + 1);
    }
    this.config = next;
    return next;
  }

  failNext(spec: FailNextSpec): void {
    this.failQueue.push({ status: spec.status, count: spec.count ?? 1, endpoint: spec.endpoint, retryAfterSeconds: spec.retryAfterSeconds, afterWork: spec.afterWork });
  }

  private count(endpoint: string, status: number): void {
    const e = (this.state.stats.byEndpoint[endpoint] ??= { requests: 0, statuses: {} });
    e.requests++;
    e.statuses[status] = (e.statuses[status] ?? 0) + 1;
  }

  private sendError(res: http.ServerResponse, endpoint: string, e: HttpError): void {
    const { contentType, text } = renderError(this.config.errorBody, e);
    this.count(endpoint, e.status);
    sendText(res, e.status, contentType, text, e.opts.headers ?? {});
  }

  /** The success answer, after answerLatencyMs (the way back: the work is done, the answer not yet there). */
  private ok(ctx: Ctx, body: unknown): void {
    if (ctx.lateFailure) return this.sendError(ctx.res, ctx.route.name, ctx.lateFailure);
    this.count(ctx.route.name, 200);
    const { answerLatencyMs } = this.config;
    if (answerLatencyMs > 0) setTimeout(() => sendJson(ctx.res, 200, body), answerLatencyMs);
    else sendJson(ctx.res, 200, body);
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (url.pathname.startsWith('/__admin/')) return this.handleAdmin(req, res, url);
    const arrival = nowMs();
    this.state.stats.totalRequests++;
    const candidates = ROUTES.filter((r) => r.pattern.test(url.pathname));
    const route = candidates.find((r) => r.method === req.method);
    const endpointName = route?.name ?? `${req.method} (unknown path)`;

    const { record: key, presented } = this.authenticate(req);
    const log = this.state.stats.requestLog;
    res.on('finish', () => {
      if (log.length < LOG_CAP) log.push({ t: arrival, key: presented ?? '', endpoint: endpointName, status: res.statusCode });
    });
    if (!key) {
      req.resume();
      return this.sendError(res, endpointName, new HttpError(401, 'invalid or missing API key'));
    }
    key.timestamps.push(arrival);
    if (!route) {
      req.resume();
      if (candidates.length) return this.sendError(res, endpointName, new HttpError(405, `method ${req.method} not allowed`, { headers: { Allow: candidates.map((c) => c.method).join(', ') } }));
      return this.sendError(res, endpointName, new HttpError(404, `no such endpoint: ${url.pathname}`));
    }

    const limited = this.rateLimit(key, arrival);
    if (limited) {
      req.resume();
      return this.sendError(res, route.name, limited);
    }

    const { latencyMs, latencyJitterMs } = this.config;
    await sleep(latencyMs + (latencyJitterMs ? Math.random() * latencyJitterMs : 0));

    const injected = this.injectedFailure(route.name);
    if (injected) this.state.stats.injected[injected.error.status] = (this.state.stats.injected[injected.error.status] ?? 0) + 1;
    if (injected && !injected.afterWork) {
      req.resume();
      return this.sendError(res, route.name, injected.error);
    }

    const ctx: Ctx = { req, res, url, param: decodeURIComponent(route.pattern.exec(url.pathname)?.[1] ?? ''), key, route, charged: false, arrival, lateFailure: injected?.error };
    try {
      await this.dispatch(ctx);
    } catch (e) {
      if (ctx.charged) key.used--;
      req.resume();
      if (e instanceof HttpError) return this.sendError(res, route.name, e);
      process.stderr.write(`emulator: internal error on ${route.name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      return this.sendError(res, route.name, new HttpError(500, 'internal error of the emulator'));
    }
  }

  /** X-API-Key wins when both headers are sent (it is the spec's recommended method). */
  private authenticate(req: http.IncomingMessage): { record?: KeyRecord; presented?: string } {
    const x = req.headers['x-api-key'];
    const authz = req.headers.authorization;
    if (x !== undefined && authz !== undefined) this.state.stats.bothAuthHeaders++;
    let key: string | undefined;
    if (x !== undefined) {
      key = Array.isArray(x) ? x[0] : x;
      this.state.stats.authHeaderForms['x-api-key']++;
    } else if (authz !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
      key = m?.[1];
      this.state.stats.authHeaderForms.bearer++;
    }
    const presented = key?.trim();
    return { record: presented ? this.state.keys.get(presented) : undefined, presented };
  }

  /** Sliding one-second window per key (longer for QPS below 1); 429 carries Retry-After in seconds. */
  private rateLimit(key: KeyRecord, t: number): HttpError | undefined {
    if (key.qps === null) return undefined;
    const windowMs = key.qps >= 1 ? 1000 : 1000 / key.qps;
    const limit = key.qps >= 1 ? Math.floor(key.qps) : 1;
    while (key.window.length && t - key.window[0]! >= windowMs) key.window.shift();
    if (key.window.length >= limit) {
      const waitS = Math.max(1, Math.ceil((key.window[0]! + windowMs - t) / 1000));
      return new HttpError(429, `rate limit of ${key.qps} requests per second exceeded`, { headers: { 'Retry-After': String(waitS) } });
    }
    key.window.push(t);
    return undefined;
  }

  private injectedFailure(endpoint: string): { error: HttpError; afterWork: boolean } | undefined {
    const qi = this.failQueue.findIndex((f) => !f.endpoint || f.endpoint === endpoint);
    if (qi >= 0) {
      const f = this.failQueue[qi]!;
      if (--f.count <= 0) this.failQueue.splice(qi, 1);
      return { error: this.injectedError(f.status, f.retryAfterSeconds ?? this.config.injectedRetryAfterSeconds), afterWork: f.afterWork ?? false };
    }
    const { failureRates, failureEndpoints } = this.config;
    if (failureEndpoints.length && !failureEndpoints.includes(endpoint)) return undefined;
    const r = this.failRandom();
    let acc = 0;
    for (const status of [429, 500, 502, 504] as const) {
      acc += failureRates[status] ?? 0;
      if (r < acc) return { error: this.injectedError(status, this.config.injectedRetryAfterSeconds), afterWork: false };
    }
    return undefined;
  }

  private injectedError(status: number, retryAfter: number | null | undefined): HttpError {
    const headers: Record<string, string> = status === 429 && retryAfter !== null && retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : {};
    const messages: Record<number, string> = {
      429: 'rate limit exceeded (injected)',
      500: 'internal server error (injected)',
      502: 'an external service failed (injected)',
      504: 'request timed out (injected)',
    };
    return new HttpError(status, messages[status] ?? `injected failure ${status}`, { headers });
  }

  /** Quota counts successful billable calls: charged up front, refunded when the call fails. */
  private charge(ctx: Ctx): void {
    if (!ctx.route.billable) return;
    if (this.config.quotaExceeded) throw new HttpError(402, 'quota exceeded: check usage and billing');
    if (ctx.key.quota !== null && ctx.key.used >= ctx.key.quota) throw new HttpError(402, `quota of ${ctx.key.quota} calls exceeded: check usage and billing`);
    ctx.key.used++;
    ctx.charged = true;
  }

  private async dispatch(ctx: Ctx): Promise<void> {
    switch (ctx.route.name) {
      case 'POST /video_embedding/encode_video':
        return this.encodeVideo(ctx);
      case 'POST /video_embedding/encode_text':
        return this.encodeText(ctx);
      case 'POST /video_embedding/encode_video/async':
        return this.submitTask(ctx, 'embedding');
      case 'GET /async_status/{request_id}':
        return this.asyncStatus(ctx);
      case 'POST /video_tagging':
        return this.tagVideo(ctx);
      case 'POST /video_tagging/async':
        return this.submitTask(ctx, 'tagging');
      case 'POST /files/upload/tensors':
        return this.uploadTensors(ctx);
      case 'POST /collections':
        return this.createCollection(ctx);
      case 'GET /collections':
        return this.listCollections(ctx);
      case 'POST /collections/{collection_id}/search':
        return this.search(ctx);
      case 'POST /collections/{collection_id}/videos/upload':
        return this.uploadVideo(ctx);
      case 'GET /videos/{video_id}/status':
        return this.videoStatus(ctx);
    }
  }

  // ---- video sources -------------------------------------------------------------------------

  /** file:// always; http(s) only on allowed hosts (loopback by default), downloaded to a temp file. */
  private async analyzeUrl(videoUrl: string): Promise<VideoAnalysis> {
    let u: URL;
    try {
      u = new URL(videoUrl);
    } catch {
      throw new HttpError(400, 'video_url is not a valid URL');
    }
    if (u.protocol === 'file:') {
      const file = fileURLToPath(u);
      if (!fs.existsSync(file)) throw new HttpError(400, `video_url could not be fetched: no such file`);
      return this.analyzeFile(file);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new HttpError(400, `video_url scheme ${u.protocol} is not supported`);
    if (!this.config.allowedUrlHosts.includes(u.hostname)) throw new HttpError(400, `video_url host ${u.hostname} cannot be fetched by the emulator`);
    const tmp = path.join(this.tmpDir, this.state.nextId('fetch'));
    try {
      const r = await fetch(u).catch((e: unknown) => {
        throw new HttpError(400, `video_url could not be fetched: ${e instanceof Error ? e.message : String(e)}`);
      });
      if (!r.ok || !r.body) throw new HttpError(400, `video_url could not be fetched: HTTP ${r.status}`);
      await fs.promises.writeFile(tmp, Buffer.from(await r.arrayBuffer()));
      return await this.analyzeFile(tmp);
    } finally {
      fs.rm(tmp, { force: true }, () => {});
    }
  }

  private async analyzeFile(file: string): Promise<VideoAnalysis> {
    try {
      return analyzeFrames(await decodeVideoFrames(file, this.config.decodeFrames));
    } catch (e) {
      throw new HttpError(422, e instanceof Error ? e.message : String(e), { field: 'video' });
    }
  }

  /** Runs sync work under the sync deadline: past syncTimeoutMs the answer is 504. */
  private async underSyncDeadline<T>(work: () => Promise<T>): Promise<T> {
    const { syncTimeoutMs, syncProcessingMs } = this.config;
    const timeout = new HttpError(504, `synchronous processing exceeded ${syncTimeoutMs} ms: use the asynchronous interface`);
    if (syncProcessingMs >= syncTimeoutMs) {
      await sleep(syncTimeoutMs);
      throw timeout;
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeout), syncTimeoutMs);
    });
    try {
      return await Promise.race([
        (async () => {
          await sleep(syncProcessingMs);
          return work();
        })(),
        deadline,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  // ---- embedding -------------------------------------------------------------------------------

  private async encodeVideo(ctx: Ctx): Promise<void> {
    const body = await readJsonObject(ctx.req, this.config.maxBodyBytes);
    if (body.tensor !== undefined) throw new HttpError(400, 'tensor mode is only available on the asynchronous endpoint');
    const videoUrl = requireString(body, 'video_url');
    this.charge(ctx);
    const analysis = await this.underSyncDeadline(() => this.analyzeUrl(videoUrl));
    this.state.stats.videoUrlEncodes[videoUrl] = (this.state.stats.videoUrlEncodes[videoUrl] ?? 0) + 1;
    this.ok(ctx, { embeddings: [embedStats(analysis.stats, this.config.embeddingDim)] });
  }

  private async encodeText(ctx: Ctx): Promise<void> {
    const body = await readJsonObject(ctx.req, this.config.maxBodyBytes);
    const text = requireString(body, 'text', { maxLength: MAX_TEXT });
    this.charge(ctx);
    this.state.stats.textEncodes[text] = (this.state.stats.textEncodes[text] ?? 0) + 1;
    this.ok(ctx, { embedding: embedText(text, this.config.embeddingDim) });
  }

  // ---- async tasks -----------------------------------------------------------------------------

  private async submitTask(ctx: Ctx, kind: 'embedding' | 'tagging'): Promise<void> {
    const body = await readJsonObject(ctx.req, this.config.maxBodyBytes);
    const hasUrl = body.video_url !== undefined;
    const hasTensor = body.tensor !== undefined;
    // The spec leaves precedence open; the emulator refuses the ambiguity outright.
    if (hasUrl && hasTensor) throw new HttpError(400, 'send either video_url or tensor, not both');
    if (!hasUrl && !hasTensor) throw new HttpError(422, 'field required: video_url or tensor', { field: 'video_url' });
    let source: () => Promise<Outcome>;
    let signature: string;
    let content: string;
    let uploadRequestId: string | null = null;
    if (hasUrl) {
      const videoUrl = requireString(body, 'video_url');
      signature = `${kind}|url|${videoUrl}`;
      content = signature;
      source = () => this.analyzeUrl(videoUrl).then((analysis): Outcome => ({ ok: true, analysis }));
      try {
        new URL(videoUrl);
      } catch {
        throw new HttpError(400, 'video_url is not a valid URL');
      }
    } else {
      const ref = this.tensorRef(body.tensor, kind);
      signature = `${kind}|tensor|${JSON.stringify(Object.entries(ref).sort())}`;
      content = `${kind}|tensor|${JSON.stringify(Object.entries(ref).map(([member, key]) => [member, this.state.tensors.get(key)!.contentHash]).sort())}`;
      const video = this.state.tensors.get(ref.video_input_key!)!;
      uploadRequestId = video.requestId;
      source = async () => (video.analysis ? { ok: true, analysis: video.analysis } : { ok: false, message: `video_input tensor cannot be processed: ${video.problem ?? 'unknown reason'}` });
    }
    this.charge(ctx);
    const id = this.config.taskIds === 'upload-request-id' && uploadRequestId !== null ? uploadRequestId : this.state.nextId(kind === 'embedding' ? 'emb' : 'tag');
    const task: TaskRecord = { id, kind, createdAt: Date.now(), pendingMs: this.config.asyncPendingMs, processingMs: this.config.asyncProcessingMs };
    this.state.tasks.set(id, task);
    const injectFail = this.config.asyncFailureRate > 0 && this.taskRandom() < this.config.asyncFailureRate;
    source()
      .catch((e: unknown): Outcome => ({ ok: false, message: e instanceof Error ? e.message : String(e) }))
      .then((o) => {
        task.outcome = injectFail ? { ok: false, message: this.config.asyncFailureMessage } : o;
      });
    this.state.stats.taskSubmissions++;
    this.state.sends.push({ t: ctx.arrival, what: kind, requestId: uploadRequestId, content });
    const seen = this.state.submissions.get(signature) ?? 0;
    if (seen > 0) this.state.stats.duplicateTaskSubmissions++;
    this.state.submissions.set(signature, seen + 1);
    if (hasUrl) {
      const u = body.video_url as string;
      this.state.stats.videoUrlEncodes[u] = (this.state.stats.videoUrlEncodes[u] ?? 0) + 1;
    }
    this.ok(ctx, { request_id: id, status: 'pending' });
  }

  private tensorRef(v: unknown, kind: 'embedding' | 'tagging'): Record<string, string> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new HttpError(422, 'must be an object', { field: 'tensor' });
    const t = v as Record<string, unknown>;
    const allowed: Record<string, TensorRole> =
      kind === 'embedding' ? { video_input_key: 'video_input', audio_input_key: 'audio_input' } : { video_input_key: 'video_input', video_kwargs_key: 'video_kwargs' };
    const out: Record<string, string> = {};
    for (const [k, val] of Object.entries(t)) {
      const role = allowed[k];
      if (!role) throw new HttpError(422, `unexpected member for ${kind}: ${k}`, { field: `tensor.${k}` });
      if (typeof val !== 'string' || !val) throw new HttpError(422, 'must be a non-empty string', { field: `tensor.${k}` });
      const rec = this.state.tensors.get(val);
      if (!rec) throw new HttpError(404, `storage key not found: ${val}`);
      if (rec.role !== role) throw new HttpError(422, `storage key ${val} holds ${rec.role}, not ${role}`, { field: `tensor.${k}` });
      out[k] = val;
    }
    if (!out.video_input_key) throw new HttpError(422, 'field required', { field: 'tensor.video_input_key' });
    return out;
  }

  private asyncStatus(ctx: Ctx): void {
    const task = this.state.tasks.get(ctx.param);
    if (!task) throw new HttpError(404, `no task with request_id ${ctx.param}`);
    const age = Date.now() - task.createdAt;
    const base = { request_id: task.id };
    if (age < task.pendingMs) return this.ok(ctx, { ...base, status: 'pending' });
    if (age < task.pendingMs + task.processingMs || !task.outcome) return this.ok(ctx, { ...base, status: 'processing' });
    if (!task.outcome.ok) return this.ok(ctx, { ...base, status: 'failed', error_message: task.outcome.message });
    if (task.kind === 'embedding') return this.ok(ctx, { ...base, status: 'completed', embedding: embedStats(task.outcome.analysis.stats, this.config.embeddingDim) });
    return this.ok(ctx, { ...base, status: 'completed', [this.config.tagResultField]: renderTags(task.outcome.analysis, this.config.tagShape, this.config.tagVocabulary) });
  }

  // ---- tagging ---------------------------------------------------------------------------------

  private async tagVideo(ctx: Ctx): Promise<void> {
    const body = await readJsonObject(ctx.req, this.config.maxBodyBytes);
    const field = this.config.base64Field;
    const hasUrl = body.video_url !== undefined;
    const hasData = body[field] !== undefined;
    if (hasUrl && hasData) throw new HttpError(400, `send either video_url or ${field}, not both`);
    if (!hasUrl && !hasData) throw new HttpError(422, `field required: video_url or ${field}`, { field: 'video_url' });
    let work: () => Promise<VideoAnalysis>;
    if (hasUrl) {
      const videoUrl = requireString(body, 'video_url');
      work = () => this.analyzeUrl(videoUrl);
    } else {
      const data = requireString(body, field).replace(/\s+/g, '');
      if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw new HttpError(422, 'is not valid base64', { field });
      work = async () => {
        const tmp = path.join(this.tmpDir, this.state.nextId('b64'));
        await fs.promises.writeFile(tmp, Buffer.from(data, 'base64'));
        try {
          return await this.analyzeFile(tmp);
        } finally {
          fs.rm(tmp, { force: true }, () => {});
        }
      };
    }
    this.charge(ctx);
    const analysis = await this.underSyncDeadline(work);
    this.ok(ctx, { tags: renderTags(analysis, this.config.tagShape, this.config.tagVocabulary) });
  }

  // ---- tensors ---------------------------------------------------------------------------------

  private async uploadTensors(ctx: Ctx): Promise<void> {
    const body = await readJsonObject(ctx.req, this.config.maxBodyBytes);
    const service = requireString(body, 'service');
    if (service !== 'embedding' && service !== 'tagging') throw new HttpError(422, "must be 'embedding' or 'tagging'", { field: 'service' });
    const requestId = requireString(body, 'request_id', { maxLength: 256 });
    if (body.video_input === undefined) throw new HttpError(422, 'field required', { field: 'video_input' });
    if (service === 'tagging' && body.audio_input !== undefined) throw new HttpError(422, 'audio_input is used with the embedding service', { field: 'audio_input' });
    if (service === 'embedding' && body.video_kwargs !== undefined) throw new HttpError(422, 'video_kwargs is used with the tagging service', { field: 'video_kwargs' });
    const kwargs = body.video_kwargs;
    if (kwargs !== undefined && (typeof kwargs !== 'object' || kwargs === null || Array.isArray(kwargs))) throw new HttpError(422, 'must be an object', { field: 'video_kwargs' });
    let video, audio;
    try {
      video = decodeDescriptor(body.video_input, 'video_input');
      audio = body.audio_input !== undefined ? decodeDescriptor(body.audio_input, 'audio_input') : undefined;
    } catch (e) {
      if (e instanceof TensorProblem) throw new HttpError(422, e.message, { field: e.field });
      throw e;
    }
    this.charge(ctx);
    this.state.stats.tensorUploads++;
    const contentHash = createHash('sha256')
      .update(`${service}|${video.dtype}|${video.shape.join('x')}|${video.sha256}|${audio ? `${audio.dtype}|${audio.shape.join('x')}|${audio.sha256}` : '-'}|${JSON.stringify(kwargs ?? null)}`)
      .digest('hex');
    this.state.sends.push({ t: ctx.arrival, what: 'upload', requestId, content: contentHash });
    const previous = this.state.uploads.get(requestId);
    if (previous && previous.contentHash === contentHash) {
      this.state.stats.duplicateTensorUploads++;
      return this.ok(ctx, this.storageKeysBody(requestId, previous.keys));
    }
    if (previous) this.state.stats.conflictingTensorUploads++;

    const fps = kwargs && typeof (kwargs as Record<string, unknown>).fps === 'number' ? ((kwargs as Record<string, unknown>).fps as number) : 1;
    const frames = videoTensorFrames(video, fps > 0 ? fps : 1);
    const keys: Partial<Record<TensorRole, string>> = {};
    const vk = this.state.nextId('tk-video');
    this.state.tensors.set(vk, { storageKey: vk, role: 'video_input', service, requestId, contentHash, ...(typeof frames === 'string' ? { problem: frames } : { analysis: analyzeFrames(frames) }) });
    keys.video_input = vk;
    if (audio) {
      const ak = this.state.nextId('tk-audio');
      this.state.tensors.set(ak, { storageKey: ak, role: 'audio_input', service, requestId, contentHash });
      keys.audio_input = ak;
    }
    if (kwargs !== undefined) {
      const kk = this.state.nextId('tk-kwargs');
      this.state.tensors.set(kk, { storageKey: kk, role: 'video_kwargs', service, requestId, contentHash });
      keys.video_kwargs = kk;
    }
    this.state.uploads.set(requestId, { requestId, contentHash, keys });
    this.ok(ctx, this.storageKeysBody(requestId, keys));
  }

  private storageKeysBody(requestId: string, keys: Partial<Record<TensorRole, string>>): unknown {
    if (this.config.storageKeysShape === 'list') {
      return { request_id: requestId, storage_keys: Object.entries(keys).map(([name, key]) => ({ name, key })) };
    }
    const o: Record<string, string> = {};
    for (const [role, key] of Object.entries(keys)) o[`${role}_key`] = key;
    return { request_id: requestId, storage_keys: o };
  }

  // ---- collections -----------------------------------------------------------------------------

  private async createCollection(ctx: Ctx): Promise<void> {
    const body = await readJsonObject(ctx.req, this.config.maxBodyBytes);
    const name = requireString(body, 'name', { maxLength: MAX_NAME });
    const description = body.description ?? '';
    if (typeof description !== 'string') throw new HttpError(422, 'must be a string', { field: 'description' });
    const id = this.state.nextId('col');
    this.state.collections.set(id, { id, name, description, createdAt: new Date().toISOString() });
    this.ok(ctx, { collection_id: id, name });
  }

  private listCollections(ctx: Ctx): void {
    const all = [...this.state.collections.values()].map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      created_at: c.createdAt,
      video_count: [...this.state.videos.values()].filter((v) => v.collectionId === c.id).length,
    }));
    const size = this.config.listPageSize;
    const q = ctx.url.searchParams;
    const intParam = (name: string, def: number, min: number): number => {
      const raw = q.get(name);
      if (raw === null) return def;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min) throw new HttpError(422, `must be an integer >= ${min}`, { field: name });
      return n;
    };
    switch (this.config.listPaging) {
      case 'array':
        return this.ok(ctx, all);
      case 'paged-token': {
        const token = q.get('page_token');
        let offset = 0;
        if (token !== null) {
          offset = Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^o:/, ''));
          if (!Number.isInteger(offset) || offset < 0) throw new HttpError(400, 'invalid page_token');
        }
        const items = all.slice(offset, offset + size);
        const next = offset + size < all.length ? Buffer.from(`o:${offset + size}`).toString('base64url') : null;
        return this.ok(ctx, { items, next_page_token: next });
      }
      case 'paged-page': {
        const page = intParam('page', 1, 1);
        const totalPages = Math.max(1, Math.ceil(all.length / size));
        return this.ok(ctx, { data: all.slice((page - 1) * size, page * size), page, page_size: size, total_pages: totalPages, total: all.length });
      }
      case 'paged-next': {
        const offset = intParam('offset', 0, 0);
        const next = offset + size < all.length ? `/collections?offset=${offset + size}` : null;
        return this.ok(ctx, { collections: all.slice(offset, offset + size), next });
      }
    }
  }

  private requireCollection(id: string): void {
    if (!this.state.collections.has(id)) throw new HttpError(404, `no collection with id ${id}`);
  }

  private async search(ctx: Ctx): Promise<void> {
    this.requireCollection(ctx.param);
    const body = await readJsonObject(ctx.req, this.config.maxBodyBytes);
    const text = requireString(body, 'text', { maxLength: MAX_TEXT });
    const max = this.config.topKMax;
    let topK = Math.min(10, max);
    if (body.top_k !== undefined) {
      if (typeof body.top_k !== 'number' || !Number.isInteger(body.top_k) || body.top_k < 1) {
        throw new HttpError(422, `must be an integer from 1 to ${max}`, { field: 'top_k' });
      }
      if (body.top_k > max) {
        throw new HttpError(this.config.topKErrorStatus, this.config.topKErrorStatus === 400 ? `top_k must be at most ${max}` : `ensure this value is less than or equal to ${max}`, { field: 'top_k' });
      }
      topK = body.top_k;
    }
    this.charge(ctx);
    const q = embedText(text, this.config.embeddingDim);
    const sim = (stats: FrameStats) => Math.round(cosine(q, embedStats(stats, this.config.embeddingDim)) * 1e6) / 1e6;
    const results = [...this.state.videos.values()]
      .filter((v) => v.collectionId === ctx.param && this.videoState(v).status === 'processed' && v.outcome?.ok)
      .flatMap((v) => {
        const a = (v.outcome as { ok: true; analysis: VideoAnalysis }).analysis;
        if (this.config.collectionHits === 'segment') {
          return a.segments.map((seg) => ({ video_id: v.id, similarity: sim(seg.stats), start_time: seg.start, end_time: seg.end }));
        }
        return [{ video_id: v.id, similarity: sim(a.stats), start_time: 0, end_time: a.duration }];
      })
      .sort((a, b) => b.similarity - a.similarity || a.video_id.localeCompare(b.video_id) || a.start_time - b.start_time)
      .slice(0, topK);
    this.ok(ctx, { results });
  }

  private async uploadVideo(ctx: Ctx): Promise<void> {
    this.requireCollection(ctx.param);
    const boundary = boundaryOf(ctx.req.headers['content-type']);
    if (!boundary) throw new HttpError(400, 'expected multipart/form-data with a boundary');
    const file = path.join(this.tmpDir, this.state.nextId('upload'));
    const got = await this.receiveFilePart(ctx.req, boundary, file).catch((e: unknown) => {
      fs.rm(file, { force: true }, () => {});
      throw e;
    });
    if (!got) {
      fs.rm(file, { force: true }, () => {});
      throw new HttpError(422, "a part named 'file' is required", { field: 'file' });
    }
    try {
      this.charge(ctx);
    } catch (e) {
      fs.rm(file, { force: true }, () => {});
      throw e;
    }
    const id = this.state.nextId('vid');
    const video: VideoRecord = {
      id,
      collectionId: ctx.param,
      filename: got.filename,
      size: got.size,
      createdAt: Date.now(),
      uploadedMs: this.config.videoUploadedMs,
      processingMs: this.config.videoProcessingMs,
    };
    this.state.videos.set(id, video);
    decodeVideoFrames(file, this.config.decodeFrames)
      .then((frames): Outcome => ({ ok: true, analysis: analyzeFrames(frames) }))
      .catch((e: unknown): Outcome => ({ ok: false, message: e instanceof Error ? e.message : String(e) }))
      .then((o) => {
        video.outcome = o;
        fs.rm(file, { force: true }, () => {});
      });
    this.ok(ctx, { video_id: id, status: 'uploaded', filename: got.filename, size: got.size });
  }

  /** Streams the multipart body, writing the part named "file" to disk; 413 past the body limit. */
  private receiveFilePart(req: http.IncomingMessage, boundary: string, dest: string): Promise<{ filename?: string; size: number } | undefined> {
    const limit = this.config.maxBodyBytes;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      return Promise.reject(new HttpError(413, `request body of ${declared} bytes exceeds the limit of ${limit} bytes`));
    }
    return new Promise((resolve, reject) => {
      let out: fs.WriteStream | undefined;
      let found: { filename?: string; size: number } | undefined;
      let inFile = false;
      let total = 0;
      let failed = false;
      const fail = (e: unknown) => {
        if (failed) return;
        failed = true;
        out?.destroy();
        req.resume();
        reject(e);
      };
      const parser = new MultipartParser(boundary, {
        onPartStart: (h) => {
          inFile = h.name === 'file' && !found;
          if (inFile) {
            found = { filename: h.filename, size: 0 };
            out = fs.createWriteStream(dest);
            out.on('error', fail);
          }
        },
        onPartData: (chunk) => {
          if (!inFile || !out || !found) return;
          found.size += chunk.length;
          if (!out.write(chunk)) {
            req.pause();
            out.once('drain', () => req.resume());
          }
        },
        onPartEnd: () => {
          inFile = false;
        },
      });
      req.on('data', (c: Buffer) => {
        if (failed) return;
        total += c.length;
        if (total > limit) return fail(new HttpError(413, `request body exceeds the limit of ${limit} bytes`));
        try {
          parser.write(c);
        } catch (e) {
          fail(new HttpError(400, `malformed multipart body: ${e instanceof Error ? e.message : String(e)}`));
        }
      });
      req.on('end', () => {
        if (failed) return;
        if (!parser.finished) return fail(new HttpError(400, 'malformed multipart body: closing boundary missing'));
        if (!out) return resolve(undefined);
        out.end(() => resolve(found));
      });
      req.on('error', fail);
    });
  }

  private videoState(v: VideoRecord): { status: string; progress?: number; error_message?: string } {
    const age = Date.now() - v.createdAt;
    if (age < v.uploadedMs) return { status: 'uploaded' };
    const p = (age - v.uploadedMs) / Math.max(1, v.processingMs);
    if (p < 1 || !v.outcome) return { status: 'processing', progress: Math.min(99, Math.floor(p * 100)) };
    if (!v.outcome.ok) return { status: 'failed', error_message: v.outcome.message };
    return { status: 'processed', progress: 100 };
  }

  private videoStatus(ctx: Ctx): void {
    const v = this.state.videos.get(ctx.param);
    if (!v) throw new HttpError(404, `no video with id ${ctx.param}`);
    this.ok(ctx, { video_id: v.id, ...this.videoState(v) });
  }

  // ---- admin -----------------------------------------------------------------------------------

  private async handleAdmin(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    try {
      const route = `${req.method} ${url.pathname}`;
      const body = req.method === 'POST' ? await readBody(req, 10 * 1024 * 1024).then((b) => (b.length ? (JSON.parse(b.toString('utf8')) as unknown) : {})) : undefined;
      switch (route) {
        case 'GET /__admin/health':
          return sendJson(res, 200, { ok: true });
        case 'GET /__admin/config':
          return sendJson(res, 200, this.config);
        case 'POST /__admin/config':
          return sendJson(res, 200, this.setConfig(body));
        case 'GET /__admin/stats':
          return sendJson(res, 200, this.state.snapshotStats());
        case 'GET /__admin/sends':
          return sendJson(res, 200, { sends: this.state.sends, counts: countSends(this.state.sends) });
        case 'POST /__admin/reset': {
          const what = z.object({ data: z.boolean().optional(), stats: z.boolean().optional() }).parse(body);
          this.reset(what);
          return sendJson(res, 200, { ok: true });
        }
        case 'GET /__admin/keys':
          return sendJson(res, 200, [...this.state.keys.values()].map((k) => ({ key: k.key, qps: k.qps, quota: k.quota, used: k.used })));
        case 'POST /__admin/keys':
          this.setKey(keyPatchSchema.parse(body));
          return sendJson(res, 200, { ok: true });
        case 'POST /__admin/fail-next': {
          const spec = z.object({ status: z.number().int().min(400).max(599), count: z.number().int().min(1).optional(), endpoint: z.string().optional(), retryAfterSeconds: z.number().int().min(0).optional(), afterWork: z.boolean().optional() }).strict().parse(body);
          this.failNext(spec);
          return sendJson(res, 200, { ok: true });
        }
        default:
          return sendJson(res, 404, { error: 'not_found', message: `no admin route ${route}` });
      }
    } catch (e) {
      req.resume();
      return sendJson(res, 400, { error: 'bad_request', message: e instanceof Error ? e.message : String(e) });
    }
  }

  setKey(p: { key: string; qps?: number | null; quota?: number | null; used?: number }): void {
    const existing = this.state.keys.get(p.key);
    this.state.setKey({
      key: p.key,
      qps: p.qps !== undefined ? p.qps : (existing?.qps ?? null),
      quota: p.quota !== undefined ? p.quota : (existing?.quota ?? null),
      used: p.used,
    });
  }

  reset(what: { data?: boolean; stats?: boolean } = {}): void {
    const all = what.data === undefined && what.stats === undefined;
    if (all || what.data) this.state.clearData();
    if (all || what.stats) this.state.clearStats();
    this.failQueue.length = 0;
    this.failRandom = prng(this.config.failureSeed);
    this.taskRandom = prng(this.config.failureSeed + 1);
  }
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/** Starts an emulator on 127.0.0.1 in this process. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const { port: wantedPort = 0, keys = [], configFile, ...knobs } = options;
  let config = DEFAULT_CONFIG;
  const keySpecs: KeySpec[] = [];
  if (configFile) {
    const loaded = loadConfigFile(configFile);
    config = mergeConfig(config, loaded.config);
    keySpecs.push(...loaded.keys);
  }
  config = mergeConfig(config, knobs);
  for (const k of keys) keySpecs.push(typeof k === 'string' ? parseKeySpec(k) : k);
  const emu = new Emulator(config, keySpecs);

  const sockets = new Set<net.Socket>();
  const makeServer = () => {
    const s = http.createServer((req, res) => {
      // Says on every answer that it is a test double (a header the spec does not define, so no real
      // service sends it): the app tells the editor that its search follows colours, not meaning.
      res.setHeader(EMULATOR_HEADER, '1');
      emu.handle(req, res).catch((e: unknown) => {
        process.stderr.write(`emulator: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
        if (!res.headersSent) sendJson(res, 500, { error: 'internal_error' });
      });
    });
    s.on('connection', (sock) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
    s.keepAliveTimeout = 5000;
    return s;
  };
  let server: http.Server | undefined = makeServer();
  const port = await listen(server, wantedPort);

  const stop = async () => {
    if (!server) return;
    const s = server;
    server = undefined;
    const closed = new Promise<void>((r) => s.close(() => r()));
    for (const sock of sockets) sock.destroy();
    await closed;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    admin: {
      getConfig: () => emu.config,
      setConfig: (patch) => emu.setConfig(patch),
      setKey: (p) => emu.setKey(p),
      failNext: (spec) => emu.failNext(spec),
      reset: (what) => emu.reset(what),
    },
    stats: () => emu.state.snapshotStats(),
    sends: () => structuredClone(emu.state.sends),
    suspend: stop,
    resume: async () => {
      if (server) return;
      server = makeServer();
      await listen(server, port);
    },
    close: async () => {
      await stop();
      fs.rmSync(emu.tmpDir, { recursive: true, force: true });
    },
  };
}
