import { AppError, toAppError } from '../../../../src-shared/errors';
import type { CatalogDb } from '../../catalog/open-catalog';
import type { Logger } from '../../util/logger';
import { BLOCK_REASONS, DEFAULT_BACKOFF, primaryBlock, reactionFor, type BackoffOptions, type BlockReason } from './error-policy';
import { parseJobPayload } from './job-payloads';
import { createJobStore, rowToJob, type JobRow, type JobStore, type SettleFields } from './job-store';
import { STAGE_GRAPH, type StageName } from '../../../../src-shared/contract/stage-graph';
import type { AnyStageHandler, Job, JobResource, JobSpec, JobState, StageContext, StageOutcome } from './job-types';

export interface JobQueueOptions {
  db: CatalogDb;
  /** Jobs running at once per resource. CPU stages (ffmpeg, ONNX) and network stages never share slots. */
  concurrency?: Partial<Record<JobResource, number>>;
  backoff?: BackoffOptions;
  /** Failed runs before a job is failed, unless its handler says otherwise. */
  defaultMaxAttempts?: number;
  /** A job found running at start-up this many times has crashed the app each time: it is failed. */
  maxRecoveries?: number;
  /** Progress is written to the database at most this often per job (events go out every time). */
  progressWriteMs?: number;
  /** A network job asked to stop gets this long to finish its calls in flight before they are cut. */
  stopGraceMs?: number;
  now?: () => number;
  logger?: Logger;
  /** Room to write in the data folder, looked at before a job starts: none holds every stage. */
  disk?: DiskRoomCheck;
}

/** What the queue needs of the app's disk guard (util/disk-space.ts). */
export interface DiskRoomCheck {
  room(): { ok: boolean };
  describe(): string;
}

export interface BlockState {
  reason: BlockReason;
  message: string;
  since: number;
}

export interface GateState {
  open: boolean;
  /** The block the banner shows: the one the user must act on first. */
  primary: BlockState | null;
  blocks: BlockState[];
}


export interface ListFilter {
  clipId?: number;
  states?: JobState[];
  stages?: string[];
  limit?: number;
  offset?: number;
}

/** Why a running job's signal was aborted: decides where the job goes when its run ends. */
type AbortWhy = 'cancel' | 'pause' | 'block' | 'shutdown' | 'requeue';

interface Running {
  job: Job;
  controller: AbortController;
  soft: AbortController;
  hardTimer: NodeJS.Timeout | null;
  why: AbortWhy | null;
  startedAt: number;
  lastWrite: number;
  promise: Promise<void>;
}

export const HIGH_PRIORITY = 100;
const PERSISTED_BLOCKS: readonly BlockReason[] = ['user', 'quota'];

/**
 * The durable queue: every job is a row of the catalog's jobs table, one per clip and stage, so a
 * restart (or a crash) finds the work where it was. Runs registered stage handlers with bounded
 * concurrency per resource, in priority order, honouring not_before (backoff); reacts to the
 * error kinds through error-policy; gates every network stage behind one switch (user pause,
 * quota, auth, offline).
 */
export class JobQueue {
  /** The jobs table's owner; read by the pipeline's views too. */
  readonly store: JobStore;
  private readonly handlers = new Map<StageName, AnyStageHandler>();
  private readonly running = new Map<number, Running>();
  private readonly blocks = new Map<BlockReason, BlockState>();
  private readonly jobListeners = new Set<(job: Job) => void>();
  private readonly gateListeners = new Set<(gate: GateState) => void>();
  private readonly concurrency: Record<JobResource, number>;
  private readonly backoff: BackoffOptions;
  private readonly defaultMaxAttempts: number;
  private readonly maxRecoveries: number;
  private readonly progressWriteMs: number;
  private readonly stopGraceMs: number;
  private readonly now: () => number;
  private readonly logger?: Logger;
  private readonly disk?: DiskRoomCheck;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAt = Infinity;
  private started = false;
  private stopping = false;
  private pumping = false;
  private pumpAgain = false;

