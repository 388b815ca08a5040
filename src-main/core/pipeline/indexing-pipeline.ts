import { ffPath } from '../media/ffmpeg-locate';
import { chooseProxyEncoder } from '../media/proxy-encoder';
import os from 'node:os';
import { AnalysisPool } from '../analysis/analysis-pool';
import { decodeThreads } from '../media/clip-decoder';
import { DEFAULT_TENSOR_PROFILE, type TensorProfile } from '../tensors/tensor-profile';
import type { ClipJobs, JobsSummary, NetworkState } from '../../../src-shared/contract/jobs';
import { STAGE_INDEX, type ClipForJobs, type ClipListFilter } from './view/clip-jobs-fold';
import { createJobsViewStore, type JobsViewStore } from './view/jobs-view-store';
import { JobsReport } from './view/jobs-report';
import { BlockWatch } from './watch/block-watch';
import { JobQueue } from './queue/job-queue';
import type { DiskRoomCheck } from './queue/queue-options';
import { cancelTarget, pauseTarget, resumeTarget, retryFailedJobs, retryTarget, type JobTarget } from './queue/job-targets';
import type { Job } from './queue/job-types';
import { watchNetwork } from './watch/network-watch';
import { ServiceRecovery } from './watch/service-recovery';
import { DEFAULT_PROXY_BUDGET_GB } from '../../../src-shared/contract/settings';
import { clipsMissingIdentities } from '../analysis/face-identity-store';
import { EMBEDDING_MODEL_FILE } from '../analysis/resource-paths';
import { clipsMissingProxies } from '../proxies/proxy-backfill';
import type { IndexingPipelineOptions } from './pipeline-options';
import type { StageDeps } from './pipeline-deps';
import { InFlight } from './stages/run-pool';
import { createSegmentStore, type SegmentStore } from './service-cache/segment-store';
import { ShotFrameCache } from './stages/shot-frame-cache';
import { posterStage, probeStage } from './stages/media-stages';
import { defaultPollDelay, pollStage } from './stages/poll-stage';
import { indexStage } from './stages/index-stage';
import { submitStage } from './stages/submit-stage';
import { analysisStage } from './stages/analysis-stage';
import { uploadStage } from './stages/upload-stage';
import { identityStage } from './stages/identity-stage';
import { proxyStage } from './stages/proxy-stage';
import { rateStage } from './stages/rate-stage';
import { clipsWithRateUnread } from '../library/clip-store';

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
 * The indexing pipeline: the durable queue with its stages registered, the network watch,
 * and the report (ETA, events) the Jobs view and the banner live on. One per app.
 */
export class IndexingPipeline {
  readonly queue: JobQueue;
  readonly store: SegmentStore;
  readonly profile: TensorProfile;
  private readonly deps: StageDeps;
  private readonly view: JobsViewStore;
  private readonly report: JobsReport;
  private readonly watch: ReturnType<typeof watchNetwork>;
  private readonly diskWatch: BlockWatch | null;
  private readonly recovery: ServiceRecovery;
  private pool: AnalysisPool | null = null;
  private started = false;

