import os from 'node:os';
import { AnalysisPool, type AnalysisPoolOptions } from '../analysis/analysis-pool';
import type { CatalogDb } from '../catalog/open-catalog';
import { decodeThreads } from '../media/clip-decoder';
import type { EventBus } from '../rpc/event-bus';
import type { ServiceClient } from '../service/client';
import { DEFAULT_TENSOR_PROFILE, type TensorProfile } from '../tensors/tensor-profile';
import type { Logger } from '../util/logger';
import type { ClipJobs, JobsSummary, NetworkState } from '../../../src-shared/contract/jobs';
import { clipCounts, clipJobsOf, foldState, isActive, listOrder, NETWORK_STAGES, remoteClipJobs, STAGE_INDEX, type ClipForJobs, type ClipListFilter, type FoldContext, type FoldedRow } from './view/clip-jobs-fold';
import type { BackoffOptions } from './queue/error-policy';
import { JobsEta } from './view/jobs-eta';
import { createJobsViewStore, type JobsViewStore } from './view/jobs-view-store';
import { BlockWatch } from './watch/block-watch';
import { JobQueue } from './queue/job-queue';
import type { DiskRoomCheck } from './queue/queue-options';
import type { GateState } from './queue/gate';
import { cancelTarget, pauseTarget, resumeTarget, retryFailedJobs, retryTarget, type JobTarget } from './queue/job-targets';
import type { Job, JobResource } from './queue/job-types';
import { watchNetwork } from './watch/network-watch';
import { ServiceRecovery } from './watch/service-recovery';
import { DEFAULT_PROXY_BUDGET_GB } from '../../../src-shared/contract/settings';
import { clipsMissingProxies } from '../proxies/proxy-backfill';
import type { ProxySettings } from '../proxies/proxy-policy';
import type { ClipShare, StageDeps } from './pipeline-deps';
import { InFlight } from './stages/run-pool';
import { SegmentStore } from './service-cache/segment-store';
import { URL_PROFILE_ID } from '../library/remote-clips';
import { ShotFrameCache } from './stages/shot-frame-cache';
import { posterStage, probeStage } from './stages/media-stages';
import { defaultPollDelay, pollStage } from './stages/poll-stage';
import { indexStage } from './stages/index-stage';
import { submitStage } from './stages/submit-stage';
import { analysisStage } from './stages/analysis-stage';
import { uploadStage } from './stages/upload-stage';
import { proxyStage } from './stages/proxy-stage';

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
  /** The team library's share of the work while this seat is joined (clip-sharing.ts); solo when absent or null. */
  share?: () => ClipShare | null;
  /** When decodes also write viewing proxies and their space; 'needed' and the default budget when absent. */
  proxySettings?: () => ProxySettings;
}