  constructor(o: JobQueueOptions) {
    this.store = createJobStore(o.db);
    this.concurrency = { cpu: Math.max(1, o.concurrency?.cpu ?? 1), network: Math.max(1, o.concurrency?.network ?? 3) };
    this.backoff = o.backoff ?? DEFAULT_BACKOFF;
    this.defaultMaxAttempts = o.defaultMaxAttempts ?? 5;
    this.maxRecoveries = o.maxRecoveries ?? 20;
    this.progressWriteMs = o.progressWriteMs ?? 500;
    this.stopGraceMs = o.stopGraceMs ?? 10_000;
    this.now = o.now ?? (() => Date.now());
    this.logger = o.logger;
    this.disk = o.disk;
  }

  register(handler: AnyStageHandler): void {
    if (this.handlers.has(handler.stage)) throw new AppError('internal', `stage ${handler.stage} registered twice`);
    this.handlers.set(handler.stage, handler);
    if (this.started) this.pump();
  }

  // ---- lifecycle -------------------------------------------------------------------------

  /**
   * Crash recovery first: a job still marked running was cut off by a crash or a kill; it goes
   * back to queued (its stage is idempotent) unless it has now crashed the app too many times.
   */
  start(): void {
    if (this.started) return;
    const now = this.now();
    this.store.recoverRunning(now, this.maxRecoveries);
    for (const row of this.store.persistedBlocks()) {
      const reason = row.name.slice('block.'.length) as BlockReason;
      if (!PERSISTED_BLOCKS.includes(reason)) continue;
      try {
        const v = JSON.parse(row.value_json) as { message?: string; since?: number };
        this.blocks.set(reason, { reason, message: v.message ?? '', since: v.since ?? now });
      } catch {
        this.blocks.set(reason, { reason, message: '', since: now });
      }
    }
    this.started = true;
    this.pump();
  }

  /** Aborts running jobs and leaves them queued for the next start; resolves once they have all ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.clearWake();
    const runs = [...this.running.values()];
    for (const r of runs) this.abortRun(r, 'shutdown');
    await Promise.allSettled(runs.map((r) => r.promise));
    this.started = false;
    this.stopping = false;
  }

  // ---- enqueueing ------------------------------------------------------------------------

  /**
   * One job per clip and stage. An existing job is left alone (its priority raised if asked)
   * unless `reset`: then it starts over as queued, even if it was done or failed.
   */
  enqueue(spec: JobSpec, opts: { reset?: boolean } = {}): Job {
    const job = this.store.inTransaction(() => this.enqueueRow(spec, opts.reset ?? false));
    this.emitJob(job);
    this.pump();
    return job;
  }

  private enqueueRow(spec: JobSpec, reset: boolean): Job {
    const now = this.now();
    const resource = STAGE_GRAPH[spec.stage].resource;
    const priority = spec.priority ?? 0;
    if (spec.payload !== undefined) {
      const parsed = parseJobPayload(spec.stage, spec.payload);
      if (!parsed.ok) throw new AppError('invalid', parsed.reason);
    }
    const payload = spec.payload === undefined ? null : JSON.stringify(spec.payload);
    const existing = this.store.rowOf(spec.clipId, spec.stage);
    if (!existing) {
      const id = this.store.insert({ clipId: spec.clipId, stage: spec.stage, resource, priority, payload, workS: spec.workS ?? null }, now);
      return rowToJob(this.store.row(id)!);
    }
    const running = this.running.get(existing.id);
    if (reset && running) {
      // Cannot rewrite a row its run will settle: the run ends as queued, from the start.
      this.abortRun(running, 'requeue');
    }
    if (reset && !running) {
      this.store.startOver(existing.id, { resource, priority, payload, workS: spec.workS ?? null }, now);
    } else if (priority > existing.priority || (spec.workS != null && existing.work_s == null)) {
      this.store.raisePriority(existing.id, priority, spec.workS ?? null, now);
    }
    return rowToJob(this.store.row(existing.id)!);
  }

  // ---- per-job controls -----------------------------------------------------------------

  pauseJob(id: number): Job | undefined {
    const run = this.running.get(id);
    if (run) this.abortRun(run, 'pause');
    else this.transition(id, ['queued'], 'paused');
    return this.get(id);
  }

  resumeJob(id: number): Job | undefined {
    this.transition(id, ['paused'], 'queued', { clearNotBefore: true });
    return this.get(id);
  }

  cancelJob(id: number): Job | undefined {
    const run = this.running.get(id);
    if (run) this.abortRun(run, 'cancel');
    else this.transition(id, ['queued', 'paused', 'failed'], 'cancelled');
    return this.get(id);
  }

