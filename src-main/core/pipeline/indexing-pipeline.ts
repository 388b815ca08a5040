import os from 'node:os';
import { AnalysisPool, type AnalysisPoolOptions } from '../analysis/analysis-pool';
import type { CatalogDb } from '../catalog/open-catalog';
import { decodeThreads } from '../media/clip-decoder';
import type { EventBus } from '../rpc/event-bus';
import type { ServiceClient } from '../service/client';
import { DEFAULT_TENSOR_PROFILE, type TensorProfile } from '../tensors/tensor-profile';
import type { Logger } from '../util/logger';
import type { ClipStatus } from '../../../src-shared/contract/library';
import { STAGE_GRAPH } from '../../../src-shared/contract/stage-graph';
import { INDEX_STAGES, type StageName, type ClipJobs, type JobsSummary, type JobView, type NetworkState } from '../../../src-shared/contract/jobs';
import type { BackoffOptions } from './error-policy';
import { EtaModel, type ClipRemaining } from './eta';
import { nextShownEta, type ShownEta } from './eta-display';
import { DiskWatch } from './disk-watch';
import { JobQueue, type DiskRoomCheck, type GateState } from './job-queue';
import type { Job, JobResource } from './job-types';
import { NetworkWatch } from './network-watch';
import { ServiceRecovery } from './service-recovery';
import type { StageDeps } from './pipeline-deps';
import { InFlight } from './run-pool';
import { SegmentStore } from './segment-store';
import { URL_PROFILE_ID } from '../library/remote-clips';
import { ShotFrameCache } from './shot-frame-cache';
import { posterStage, probeStage } from './stages/media-stages';
import { defaultPollDelay, pollStage } from './stages/poll-stage';
import { indexStage } from './stages/index-stage';
import { submitStage } from './stages/submit-stage';
import { analysisStage } from './stages/analysis-stage';
import { uploadStage } from './stages/upload-stage';

/** What the pipeline needs of the service settings (the app's ServiceProvider fits). */
export interface ServiceAccess {
  client(): ServiceClient;
  configured(): boolean;
  identity(): { region: string; model: string };
}

export interface IndexingPipelineOptions {
  db: CatalogDb;
  /** App cache folder (thumbnails go to its thumbs/). */
  cacheDir: string;
  service: ServiceAccess;
  /** Where jobs.* events go. */
  events?: EventBus;
  profile?: TensorProfile;
  tools?: () => { ffmpeg?: string; ffprobe?: string };
  concurrency?: Partial<Record<JobResource, number>>;
  /** Service calls one network job makes at once. */
  callsPerJob?: number;
  analysis?: AnalysisPoolOptions;
  backoff?: BackoffOptions;
  offlineProbe?: { initialMs: number; maxMs: number };
  /** How soon, then how seldom, jobs failed by the service's own trouble look for it to be well again. */
  recoveryProbe?: { initialMs: number; maxMs: number };
  /** null (default): after a 402 only the user resumes; a number re-checks quota that often. */
  quotaProbeMs?: number | null;
  pollDelayMs?: (ageMs: number) => number;
  maxResubmits?: number;
  /** Decoded shots kept in memory between planning and upload; 0 always decodes again. */
  frameCacheBytes?: number;
  /** At start, queue every clip not indexed (the work a previous run left). */
  autoIndex?: boolean;
  /** Minimum spacing of jobs.clips / jobs.summary events. */
  eventIntervalMs?: number;
  logger?: Logger;
  onClipIndexed?: (clipId: number, segments: number) => void;
  /** Room to write in the data folder: without it every stage waits, and carries on when there is. */
  disk?: DiskRoomCheck;
}

/** Priority of the first clip of an enqueued batch (a clip the user opens gets the queue's HIGH_PRIORITY, 100). */
const LEAD_PRIORITY = 1;

export type JobTarget = { jobId: number; clipId?: undefined } | { clipId: number; jobId?: undefined };

const STAGE_INDEX = new Map<string, number>(INDEX_STAGES.map((s, i) => [s, i]));
const NETWORK_STAGES = new Set<string>(INDEX_STAGES.filter((st) => STAGE_GRAPH[st].resource === 'network'));