  constructor(private readonly o: IndexingPipelineOptions) {
    this.profile = o.profile ?? DEFAULT_TENSOR_PROFILE;
    this.store = createSegmentStore(o.db);
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
      proxyEncoder: () => chooseProxyEncoder((o.tools?.() ?? {}).ffmpeg ?? ffPath('ffmpeg')),
      decodeThreads: (job) => decodeThreads(os.availableParallelism(), decodesAtOnce(this.queue.runningJobs(), job)),
      proxySettings: o.proxySettings ?? (() => ({ policy: 'needed', budgetBytes: DEFAULT_PROXY_BUDGET_GB * 1e9 })),
      faceRecognition: o.faceRecognition ?? (() => true),
      analysisPool: () => (this.pool ??= new AnalysisPool(o.analysis)),
      callsPerJob: o.callsPerJob ?? 4,
      pollDelayMs: o.pollDelayMs ?? defaultPollDelay,
      maxResubmits: o.maxResubmits ?? 2,
      inflight: new InFlight(),
      // The Library view re-queries on this, as it does after its own media queue's work.
      mediaChanged: (clipId) => o.events?.emit('catalog.changed', { reason: 'media', clipIds: [clipId] }),
      analysed: (clipId) => o.onClipAnalysed?.(clipId),
      frameCache: new ShotFrameCache(o.frameCacheBytes ?? 256 * 1024 * 1024),
      share: o.share ?? (() => null),
      logger: o.logger,
    };
    const d = this.deps;
    for (const h of [probeStage(d), posterStage(d), analysisStage(d), uploadStage(d), submitStage(d), pollStage(d), indexStage(d, (c, n) => this.clipIndexed(c, n)), proxyStage(d), identityStage(d), rateStage(d)]) {
      this.queue.register(h);
    }
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
    this.report = new JobsReport({
      queue: this.queue,
      view: this.view,
      store: this.store,
      profileId: this.profile.id,
      configured: () => o.service.configured(),
      slots: { cpu: o.concurrency?.cpu ?? 1, network: o.concurrency?.network ?? 3 },
      events: o.events,
      eventIntervalMs: o.eventIntervalMs,
      logger: o.logger,
    });
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
      this.enqueueIdentities();
      this.enqueueRates();
    }
    this.report.scheduleFlush(true);
  }

  async stop(): Promise<void> {
    this.watch.stop();
    this.diskWatch?.stop();
    this.recovery.stop();
    this.report.stop();
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
      const all = this.queue.list({ clipId: id });
      // Its indexing jobs only decide its indexing: background work (a proxy, a face print, a rate reading) and collection
      // uploads paused or stopped by the editor neither hold it up nor count as it.
      const jobs = all.filter((j) => STAGE_INDEX.has(j.stage));
      // A `pending` row holds nothing derived: a job past the probe belongs to content the import
      // found changed and reset (it would run on a row with no size), and a failed or cancelled
      // probe (the card was pulled, ffprobe was wrong) is worth another try when the clip is handed
      // over again (a re-import, the drive back). Both start again from the probe.
      const stopped = jobs.some((j) => j.state === 'failed' || j.state === 'cancelled');
      const stale = meta.status === 'pending' && (stopped || jobs.some((j) => j.stage !== 'probe'));
      const restart = opts.restart === true || stale;
      const active = jobs.some((j) => j.state === 'queued' || j.state === 'running' || j.state === 'paused');
      // Handed over again while work of it waits (its file came back): a probe held back by a drive that was away, or
      // background work such as a rate reading, runs now. One started over is queued afresh below.
      if (!restart && all.some((j) => j.state === 'queued')) this.queue.wakeClip(id);
      if (!restart && active) continue;
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

  /**
   * Background face identities (the lowest lane: after all indexing) for clips whose faces have none
   * of the model the analysis runs now, while face recognition is on: turned on after they were
   * indexed, adopted from another seat, or embedded by an earlier model.
   * A clip whose last such job stopped (failed, cancelled) is left to the editor's retry; one done
   * whose faces were stored again without identities since (analysed while off) gets a new one.
   */
  enqueueIdentities(onlyClip: number | null = null): number {
    if (!this.deps.faceRecognition()) return 0;
    return this.enqueueUnlessStopped('identities', clipsMissingIdentities(this.o.db, EMBEDDING_MODEL_FILE, onlyClip));
  }

  /**
   * Background rate readings (the lowest lane: after all indexing) for VFR clips probed before their
   * rate was read from their pictures (catalog 0064), by the face prints' rule (enqueueUnlessStopped).
   * A clip whose file is away keeps its job waiting for it.
   */
  enqueueRates(onlyClip: number | null = null): number {
    return this.enqueueUnlessStopped('rate', clipsWithRateUnread(this.o.db, onlyClip));
  }

  /** A background job for each clip: one whose last such job waits or was stopped by the editor is left be; a done one is replaced. */
  private enqueueUnlessStopped(stage: 'identities' | 'rate', clipIds: readonly number[]): number {
    let n = 0;
    for (const id of clipIds) {
      const last = this.queue.find(id, stage);
      if (last && last.state !== 'done') continue;
      if (last) this.queue.store.remove(last.id);
      this.queue.enqueue({ clipId: id, stage });
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
    this.enqueueIdentities();
  }

  // ---- views (view/jobs-report.ts) ----------------------------------------------------------

  networkState(): NetworkState {
    return this.report.networkState();
  }

  summary(): JobsSummary {
    return this.report.summary();
  }

  listClips(filter?: ClipListFilter, offset?: number, limit?: number): { clips: ClipJobs[]; total: number } {
    return this.report.listClips(filter, offset, limit);
  }

  indexStates(clipIds: readonly number[]): Map<number, ClipJobs['state']> {
    return this.report.indexStates(clipIds);
  }

  clipJobs(clipId: number): ClipJobs | null {
    return this.report.clipJobs(clipId);
  }

  // ---- internals ----------------------------------------------------------------------

  private isIndexed(meta: ClipForJobs): boolean {
    if (meta.indexed_at === null || meta.indexed_profile !== this.profile.id) return false;
    // A team clip listed offline got the team's results without its file (library/team-share-entries.ts):
    // once the file is here it still needs its probe (the rest of the chain finds the results).
    if (meta.probed_at === null) return false;
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

  private clipIndexed(clipId: number, segments: number): void {
    // Indexed without writing a proxy (its analysis had run before): the background makes it.
    if (clipsMissingProxies(this.o.db, this.deps.proxySettings().policy, process.platform, clipId).length > 0 && !this.queue.find(clipId, 'proxy')) this.queue.enqueue({ clipId, stage: 'proxy' });
    // Its faces without identities (adopted from another seat): the background makes them.
    this.enqueueIdentities(clipId);
    this.enqueueRates(clipId);
    this.o.events?.emit('jobs.clipIndexed', { clipId, segments });
    this.o.onClipIndexed?.(clipId, segments);
  }
}