  /** A failed or cancelled job starts over with fresh attempts. */
  retryJob(id: number): Job | undefined {
    this.transition(id, ['failed', 'cancelled'], 'queued', { resetAttempts: true, clearNotBefore: true });
    return this.get(id);
  }

  /** Every failed (and cancelled, if asked) job back to queued. Returns how many. */
  retryAll(opts: { includeCancelled?: boolean } = {}): number {
    const ids = this.store.idsInStates(opts.includeCancelled ? ['failed', 'cancelled'] : ['failed']);
    for (const id of ids) this.retryJob(id);
    return ids.length;
  }

  pauseClip(clipId: number): number {
    return this.idsOfClip(clipId, ['queued', 'running']).map((id) => this.pauseJob(id)).length;
  }

  resumeClip(clipId: number): number {
    return this.idsOfClip(clipId, ['paused']).map((id) => this.resumeJob(id)).length;
  }

  /** Every job of a stage (the background lane's proxies, paused, resumed, cancelled and retried as one from Jobs). */
  pauseStage(stage: StageName): number {
    return this.store.idsOfStageInStates(stage, ['queued', 'running']).map((id) => this.pauseJob(id)).length;
  }

  resumeStage(stage: StageName): number {
    return this.store.idsOfStageInStates(stage, ['paused']).map((id) => this.resumeJob(id)).length;
  }

  cancelStage(stage: StageName): number {
    return this.store.idsOfStageInStates(stage, ['queued', 'running', 'paused']).map((id) => this.cancelJob(id)).length;
  }

  retryStage(stage: StageName): number {
    return this.store.idsOfStageInStates(stage, ['failed', 'cancelled']).map((id) => this.retryJob(id)).length;
  }

  cancelClip(clipId: number): number {
    return this.idsOfClip(clipId, ['queued', 'running', 'paused']).map((id) => this.cancelJob(id)).length;
  }

  retryClip(clipId: number): number {
    return this.idsOfClip(clipId, ['failed', 'cancelled']).map((id) => this.retryJob(id)).length;
  }

  /**
   * A clip's jobs waiting out the retry delay of a drive or folder that was away (`unplugged`)
   * may run now: someone handed the clip over again (its file came back, a re-import). If it is
   * still away they meet it again and wait again. With `stage`, that stage's job, whatever it waits for.
   */
  wakeClip(clipId: number, stage?: StageName): number {
    // With a stage: that job's wait ends whatever it waited for (another seat's results arrived).
    const woken = stage ? this.store.wakeStage(clipId, stage, this.now()) : this.store.wakeUnplugged(clipId, this.now());
    if (woken.length === 0) return 0;
    for (const id of woken) this.emitJob(this.get(id)!);
    this.pump();
    return woken.length;
  }

  /** The clip the user opened goes first: its unfinished jobs, and the stages they lead to. */
  prioritizeClip(clipId: number, priority = HIGH_PRIORITY): number {
    const changes = this.store.raiseClipPriority(clipId, priority, this.now());
    for (const id of this.idsOfClip(clipId, ['queued', 'paused', 'running'])) {
      const run = this.running.get(id);
      if (run) run.job.priority = Math.max(run.job.priority, priority);
      this.emitJob(this.get(id)!);
    }
    this.pump();
    return changes;
  }

  private idsOfClip(clipId: number, states: JobState[]): number[] {
    return this.store.idsOfClipInStates(clipId, states);
  }

  private transition(id: number, from: JobState[], to: JobState, o: { resetAttempts?: boolean; clearNotBefore?: boolean } = {}): boolean {
    const changed = this.store.transition(id, from, to, { fresh: o.resetAttempts, clearNotBefore: o.clearNotBefore }, this.now());
    if (changed) {
      this.emitJob(this.get(id)!);
      this.pump();
    }
    return changed;
  }

  // ---- network gate ---------------------------------------------------------------------

  gate(): GateState {
    const blocks = [...this.blocks.values()].sort((a, b) => BLOCK_REASONS.indexOf(a.reason) - BLOCK_REASONS.indexOf(b.reason));
    const p = primaryBlock(this.blocks.keys());
    return { open: blocks.length === 0, primary: p ? this.blocks.get(p)! : null, blocks };
  }