function jobView(j: Job): JobView {
  return {
    id: j.id,
    clipId: j.clipId,
    stage: j.stage,
    state: j.state,
    resource: j.resource,
    priority: j.priority,
    attempts: j.attempts,
    progress: j.progress,
    note: j.note ?? null,
    errorKind: j.lastErrorKind,
    errorMessage: j.lastErrorMessage,
    notBefore: j.notBefore,
    updatedAt: j.updatedAt ?? 0,
    runMs: j.runMs ?? 0,
  };
}

interface FrontierRow {
  clip_id: number;
  stage: StageName;
  state: Job['state'];
  progress: number;
  resource: JobResource;
  priority: number;
  duration_s: number | null;
  indexed_at: number | null;
  indexed_profile: string | null;
}

interface ClipMeta {
  id: number;
  file_name: string;
  /** A clip added by URL: indexed by the service from its address, no local stage applies. */
  source_url: string | null;
  /** The stored status (clips-repository writes pending, probed, done, error, unsupported). */
  status: ClipStatus;
  duration_s: number | null;
  indexed_at: number | null;
  indexed_profile: string | null;
}

/**
 * Where a clip is: its furthest stage that is not done (a stage re-run after a later one, as a
 * resubmission does, is where the clip is), or its furthest stage when all are done.
 */
function frontierOf(jobs: readonly Job[]): Job | null {
  const furthest = (list: readonly Job[]) => list.reduce<Job | null>((best, j) => (!best || STAGE_INDEX.get(j.stage)! > STAGE_INDEX.get(best.stage)! ? j : best), null);
  return furthest(jobs.filter((j) => j.state !== 'done')) ?? furthest(jobs);
}

/**
 * How many jobs share the cores when `caller` starts a decode: the running CPU jobs (a caller on
 * the CPU lane is one of them) plus the caller when it runs on the network lane (the upload
 * stage's rebuild decodes there).
 */
export function decodesAtOnce(running: ReadonlyArray<Pick<Job, 'id' | 'resource'>>, caller: Pick<Job, 'id'>): number {
  const cpu = running.filter((j) => j.resource === 'cpu');
  return cpu.length + (cpu.some((j) => j.id === caller.id) ? 0 : 1);
}

/**
 * The indexing pipeline: the durable queue with the nine stages registered, the network watch,
 * the ETA and the events the Jobs view and the banner live on. One per app.
 */
export class IndexingPipeline {
  readonly queue: JobQueue;
  readonly store: SegmentStore;
  readonly profile: TensorProfile;
  private readonly deps: StageDeps;
  private readonly eta: EtaModel;
  private shownEta: ShownEta | null = null;
  private readonly watch: NetworkWatch;
  private readonly diskWatch: DiskWatch | null;
  private readonly recovery: ServiceRecovery;
  private pool: AnalysisPool | null = null;
  private readonly dirtyClips = new Set<number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private lastFlush = 0;
  private readonly unsubscribers: Array<() => void> = [];
  private started = false;

  constructor(private readonly o: IndexingPipelineOptions) {
    this.profile = o.profile ?? DEFAULT_TENSOR_PROFILE;
    this.store = new SegmentStore(o.db);
    this.queue = new JobQueue({ db: o.db, concurrency: o.concurrency, backoff: o.backoff, logger: o.logger, disk: o.disk });
    this.diskWatch = o.disk ? new DiskWatch(this.queue, o.disk) : null;
    this.deps = {
      db: o.db,
      store: this.store,
      profile: this.profile,
      cacheDir: o.cacheDir,
      client: () => o.service.client(),
      identity: () => o.service.identity(),
      tools: o.tools ?? (() => ({})),
      decodeThreads: (job) => decodeThreads(os.availableParallelism(), decodesAtOnce(this.queue.runningJobs(), job)),
      analysisPool: () => (this.pool ??= new AnalysisPool(o.analysis)),
      callsPerJob: o.callsPerJob ?? 4,
      pollDelayMs: o.pollDelayMs ?? defaultPollDelay,
      maxResubmits: o.maxResubmits ?? 2,
      inflight: new InFlight(),
      // The Library view re-queries on this, as it does after its own media queue's work.
      mediaChanged: (clipId) => o.events?.emit('catalog.changed', { reason: 'media', clipIds: [clipId] }),
      frameCache: new ShotFrameCache(o.frameCacheBytes ?? 256 * 1024 * 1024),
      logger: o.logger,
    };
    const d = this.deps;
    for (const h of [probeStage(d), posterStage(d), analysisStage(d), uploadStage(d), submitStage(d), pollStage(d), indexStage(d, (c, n) => this.clipIndexed(c, n))]) {
      this.queue.register(h);
    }
    this.eta = new EtaModel((stage) => (NETWORK_STAGES.has(stage) ? 'network' : 'cpu'));
    this.seedEta();
    this.watch = new NetworkWatch(this.queue, {
      client: () => o.service.client(),
      offlineProbe: o.offlineProbe,
      quotaProbeMs: o.quotaProbeMs ?? null,
      logger: o.logger,
    });
    this.recovery = new ServiceRecovery(this.queue, {
      client: () => o.service.client(),
      probe: o.recoveryProbe,
      logger: o.logger,
      rearm: (jobs) => jobs.filter((j) => this.retry({ jobId: j.id }) > 0).length,
    });
    this.unsubscribers.push(
      this.queue.onJob((j) => this.onJob(j)),
      this.queue.onGate((g) => this.onGate(g)),
    );
  }