/** Priority of the first clip of an enqueued batch (a clip the user opens gets the queue's HIGH_PRIORITY, 100). */
const LEAD_PRIORITY = 1;

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
  private readonly view: JobsViewStore;
  private readonly eta: JobsEta;
  private readonly watch: ReturnType<typeof watchNetwork>;
  private readonly diskWatch: BlockWatch | null;
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
    this.view = createJobsViewStore(o.db);
    const disk = o.disk;
    // While the disk block holds, the free space is read every 2 s (a statfs call, nothing written).
    // Each look that finds no room yet says the figures it read: the banner's free space is live, not the first reading's.
    const diskClears = (d: DiskRoomCheck) => () => {
      if (d.room().ok) return true;
      this.queue.block('disk', d.describe());
      return false;
    };
    this.diskWatch = disk ? new BlockWatch(this.queue, { reason: 'disk', clears: diskClears(disk), delay: { initialMs: 2000, maxMs: 2000 } }) : null;
    this.deps = {
      db: o.db,
      store: this.store,
      profile: this.profile,
      cacheDir: o.cacheDir,
      client: () => o.service.client(),
      identity: () => o.service.identity(),
      tools: o.tools ?? (() => ({})),
      decodeThreads: (job) => decodeThreads(os.availableParallelism(), decodesAtOnce(this.queue.runningJobs(), job)),
      proxySettings: o.proxySettings ?? (() => ({ policy: 'needed', budgetBytes: DEFAULT_PROXY_BUDGET_GB * 1e9 })),
      analysisPool: () => (this.pool ??= new AnalysisPool(o.analysis)),
      callsPerJob: o.callsPerJob ?? 4,
      pollDelayMs: o.pollDelayMs ?? defaultPollDelay,
      maxResubmits: o.maxResubmits ?? 2,
      inflight: new InFlight(),
      // The Library view re-queries on this, as it does after its own media queue's work.
      mediaChanged: (clipId) => o.events?.emit('catalog.changed', { reason: 'media', clipIds: [clipId] }),
      frameCache: new ShotFrameCache(o.frameCacheBytes ?? 256 * 1024 * 1024),
      share: o.share ?? (() => null),
      logger: o.logger,
    };
    const d = this.deps;
    for (const h of [probeStage(d), posterStage(d), analysisStage(d), uploadStage(d), submitStage(d), pollStage(d), indexStage(d, (c, n) => this.clipIndexed(c, n)), proxyStage(d)]) {
      this.queue.register(h);
    }
    this.eta = new JobsEta((clipId) => this.queue.store.stageFinishedAt(clipId, 'submit'));
    // The latest finished runs, oldest first: the ETA starts from what this machine did last time.
    this.eta.observe(
      this.queue.store
        .finished(500)
        .reverse()
        .map((r) => ({ stage: r.stage, clipId: r.clip_id, runMs: r.run_ms, workS: r.work_s, finishedAt: r.finished_at })),
    );
    this.watch = watchNetwork(this.queue, {
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
    if (this.o.autoIndex) {
      this.enqueueClips();
      this.enqueueProxies();
    }
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
    const ids = clipIds ?? this.view.clipsToIndex({ restart: opts.restart === true, profileId: this.profile.id });
    let n = 0;
    for (const id of ids) {
      const meta = this.view.clipForJobs(id);
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

  /**
   * Background proxies for clips indexed without one that Settings want one for (the lowest lane:
   * after all indexing).  A clip that had a proxy job (done, or stopped: failed, cancelled) is left to the editor's retry.
   */
  enqueueProxies(): number {
    let n = 0;
    for (const id of clipsMissingProxies(this.o.db, this.deps.proxySettings().policy, process.platform)) {
      // One made and evicted by the budget since, or stopped by the editor, is not made again here.
      if (this.queue.find(id, 'proxy')) continue;
      this.queue.enqueue({ clipId: id, stage: 'proxy' });
      n++;
    }
    return n;
  }

  prioritizeClip(clipId: number): number {
    return this.queue.prioritizeClip(clipId);
  }

  pause(t: JobTarget): number {
    return pauseTarget(this.queue, t);
  }

  resume(t: JobTarget): number {
    return resumeTarget(this.queue, t);
  }

  cancel(t: JobTarget): number {
    return cancelTarget(this.queue, t);
  }

  /** A retry also re-arms tasks the service failed for good, so they are submitted afresh. */
  retry(t: JobTarget): number {
    if (t.background === undefined) {
      const clipId = t.jobId !== undefined ? this.queue.get(t.jobId)?.clipId : t.clipId;
      if (clipId !== undefined && clipId !== null) this.rearmFailedTasks(clipId);
    }
    return retryTarget(this.queue, t);
  }

  retryFailed(): number {
    const clips = this.queue.list({ states: ['failed'] }).map((j) => j.clipId);
    for (const c of new Set(clips)) if (c !== null) this.rearmFailedTasks(c);
    return retryFailedJobs(this.queue);
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
    this.enqueueProxies();
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
    const folded = this.folded();
    if (!this.eta.shown) this.advanceEta(folded);
    return this.summaryOf(folded);
  }

  private foldContext(): FoldContext {
    return { currentProfiles: [this.profile.id, URL_PROFILE_ID], gateOpen: this.queue.gate().open, stageMayRun: (st) => this.queue.stageMayRun(st) };
  }

  /** Every clip's frontier folded (the gate read once for the whole list). */
  private folded(clipIds?: readonly number[]): FoldedRow[] {
    const ctx = this.foldContext();
    return this.view.frontiers(clipIds).map((r) => ({ r, state: foldState(r, ctx) }));
  }

  /** One refresh of the shown ETA (eta-display.ts): once per summary event, whoever reads it. */
  private advanceEta(folded: readonly FoldedRow[]): void {
    this.eta.advance(
      folded.filter((x) => isActive(x.state)),
      this.queue.gate().open,
      this.slots(),
      Date.now(),
    );
  }

  private summaryOf(folded: readonly FoldedRow[]): JobsSummary {
    const clips = clipCounts(folded);
    const shown = this.eta.shown;
    return {
      clips,
      otherJobs: this.view.otherJobs(),
      background: this.view.background(),
      etaMs: clips.active === 0 ? 0 : (shown?.ms ?? null),
      etaNote: shown?.note ?? null,
      network: this.networkState(),
      updatedAt: Date.now(),
    };
  }

  listClips(filter: ClipListFilter = 'all', offset = 0, limit = 200): { clips: ClipJobs[]; total: number } {
    const all = listOrder(this.folded(), filter);
    const page = all.slice(offset, offset + limit).map(({ r }) => this.clipJobs(r.clip_id)).filter((c): c is ClipJobs => c !== null);
    return { clips: page, total: all.length };
  }

  /** The Library's cards in the same words as the Jobs view: each clip's jobs folded as the summary and the list fold them. */
  indexStates(clipIds: readonly number[]): Map<number, ClipJobs['state']> {
    const out = new Map<number, ClipJobs['state']>();
    if (clipIds.length === 0) return out;
    for (const { r, state } of this.folded(clipIds)) out.set(r.clip_id, state);
    return out;
  }

  /** One clip's jobs folded into where it is (clip-jobs-fold.ts). */
  clipJobs(clipId: number): ClipJobs | null {
    const clip = this.view.clipForJobs(clipId);
    if (!clip) return null;
    if (clip.source_url !== null) return remoteClipJobs(clip, this.store.segmentCount(clip.id, URL_PROFILE_ID));
    return clipJobsOf(clip, this.queue.list({ clipId }), this.store.segmentCount(clipId, this.profile.id), this.foldContext());
  }

  // ---- internals ----------------------------------------------------------------------

  private slots(): Record<JobResource, number> {
    return { cpu: this.o.concurrency?.cpu ?? 1, network: this.o.concurrency?.network ?? 3 };
  }

  private isIndexed(meta: ClipForJobs): boolean {
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
      this.queue.store.remove(j.id);
    }
  }

  private rearmFailedTasks(clipId: number): void {
    this.store.rearmFailedTasks(clipId, this.profile.id, this.o.service.identity().region);
  }

  private onJob(j: Job): void {
    if (j.state === 'done' && j.finishedAt) this.eta.observe([{ stage: j.stage, clipId: j.clipId, runMs: j.runMs ?? null, workS: j.workS ?? null, finishedAt: j.finishedAt }]);
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
    // Indexed without writing a proxy (its analysis had run before): the background makes it.
    if (clipsMissingProxies(this.o.db, this.deps.proxySettings().policy, process.platform, clipId).length > 0 && !this.queue.find(clipId, 'proxy')) this.queue.enqueue({ clipId, stage: 'proxy' });
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
      const folded = this.folded();
      this.advanceEta(folded);
      events.emit('jobs.summary', this.summaryOf(folded));
    } catch (e) {
      // The catalog closed under a late timer (shutdown): nothing to report any more.
      this.o.logger?.debug('pipeline.flush.skipped', { message: (e as Error).message });
    }
  }
}