  isBlocked(reason?: BlockReason): boolean {
    return reason ? this.blocks.has(reason) : this.blocks.size > 0;
  }

  /** Stops starting network stages and aborts the running ones (they go back to queued, attempts kept). */
  block(reason: BlockReason, message: string): void {
    const had = this.blocks.get(reason);
    const state: BlockState = { reason, message, since: had?.since ?? this.now() };
    this.blocks.set(reason, state);
    if (PERSISTED_BLOCKS.includes(reason)) {
      this.store.saveBlock(`block.${reason}`, JSON.stringify({ message, since: state.since }), this.now());
    }
    for (const r of this.running.values()) if (!this.mayRun(r.job.stage)) this.abortRun(r, 'block');
    if (!had || had.message !== message) {
      this.logger?.info('queue.blocked', { reason, message });
      this.emitGate();
    }
  }

  unblock(...reasons: BlockReason[]): void {
    let changed = false;
    for (const reason of reasons) {
      if (this.blocks.delete(reason)) changed = true;
      if (PERSISTED_BLOCKS.includes(reason)) this.store.dropBlock(`block.${reason}`);
    }
    if (!changed) return;
    if (reasons.includes('disk')) this.requeueUnsettled();
    this.logger?.info('queue.unblocked', { reasons, remaining: [...this.blocks.keys()] });
    this.emitGate();
    this.pump();
  }

  // ---- queries --------------------------------------------------------------------------

  get(id: number): Job | undefined {
    const run = this.running.get(id);
    if (run) return { ...run.job };
    const row = this.store.row(id);
    return row ? rowToJob(row) : undefined;
  }

  find(clipId: number | null, stage: string): Job | undefined {
    const row = this.store.rowOf(clipId, stage);
    return row ? this.get(row.id) : undefined;
  }

  list(f: ListFilter = {}): Job[] {
    return this.store
      .list(f).map((r) => this.running.get(r.id)?.job ?? rowToJob(r)).map((j) => ({ ...j }));
  }

  runningJobs(): Job[] {
    return [...this.running.values()].map((r) => ({ ...r.job }));
  }

  /** Nothing running and nothing that could start now or later (blocked network jobs do not count as startable). */
  isIdle(): boolean {
    if (this.running.size > 0) return false;
    const stages = this.startableStages();
    if (stages.length === 0) return true;
    return !this.store.anyQueued(stages);
  }

  onJob(listener: (job: Job) => void): () => void {
    this.jobListeners.add(listener);
    return () => this.jobListeners.delete(listener);
  }

  onGate(listener: (gate: GateState) => void): () => void {
    this.gateListeners.add(listener);
    return () => this.gateListeners.delete(listener);
  }

  // ---- scheduling -----------------------------------------------------------------------