  /** Crash recovery happens here (running jobs back to queued); then work starts. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.queue.start();
    this.recovery.start();
    if (this.o.autoIndex) this.enqueueClips();
    this.scheduleFlush(true);
  }

  async stop(): Promise<void> {
    this.watch.stop();
    this.diskWatch?.stop();
    this.recovery.stop();
    for (const u of this.unsubscribers.splice(0)) u();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    await this.queue.stop();
    await this.pool?.close();
    this.pool = null;
    this.started = false;
  }

  // ---- commands ---------------------------------------------------------------------------

  /**
   * Queues indexing for these clips (every catalogued clip when omitted). A clip already indexed
   * with this profile, or with work in the queue, is left alone unless `restart`.
   */
  enqueueClips(clipIds?: readonly number[], opts: { restart?: boolean; priority?: number } = {}): number {
    // Without ids (start-up, "index everything"): SQL leaves out clips with work queued, failed or done.
    const ids =
      clipIds ??
      (
        this.o.db
          .prepare(
            opts.restart
              ? 'SELECT id FROM clips WHERE source_url IS NULL ORDER BY id'
              : `SELECT c.id FROM clips c WHERE c.source_url IS NULL AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.clip_id = c.id AND j.state IN ('queued', 'running', 'paused', 'failed', 'cancelled'))
                 AND (c.indexed_at IS NULL OR c.indexed_profile IS NOT ?) ORDER BY c.id`,
          )
          .all(...(opts.restart ? [] : [this.profile.id])) as { id: number }[]
      ).map((r) => r.id);
    let n = 0;
    for (const id of ids) {
      const meta = this.clipMeta(id);
      if (!meta || meta.source_url !== null) continue;
      const jobs = this.queue.list({ clipId: id });
      // A `pending` row holds nothing derived: a job past the probe belongs to content the import
      // found changed and reset (it would run on a row with no size), and a failed or cancelled
      // probe (the card was pulled, ffprobe was wrong) is worth another try when the clip is handed
      // over again (a re-import, the drive back). Both start again from the probe.
      const stopped = jobs.some((j) => j.state === 'failed' || j.state === 'cancelled');
      const stale = meta.status === 'pending' && (stopped || jobs.some((j) => STAGE_INDEX.has(j.stage) && j.stage !== 'probe'));
      const restart = opts.restart === true || stale;
      const active = jobs.some((j) => j.state === 'queued' || j.state === 'running' || j.state === 'paused');
      if (!restart && active) {
        // Handed over again while it waits: a probe held back by a drive that was away runs now.
        this.queue.wakeClip(id);
        continue;
      }
      if (!restart && this.isIndexed(meta)) continue;
      if (!restart && stopped) continue;
      if (restart) this.restartClip(id);
      // The first clip of a batch leads: it goes through every stage on one CPU slot while the
      // other slots make the rest of the card's posters, so something is searchable within seconds.
      const priority = Math.max(opts.priority ?? 0, n === 0 && ids.length > 1 ? LEAD_PRIORITY : 0);
      this.queue.enqueue({ clipId: id, stage: 'probe', workS: meta.duration_s, priority }, { reset: true });
      n++;
    }
    return n;
  }

  prioritizeClip(clipId: number): number {
    return this.queue.prioritizeClip(clipId);
  }

  pause(t: JobTarget): number {
    if (t.jobId !== undefined) return this.queue.pauseJob(t.jobId) ? 1 : 0;
    return this.queue.pauseClip(t.clipId);
  }

