import { AppError, toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import { DEFAULT_BACKOFF, type BlockReason } from './error-policy';
import { enqueueRow } from './enqueue-row';
import { QueueGate, type GateState } from './gate';
import { startRun, type RunHost } from './job-run';
import { createJobStore, rowToJob, type JobStore } from './job-store';
import { Listeners } from './listeners';
import { RunningJobs } from './running-jobs';
import { WakeTimer } from './wake-timer';
import type { DiskRoomCheck, JobQueueOptions, ListFilter } from './queue-options';
import { STAGE_GRAPH, type StageName } from '../../../../src-shared/contract/stage-graph';
import type { AnyStageHandler, Job, JobResource, JobSpec, JobState } from './job-types';

export const HIGH_PRIORITY = 100;

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
  private readonly running: RunningJobs;
  private readonly blocks: QueueGate;
  private readonly jobListeners: Listeners<Job>;
  private readonly gateListeners: Listeners<GateState>;
  private readonly concurrency: Record<JobResource, number>;
  private readonly maxRecoveries: number;
  private readonly now: () => number;
  private readonly logger?: Logger;
  private readonly disk?: DiskRoomCheck;
  private readonly wake: WakeTimer;
  /** What a job's run (job-run.ts) reaches of the queue. */
  private readonly host: RunHost;
  private started = false;
  private stopping = false;
  private pumping = false;
  private pumpAgain = false;

  constructor(o: JobQueueOptions) {
    this.store = createJobStore(o.db);
    this.concurrency = { cpu: Math.max(1, o.concurrency?.cpu ?? 1), network: Math.max(1, o.concurrency?.network ?? 3) };
    this.maxRecoveries = o.maxRecoveries ?? 20;
    this.running = new RunningJobs({ progressWriteMs: o.progressWriteMs ?? 500, stopGraceMs: o.stopGraceMs ?? 10_000 });
    this.blocks = new QueueGate(o.db);
    this.jobListeners = new Listeners(o.logger);
    this.gateListeners = new Listeners(o.logger);
    this.now = o.now ?? (() => Date.now());
    this.wake = new WakeTimer(() => this.pump(), this.now);
    this.logger = o.logger;
    this.disk = o.disk;
    this.host = {
      store: this.store,
      running: this.running,
      backoff: o.backoff ?? DEFAULT_BACKOFF,
      defaultMaxAttempts: o.defaultMaxAttempts ?? 5,
      logger: o.logger,
      now: this.now,
      enqueueRow: (spec, reset) => enqueueRow(this.store, this.running, spec, reset, this.now()),
      block: (reason, message) => this.block(reason, message),
      blockForDisk: () => this.blockForDisk(),
      emitJob: (job) => this.emitJob(job),
      pump: () => this.pump(),
    };
  }

  register(handler: AnyStageHandler): void {
    if (this.handlers.has(handler.stage)) throw new AppError('internal', `stage ${handler.stage} registered twice`);
    this.handlers.set(handler.stage, handler);
    if (this.started) this.pump();
  }

  /**
   * Crash recovery first: a job still marked running was cut off by a crash or a kill; it goes
   * back to queued (its stage is idempotent) unless it has now crashed the app too many times.
   */
  start(): void {
    if (this.started) return;
    const now = this.now();
    this.store.recoverRunning(now, this.maxRecoveries);
    this.blocks.restore(now);
    this.started = true;
    this.pump();
  }

  /** Aborts running jobs and leaves them queued for the next start; resolves once they have all ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.clear();
    const runs = this.running.all();
    for (const r of runs) this.running.abort(r, 'shutdown');
    await Promise.allSettled(runs.map((r) => r.promise));
    this.started = false;
    this.stopping = false;
  }

  /**
   * One job per clip and stage. An existing job is left alone (its priority raised if asked)
   * unless `reset`: then it starts over as queued, even if it was done or failed.
   */
  enqueue(spec: JobSpec, opts: { reset?: boolean } = {}): Job {
    const job = this.store.inTransaction(() => this.host.enqueueRow(spec, opts.reset ?? false));
    this.emitJob(job);
    this.pump();
    return job;
  }

  pauseJob(id: number): Job | undefined {
    const run = this.running.get(id);
    if (run) this.running.abort(run, 'pause');
    else this.transition(id, ['queued'], 'paused');
    return this.get(id);
  }

  resumeJob(id: number): Job | undefined {
    this.transition(id, ['paused'], 'queued', { clearNotBefore: true });
    return this.get(id);
  }

  cancelJob(id: number): Job | undefined {
    const run = this.running.get(id);
    if (run) this.running.abort(run, 'cancel');
    else this.transition(id, ['queued', 'paused', 'failed'], 'cancelled');
    return this.get(id);
  }

  /** A failed or cancelled job starts over with fresh attempts. */
  retryJob(id: number): Job | undefined {
    this.transition(id, ['failed', 'cancelled'], 'queued', { resetAttempts: true, clearNotBefore: true });
    return this.get(id);
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
    for (const id of this.store.idsOfClipInStates(clipId, ['queued', 'paused', 'running'])) {
      const run = this.running.get(id);
      if (run) run.job.priority = Math.max(run.job.priority, priority);
      this.emitJob(this.get(id)!);
    }
    this.pump();
    return changes;
  }

  private transition(id: number, from: JobState[], to: JobState, o: { resetAttempts?: boolean; clearNotBefore?: boolean } = {}): boolean {
    const changed = this.store.transition(id, from, to, { fresh: o.resetAttempts, clearNotBefore: o.clearNotBefore }, this.now());
    if (changed) {
      this.emitJob(this.get(id)!);
      this.pump();
    }
    return changed;
  }

  gate(): GateState {
    return this.blocks.state();
  }

  isBlocked(reason?: BlockReason): boolean {
    return this.blocks.isBlocked(reason);
  }

  /** Stops starting network stages and aborts the running ones (they go back to queued, attempts kept). */
  block(reason: BlockReason, message: string): void {
    const changed = this.blocks.close(reason, message, this.now());
    for (const r of this.running.all()) if (!this.blocks.lets(r.job.stage)) this.running.abort(r, 'block');
    if (changed) {
      this.logger?.info('queue.blocked', { reason, message });
      this.emitGate();
    }
  }

  unblock(...reasons: BlockReason[]): void {
    if (!this.blocks.open(reasons)) return;
    if (reasons.includes('disk')) this.requeueUnsettled();
    this.logger?.info('queue.unblocked', { reasons, remaining: this.blocks.reasons() });
    this.emitGate();
    this.pump();
  }

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
    return this.running.all().map((r) => ({ ...r.job }));
  }

  /** Nothing running and nothing that could start now or later (blocked network jobs do not count as startable). */
  isIdle(): boolean {
    if (this.running.size > 0) return false;
    const stages = this.startableStages();
    if (stages.length === 0) return true;
    return !this.store.anyQueued(stages);
  }

  onJob(listener: (job: Job) => void): () => void {
    return this.jobListeners.add(listener);
  }

  onGate(listener: (gate: GateState) => void): () => void {
    return this.gateListeners.add(listener);
  }

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
    this.disk?.metFullDisk?.();
    this.block('disk', this.disk?.describe() ?? 'the disk holding the catalog is full');
  }

  /**
   * Jobs whose last write failed for want of room are still `running` in the catalog with no run
   * behind them: back to queued, as crash recovery does at start, once there is room again.
   */
  private requeueUnsettled(): void {
    const live = this.running.ids();
    try {
      this.store.requeueUnsettled(live, this.now());
    } catch (e) {
      this.logger?.warn('queue.requeue.failed', { message: (e as Error).message });
    }
  }

  /** Whether jobs of this stage may start now (false while the gate holds it). */
  stageMayRun(stage: StageName): boolean {
    return this.handlers.has(stage) && this.blocks.lets(stage);
  }

  /** Registered stages the gate lets start now. */
  private startableStages(resource?: JobResource): StageName[] {
    return [...this.handlers.keys()].filter((st) => (resource === undefined || STAGE_GRAPH[st].resource === resource) && this.blocks.lets(st));
  }

  private pumpOnce(): void {
    const now = this.now();
    // Looked at before anything starts: work that writes waits on a clear reason instead of
    // meeting a full disk half-way through a transaction or a thumbnail.
    if (this.disk && !this.blocks.isBlocked('disk') && !this.disk.room().ok) this.blockForDisk();
    for (const resource of ['cpu', 'network'] as const) {
      const stages = this.startableStages(resource);
      if (stages.length === 0) continue;
      const free = this.concurrency[resource] - this.running.busy(resource);
      if (free <= 0) continue;
      for (const row of this.store.due(stages, now, free)) startRun(this.host, row, this.handlers.get(row.stage)!);
    }
    this.scheduleWake(now);
  }

  /** `now` is the pump's: a job due between its select and this query must still get a timer. */
  private scheduleWake(now: number): void {
    const stages = this.startableStages();
    if (stages.length === 0) return this.wake.clear();
    this.wake.set(this.store.nextWake(stages, now) ?? Infinity);
  }

  private emitJob(job: Job): void {
    this.jobListeners.emit(job);
  }

  private emitGate(): void {
    this.gateListeners.emit(this.gate());
  }
}