  /** Starts what may start. Re-entrant calls (a job settling while we pump) fold into one more round. */
  pump(): void {
    if (!this.started || this.stopping) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce();
      } while (this.pumpAgain);
    } catch (e) {
      // Pumps run from timers and listeners: a write that fails here must hold the queue with a
      // reason, never end the process. A full disk is expected; anything else is logged.
      const err = toAppError(e);
      if (err.kind === 'disk_full') this.blockForDisk();
      else this.logger?.error('queue.pump.failed', { message: err.message });
    } finally {
      this.pumping = false;
    }
  }

  /** No room to write: every stage waits (a BlockWatch lifts it). The message is the guard's, naming the folder. */
  private blockForDisk(): void {
    this.block('disk', this.disk?.describe() ?? 'the disk holding the catalog is full');
  }

  /**
   * Jobs whose last write failed for want of room are still `running` in the catalog with no run
   * behind them: back to queued, as crash recovery does at start, once there is room again.
   */
  private requeueUnsettled(): void {
    const live = [...this.running.keys()];
    try {
      this.store.requeueUnsettled(live, this.now());
    } catch (e) {
      this.logger?.warn('queue.requeue.failed', { message: (e as Error).message });
    }
  }

  /**
   * Whether the gate lets a stage start: nothing without room on the disk; CPU otherwise; network
   * when open, or when only quota holds and the stage is free.
   */
  private mayRun(stage: StageName): boolean {
    const decl: { resource: JobResource; billable?: boolean } = STAGE_GRAPH[stage];
    if (this.blocks.has('disk')) return false;
    if (decl.resource === 'cpu' || this.blocks.size === 0) return true;
    return this.blocks.size === 1 && this.blocks.has('quota') && decl.billable === false;
  }

  /** Whether jobs of this stage may start now (false while the gate holds it). */
  stageMayRun(stage: StageName): boolean {
    return this.handlers.has(stage) && this.mayRun(stage);
  }

  /** Registered stages the gate lets start now. */
  private startableStages(resource?: JobResource): StageName[] {
    return [...this.handlers.keys()].filter((st) => (resource === undefined || STAGE_GRAPH[st].resource === resource) && this.mayRun(st));
  }

  private pumpOnce(): void {
    const now = this.now();
    // Looked at before anything starts: work that writes waits on a clear reason instead of
    // meeting a full disk half-way through a transaction or a thumbnail.
    if (this.disk && !this.blocks.has('disk') && !this.disk.room().ok) this.blockForDisk();
    for (const resource of ['cpu', 'network'] as const) {
      const stages = this.startableStages(resource);
      if (stages.length === 0) continue;
      const busy = [...this.running.values()].filter((r) => r.job.resource === resource).length;
      const free = this.concurrency[resource] - busy;
      if (free <= 0) continue;
      for (const row of this.store.due(stages, now, free)) this.startRow(row);
    }
    this.scheduleWake(now);
  }

  /** `now` is the pump's: a job due between its select and this query must still get a timer. */
  private scheduleWake(now: number): void {
    const stages = this.startableStages();
    if (stages.length === 0) return this.clearWake();
    const at = this.store.nextWake(stages, now) ?? Infinity;
    if (at === this.wakeAt && this.wakeTimer) return;
    this.clearWake();
    if (at === Infinity) return;
    this.wakeAt = at;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = null;
        this.wakeAt = Infinity;
        this.pump();
      },
      Math.max(0, at - this.now()) + 5,
    );
  }

  private clearWake(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
    this.wakeAt = Infinity;
  }

  private startRow(row: JobRow): void {
    const handler = this.handlers.get(row.stage)!;
    const now = this.now();
    if (!this.store.markRunning(row.id, now)) return;
    const job = rowToJob({ ...row, state: 'running', started_at: now, updated_at: now, not_before: null, finished_at: null });
    const controller = new AbortController();
    const run: Running = { job, controller, soft: new AbortController(), hardTimer: null, why: null, startedAt: now, lastWrite: now, promise: Promise.resolve() };
    this.running.set(job.id, run);
    this.emitJob(job);
    run.promise = this.execute(run, handler);
  }

  private async execute(run: Running, handler: AnyStageHandler): Promise<void> {
    let outcome: StageOutcome | void = undefined;
    let error: AppError | null = null;
    try {
      // A microtask first: the handler must never run inside startRow's caller (the pump).
      await Promise.resolve();
      // A payload the stage cannot read fails the job with the reason ('invalid' is never retried).
      const parsed = parseJobPayload(run.job.stage, run.job.payload);
      if (!parsed.ok) throw new AppError('invalid', parsed.reason);
      const ctx: StageContext = {
        job: run.job,
        payload: parsed.payload,
        signal: run.controller.signal,
        stopping: run.soft.signal,
        progress: (fraction, note) => this.onProgress(run, fraction, note),
      };
      outcome = await handler.run(ctx);
    } catch (e) {
      error = toAppError(e);
    }
    try {
      this.settle(run, handler, outcome, error);
    } catch (e) {
      // No room to record the outcome: the row stays `running` and goes back to queued once
      // there is room (requeueUnsettled). Otherwise the catalog is gone (closed under us) or broken.
      if (toAppError(e).kind === 'disk_full') this.blockForDisk();
      else this.logger?.error('queue.settle.failed', { jobId: run.job.id, stage: run.job.stage, message: (e as Error).message });
    } finally {
      if (run.hardTimer) clearTimeout(run.hardTimer);
      this.running.delete(run.job.id);
      this.pump();
    }
  }

  private onProgress(run: Running, fraction: number, note?: string): void {
    if (run.controller.signal.aborted) return;
    // A stopping job still reports its calls in flight landing.
    const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : run.job.progress;
    run.job.progress = f;
    if (note !== undefined) run.job.note = note;
    const now = this.now();
    if (now - run.lastWrite >= this.progressWriteMs || f >= 1) {
      run.lastWrite = now;
      try {
        this.store.writeProgress(run.job.id, f, run.job.note ?? null, now);
      } catch {
        // Progress is advisory; the settle write is the one that matters.
      }
    }
    this.emitJob({ ...run.job });
  }

  private abortRun(run: Running, why: AbortWhy): void {
    // The first reason wins: a job paused and then shut down still comes back paused.
    if (run.why === null) run.why = why;
    const reason = new AppError('cancelled', `job ${why}`);
    if (!run.soft.signal.aborted) run.soft.abort(reason);
    if (run.job.resource === 'cpu') {
      if (!run.controller.signal.aborted) run.controller.abort(reason);
      return;
    }
    // Network: the stage stops before its next call; calls in flight get the grace period.
    run.hardTimer ??= setTimeout(() => {
      if (!run.controller.signal.aborted) run.controller.abort(reason);
    }, this.stopGraceMs);
  }

  private settle(run: Running, handler: AnyStageHandler, outcome: StageOutcome | void, error: AppError | null): void {
    const job = run.job;
    const now = this.now();
    const ranMs = Math.max(0, now - run.startedAt);
    const why = run.why;
    const update = (fields: SettleFields) => this.store.settle(job.id, fields, ranMs, now);

    if (!error && why !== 'cancel' && why !== 'requeue') {
      if (outcome && outcome.again) {
        update({ state: why === 'pause' ? 'paused' : 'queued', not_before: now + Math.max(0, outcome.again.delayMs), note: outcome.again.note ?? job.note ?? null, progress: job.progress });
      } else {
        this.store.inTransaction(() => {
          update({ state: 'done', progress: 1, finished_at: now, last_error_kind: null, last_error_message: null, not_before: null, note: job.note ?? null });
          for (const next of outcome?.next ?? []) {
            const j = this.enqueueRow({ ...next, priority: Math.max(next.priority ?? 0, job.priority) }, true);
            queueMicrotask(() => this.emitJob(j));
          }
        });
      }
    } else if (why) {
      const to: Record<AbortWhy, JobState> = { cancel: 'cancelled', pause: 'paused', block: 'queued', shutdown: 'queued', requeue: 'queued' };
      const fields: SettleFields = { state: to[why], progress: why === 'requeue' ? 0 : job.progress, note: job.note ?? null };
      if (why === 'cancel') fields.finished_at = now;
      if (why === 'requeue') Object.assign(fields, { attempts: 0, last_error_kind: null, last_error_message: null, not_before: null });
      update(fields);
    } else {
      const err = error!;
      const reaction = reactionFor(err, job.resource, job.attempts, this.backoff);
      const maxAttempts = handler.maxAttempts ?? this.defaultMaxAttempts;
      const base = { last_error_kind: err.kind, last_error_message: err.message, progress: job.progress, note: job.note ?? null };
      if (reaction.kind === 'block') {
        // The disk first: recording the outcome may itself find no room.
        if (reaction.reason === 'disk') this.blockForDisk();
        update({ ...base, state: 'queued' });
        if (reaction.reason !== 'disk') this.block(reaction.reason, err.message);
      } else if (reaction.kind === 'retry' && (!reaction.counts || job.attempts + 1 < maxAttempts)) {
        update({ ...base, state: 'queued', attempts: job.attempts + (reaction.counts ? 1 : 0), not_before: now + reaction.delayMs });
      } else {
        update({ ...base, state: 'failed', attempts: job.attempts + 1, finished_at: now });
        this.logger?.warn('queue.job.failed', { jobId: job.id, clipId: job.clipId, stage: job.stage, kind: err.kind, message: err.message });
      }
    }
    const after = this.store.row(job.id);
    if (after) this.emitJob(rowToJob(after));
  }

  private emitJob(job: Job): void {
    for (const l of this.jobListeners) {
      try {
        l(job);
      } catch (e) {
        this.logger?.warn('queue.listener.failed', { message: (e as Error).message });
      }
    }
  }

  private emitGate(): void {
    const g = this.gate();
    for (const l of this.gateListeners) {
      try {
        l(g);
      } catch (e) {
        this.logger?.warn('queue.listener.failed', { message: (e as Error).message });
      }
    }
  }
}