  resume(t: JobTarget): number {
    if (t.jobId !== undefined) return this.queue.resumeJob(t.jobId) ? 1 : 0;
    return this.queue.resumeClip(t.clipId);
  }

  cancel(t: JobTarget): number {
    if (t.jobId !== undefined) return this.queue.cancelJob(t.jobId) ? 1 : 0;
    return this.queue.cancelClip(t.clipId);
  }

  /** A retry also re-arms tasks the service failed for good, so they are submitted afresh. */
  retry(t: JobTarget): number {
    const clipId = t.jobId !== undefined ? this.queue.get(t.jobId)?.clipId : t.clipId;
    if (clipId !== undefined && clipId !== null) this.rearmFailedTasks(clipId);
    if (t.jobId !== undefined) return this.queue.retryJob(t.jobId)?.state === 'queued' ? 1 : 0;
    return this.queue.retryClip(t.clipId);
  }

  retryFailed(): number {
    const clips = this.queue.list({ states: ['failed'] }).map((j) => j.clipId);
    for (const c of new Set(clips)) if (c !== null) this.rearmFailedTasks(c);
    return this.queue.retryAll();
  }

  pauseNetwork(): NetworkState {
    this.queue.block('user', 'network stages paused by you');
    return this.networkState();
  }

  /** The user's Resume: lifts their pause, a quota stop and an auth stop; re-probes when offline. */
  resumeNetwork(): NetworkState {
    try {
      const c = this.o.service.client();
      c.resumeQuota();
      c.clearAuthRejection();
    } catch {
      // Not configured: the next network stage blocks on auth again, with the reason.
    }
    this.queue.unblock('user', 'quota', 'auth');
    this.watch.probeNow();
    return this.networkState();
  }

  /** A new key or URL may fix an auth stop or an unreachable service. */
  onSettingsChanged(): void {
    if (this.queue.isBlocked('auth')) {
      try {
        this.o.service.client().clearAuthRejection();
      } catch {
        return; // still no key: stay blocked
      }
      this.queue.unblock('auth');
    }
    this.watch.probeNow();
  }

  // ---- views --------------------------------------------------------------------------

  networkState(): NetworkState {
    const g = this.queue.gate();
    return {
      open: g.open,
      reason: g.primary?.reason ?? null,
      message: g.primary?.message ?? null,
      since: g.primary?.since ?? null,
      reasons: g.blocks.map((b) => b.reason),
      configured: this.o.service.configured(),
    };
  }

  /** The Jobs summary with the ETA as last shown (reading it does not move it; flush() does). */
  summary(): JobsSummary {
    const f = this.fold();
    if (!this.shownEta) this.advanceEta(f);
    return this.summaryOf(f);
  }

  private fold() {
    const rows = this.frontiers();
    const gateOpen = this.queue.gate().open;
    const states = rows.map((r) => ({ r, state: this.foldState(r, gateOpen) }));
    const active = states.filter((x) => x.state === 'running' || x.state === 'waiting' || x.state === 'blocked');
    return { rows, gateOpen, states, active };
  }

  /** One refresh of the shown ETA (eta-display.ts): once per summary event, whoever reads it. */
  private advanceEta(f: ReturnType<IndexingPipeline['fold']>): void {
    const { active, gateOpen } = f;
    let etaMs: number | null = null;
    if (active.length === 0) etaMs = 0;
    else if (gateOpen || active.every((x) => !INDEX_STAGES.slice(STAGE_INDEX.get(x.r.stage) ?? 0).some((st) => NETWORK_STAGES.has(st)))) {
      const remaining: ClipRemaining[] = active.map(({ r }) => ({
        stage: r.stage,
        progress: r.state === 'done' ? 1 : r.progress,
        later: INDEX_STAGES.slice((STAGE_INDEX.get(r.stage) ?? 0) + 1),
        workS: r.duration_s,
      }));
      etaMs = this.eta.estimate(remaining, this.slots());
    }
    this.shownEta = nextShownEta(this.shownEta, { rawMs: etaMs, now: Date.now(), activeClips: active.length, networkOpen: gateOpen });
  }

  private summaryOf(f: ReturnType<IndexingPipeline['fold']>): JobsSummary {
    const { rows, states, active } = f;
    return {
      totals: this.queue.totals(),
      clips: {
        total: rows.length,
        done: states.filter((x) => x.state === 'done').length,
        active: active.length,
        failed: states.filter((x) => x.state === 'failed').length,
      },
      etaMs: active.length === 0 ? 0 : (this.shownEta?.ms ?? null),
      etaNote: this.shownEta?.note ?? null,
      network: this.networkState(),
      updatedAt: Date.now(),
    };
  }

  listClips(filter: 'all' | 'active' | 'failed' | 'done' = 'all', offset = 0, limit = 200): { clips: ClipJobs[]; total: number } {
    const gateOpen = this.queue.gate().open;
    const rank: Record<ClipJobs['state'], number> = { running: 0, blocked: 1, waiting: 2, failed: 3, paused: 4, cancelled: 5, done: 6 };
    const all = this.frontiers()
      .map((r) => ({ r, state: this.foldState(r, gateOpen) }))
      .filter(({ state }) => {
        if (filter === 'active') return state !== 'done' && state !== 'failed' && state !== 'cancelled';
        if (filter === 'failed') return state === 'failed';
        if (filter === 'done') return state === 'done';
        return true;
      })
      .sort((a, b) => rank[a.state] - rank[b.state] || b.r.priority - a.r.priority || (b.r.indexed_at ?? 0) - (a.r.indexed_at ?? 0) || a.r.clip_id - b.r.clip_id);
    const page = all.slice(offset, offset + limit).map(({ r }) => this.clipJobs(r.clip_id)).filter((c): c is ClipJobs => c !== null);
    return { clips: page, total: all.length };
  }

  /** The Library's cards in the same words as the Jobs view: each clip's jobs folded as the summary and the list fold them. */
  indexStates(clipIds: readonly number[]): Map<number, ClipJobs['state']> {
    const out = new Map<number, ClipJobs['state']>();
    if (clipIds.length === 0) return out;
    const gateOpen = this.queue.gate().open;
    for (const r of this.frontiers(clipIds)) out.set(r.clip_id, this.foldState(r, gateOpen));
    return out;
  }

  /**
   * Each clip's furthest indexing job in one query (of the given clips, or all): what the summary
   * and the list sort by. A clip added by URL has no jobs: the service indexed it from its address
   * when it was added (service-actions/add-by-url), so it stands as one finished index step, or a
   * failed one when the add was cut short before it was indexed; the Jobs view counts it with the
   * rest, as the Library does.
   */
  private frontiers(clipIds?: readonly number[]): FrontierRow[] {
    const idx = `CASE stage ${INDEX_STAGES.map((st, i) => `WHEN '${st}' THEN ${i}`).join(' ')} END`;
    const name = `CASE f.si ${INDEX_STAGES.map((st, i) => `WHEN ${i} THEN '${st}'`).join(' ')} END`;
    const only = (col: string) => (clipIds ? `AND ${col} IN (SELECT value FROM json_each(?))` : '');
    return this.o.db
      .prepare(
        `WITH f AS (SELECT clip_id, COALESCE(MAX(CASE WHEN state <> 'done' THEN ${idx} END), MAX(${idx})) AS si
                   FROM jobs WHERE clip_id IS NOT NULL AND stage IN (${INDEX_STAGES.map((st) => `'${st}'`).join(',')})
                   ${only('clip_id')} GROUP BY clip_id)
         SELECT f.clip_id, j.stage, j.state, j.progress, j.resource, j.priority, c.duration_s, c.indexed_at, c.indexed_profile
         FROM f JOIN jobs j ON j.clip_id = f.clip_id AND j.stage = ${name} JOIN clips c ON c.id = f.clip_id
         UNION ALL
         SELECT c.id, 'index', CASE WHEN c.indexed_at IS NULL THEN 'failed' ELSE 'done' END, 1, 'network', 0, c.duration_s, c.indexed_at, c.indexed_profile
         FROM clips c WHERE c.source_url IS NOT NULL ${only('c.id')}`,
      )
      .all(...(clipIds ? [JSON.stringify(clipIds), JSON.stringify(clipIds)] : [])) as FrontierRow[];
  }

  private foldState(r: Pick<FrontierRow, 'stage' | 'state' | 'resource' | 'indexed_at' | 'indexed_profile'>, gateOpen: boolean): ClipJobs['state'] {
    // gateOpen is read once per list; the per-stage answer covers polls running through a quota pause.
    if (r.state === 'done') {
      const current = r.indexed_profile === this.profile.id || r.indexed_profile === URL_PROFILE_ID;
      return r.stage === 'index' && r.indexed_at !== null && current ? 'done' : 'waiting';
    }
    if (r.state === 'running') return 'running';
    if (r.state === 'queued') return r.resource === 'network' && !gateOpen && !this.queue.stageMayRun(r.stage) ? 'blocked' : 'waiting';
    if (r.state === 'paused' || r.state === 'failed' || r.state === 'cancelled') return r.state;
    return 'waiting';
  }

  /** One clip's jobs folded into where it is (ClipJobs in the contract documents the states). */
  clipJobs(clipId: number): ClipJobs | null {
    const meta = this.clipMeta(clipId);
    if (!meta) return null;
    if (meta.source_url !== null) return this.remoteClipJobs(meta);
    const jobs = this.queue.list({ clipId });
    const indexJobs = jobs.filter((j) => STAGE_INDEX.has(j.stage));
    const stageCount = INDEX_STAGES.length;
    const frontier = frontierOf(indexJobs);
    const stage = frontier?.stage ?? 'probe';
    const stageIndex = STAGE_INDEX.get(stage) ?? 0;
    const state: ClipJobs['state'] = frontier
      ? this.foldState({ stage: frontier.stage, state: frontier.state, resource: frontier.resource, indexed_at: meta.indexed_at, indexed_profile: meta.indexed_profile }, this.queue.gate().open)
      : 'waiting';
    const failed = indexJobs.find((j) => j.state === 'failed');
    const errorFrom = frontier?.lastErrorMessage ? frontier : failed;
    const within = frontier ? (frontier.state === 'done' ? 1 : frontier.progress) : 0;
    const seg = this.o.db.prepare('SELECT COUNT(*) AS n FROM segments WHERE clip_id = ? AND profile_id = ?').get(clipId, this.profile.id) as { n: number };
    return {
      clipId,
      name: meta.file_name,
      durationS: meta.duration_s,
      state,
      stage,
      stageIndex,
      stageCount,
      progress: state === 'done' ? 1 : Math.min(1, (stageIndex + within) / stageCount),
      note: frontier?.note ?? null,
      errorKind: errorFrom?.lastErrorKind ?? null,
      errorMessage: errorFrom?.lastErrorMessage ?? null,
      priority: frontier?.priority ?? 0,
      indexedAt: meta.indexed_at,
      segments: seg.n,
      jobs: jobs.sort((a, b) => (STAGE_INDEX.get(a.stage) ?? 99) - (STAGE_INDEX.get(b.stage) ?? 99) || a.id - b.id).map(jobView),
    };
  }

  /** A clip added by URL in the Jobs view's words: indexed by the service when it was added, no jobs. */
  private remoteClipJobs(meta: ClipMeta): ClipJobs {
    const indexed = meta.indexed_at !== null;
    const seg = this.o.db.prepare('SELECT COUNT(*) AS n FROM segments WHERE clip_id = ? AND profile_id = ?').get(meta.id, URL_PROFILE_ID) as { n: number };
    return {
      clipId: meta.id,
      name: meta.file_name,
      durationS: meta.duration_s,
      state: indexed ? 'done' : 'failed',
      stage: 'index',
      stageIndex: INDEX_STAGES.length - 1,
      stageCount: INDEX_STAGES.length,
      progress: indexed ? 1 : 0,
      note: 'indexed by the service from its address',
      errorKind: indexed ? null : 'cancelled',
      errorMessage: indexed ? null : 'the add was cut short before the service indexed it: add the address again',
      priority: 0,
      indexedAt: meta.indexed_at,
      segments: seg.n,
      jobs: [],
    };
  }

  // ---- internals ----------------------------------------------------------------------

  private slots(): Record<JobResource, number> {
    return { cpu: this.o.concurrency?.cpu ?? 1, network: this.o.concurrency?.network ?? 3 };
  }

  private clipMeta(clipId: number): ClipMeta | undefined {
    return this.o.db.prepare('SELECT id, file_name, source_url, status, duration_s, indexed_at, indexed_profile FROM clips WHERE id = ?').get(clipId) as ClipMeta | undefined;
  }

  private isIndexed(meta: ClipMeta): boolean {
    if (meta.indexed_at === null || meta.indexed_profile !== this.profile.id) return false;
    const cov = this.store.coverage(meta.id, this.profile.id);
    // A re-detection of shots (file changed) drops segments by cascade: then it is not indexed any more.
    return cov.segments > 0 && cov.embedded === cov.segments && cov.tagged === cov.segments && cov.shotsWithSegments > 0;
  }

  /** From the first stage again: later stages' rows go (the chain recreates them), a running one is cancelled first. */
  private restartClip(clipId: number): void {
    this.store.clearIndexed(clipId);
    for (const j of this.queue.list({ clipId })) {
      if (!STAGE_INDEX.has(j.stage) || j.stage === 'probe') continue;
      if (j.state === 'running') this.queue.cancelJob(j.id);
      this.o.db.prepare('DELETE FROM jobs WHERE id = ?').run(j.id);
    }
  }

  private rearmFailedTasks(clipId: number): void {
    const { region } = this.o.service.identity();
    for (const t of this.store.tasksOf(clipId, this.profile.id, region)) {
      if (t.status === 'failed' && t.task_id !== null) this.o.db.prepare("UPDATE service_tasks SET task_id = NULL, resubmits = 0 WHERE id = ?").run(t.id);
    }
  }

  private seedEta(): void {
    const rows = this.o.db
      .prepare(
        `SELECT stage, run_ms, work_s, started_at, finished_at, clip_id FROM jobs WHERE state = 'done' AND finished_at IS NOT NULL
         ORDER BY finished_at DESC LIMIT 500`,
      )
      .all() as { stage: string; run_ms: number; work_s: number | null; started_at: number | null; finished_at: number; clip_id: number | null }[];
    for (const r of rows.reverse()) {
      const ms = r.stage === 'poll' ? this.pollWallMs(r.clip_id, r.finished_at) : r.run_ms;
      if (ms !== null) this.eta.observe({ stage: r.stage, ms, workS: r.work_s });
    }
  }

  /** Poll mostly waits for the service: its cost is the wall time since the clip's tasks were submitted. */
  private pollWallMs(clipId: number | null, finishedAt: number): number | null {
    if (clipId === null) return null;
    const sub = this.o.db.prepare("SELECT finished_at FROM jobs WHERE clip_id = ? AND stage = 'submit'").get(clipId) as { finished_at: number | null } | undefined;
    return sub?.finished_at ? Math.max(0, finishedAt - sub.finished_at) : null;
  }

  private onJob(j: Job): void {
    if (j.state === 'done' && j.finishedAt) {
      const ms = j.stage === 'poll' ? this.pollWallMs(j.clipId, j.finishedAt) : (j.runMs ?? null);
      if (ms !== null) this.eta.observe({ stage: j.stage, ms, workS: j.workS ?? null });
    }
    if (j.clipId !== null) this.dirtyClips.add(j.clipId);
    this.scheduleFlush(false);
  }

  private onGate(g: GateState): void {
    if (g.primary && g.primary.reason !== 'user') this.o.events?.emit('jobs.attention', { reason: g.primary.reason, message: g.primary.message });
    // Every clip's blocked/waiting state may have flipped.
    for (const j of this.queue.list({ states: ['queued'], stages: [...NETWORK_STAGES] })) if (j.clipId !== null) this.dirtyClips.add(j.clipId);
    this.scheduleFlush(true);
  }

  private clipIndexed(clipId: number, segments: number): void {
    this.o.events?.emit('jobs.clipIndexed', { clipId, segments });
    this.o.onClipIndexed?.(clipId, segments);
  }

  private scheduleFlush(now: boolean): void {
    if (!this.o.events) return;
    const interval = this.o.eventIntervalMs ?? 250;
    if (now) {
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = null;
      this.flush();
      return;
    }
    if (this.flushTimer) return;
    const wait = Math.max(0, this.lastFlush + interval - Date.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, wait);
  }

  private flush(): void {
    const events = this.o.events;
    if (!events) return;
    this.lastFlush = Date.now();
    try {
      const ids = [...this.dirtyClips];
      this.dirtyClips.clear();
      const clips = ids.map((id) => this.clipJobs(id)).filter((c): c is ClipJobs => c !== null);
      if (clips.length > 0) events.emit('jobs.clips', { clips });
      const f = this.fold();
      this.advanceEta(f);
      events.emit('jobs.summary', this.summaryOf(f));
    } catch (e) {
      // The catalog closed under a late timer (shutdown): nothing to report any more.
      this.o.logger?.debug('pipeline.flush.skipped', { message: (e as Error).message });
    }
  }
}
