import type { EventBus } from '../../rpc/event-bus';
import { URL_PROFILE_ID } from '../../library/remote-clips';
import type { Logger } from '../../util/logger';
import type { ClipJobs, JobsSummary, NetworkState } from '../../../../src-shared/contract/jobs';
import type { GateState } from '../queue/gate';
import type { JobQueue } from '../queue/job-queue';
import type { Job, JobResource } from '../queue/job-types';
import type { SegmentStore } from '../service-cache/segment-store';
import { clipCounts, clipJobsOf, foldState, isActive, listOrder, NETWORK_STAGES, remoteClipJobs, type ClipListFilter, type FoldContext, type FoldedRow } from './clip-jobs-fold';
import { JobsEta } from './jobs-eta';
import type { JobsViewStore } from './jobs-view-store';

export interface JobsReportOptions {
  queue: JobQueue;
  view: JobsViewStore;
  store: SegmentStore;
  profileId: string;
  /** Whether the service has settings (the banner sends the editor to Settings when not). */
  configured(): boolean;
  /** Jobs running at once per resource, as the ETA spreads the work left over them. */
  slots: Record<JobResource, number>;
  /** Where jobs.* events go; without it nothing is pushed (the views still answer). */
  events?: EventBus;
  /** Minimum spacing of jobs.clips / jobs.summary events. */
  eventIntervalMs?: number;
  logger?: Logger;
}

/**
 * What the Jobs view, the Library's cards and the banner are told of the queue: the summary with
 * its ETA, each clip's jobs folded (clip-jobs-fold.ts), the network state, and the jobs.* events
 * that push them, spaced out, as jobs and the gate change.
 */
export class JobsReport {
  private readonly eta: JobsEta;
  private readonly dirtyClips = new Set<number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private lastFlush = 0;
  private readonly unsubscribers: Array<() => void>;

  constructor(private readonly o: JobsReportOptions) {
    const queue = o.queue;
    this.eta = new JobsEta((clipId) => queue.store.stageFinishedAt(clipId, 'submit'));
    // The latest finished runs, oldest first: the ETA starts from what this machine did last time.
    this.eta.observe(
      queue.store
        .finished(500)
        .reverse()
        .map((r) => ({ stage: r.stage, clipId: r.clip_id, runMs: r.run_ms, workS: r.work_s, finishedAt: r.finished_at })),
    );
    this.unsubscribers = [queue.onJob((j) => this.onJob(j)), queue.onGate((g) => this.onGate(g))];
  }

  stop(): void {
    for (const u of this.unsubscribers.splice(0)) u();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  networkState(): NetworkState {
    const g = this.o.queue.gate();
    return {
      open: g.open,
      reason: g.primary?.reason ?? null,
      message: g.primary?.message ?? null,
      since: g.primary?.since ?? null,
      reasons: g.blocks.map((b) => b.reason),
      configured: this.o.configured(),
    };
  }

  /** The Jobs summary with the ETA as last shown (reading it does not move it; flush() does). */
  summary(): JobsSummary {
    const folded = this.folded();
    if (!this.eta.shown) this.advanceEta(folded);
    return this.summaryOf(folded);
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
    const clip = this.o.view.clipForJobs(clipId);
    if (!clip) return null;
    if (clip.source_url !== null) return remoteClipJobs(clip, this.o.store.segmentCount(clip.id, URL_PROFILE_ID));
    return clipJobsOf(clip, this.o.queue.list({ clipId }), this.o.store.segmentCount(clipId, this.o.profileId), this.foldContext());
  }

  /** Events out at once (`now`), or within the spacing of the last ones. */
  scheduleFlush(now: boolean): void {
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

  private foldContext(): FoldContext {
    const queue = this.o.queue;
    return { currentProfiles: [this.o.profileId, URL_PROFILE_ID], gateOpen: queue.gate().open, stageMayRun: (st) => queue.stageMayRun(st) };
  }

  /** Every clip's frontier folded (the gate read once for the whole list). */
  private folded(clipIds?: readonly number[]): FoldedRow[] {
    const ctx = this.foldContext();
    return this.o.view.frontiers(clipIds).map((r) => ({ r, state: foldState(r, ctx) }));
  }

  /** One refresh of the shown ETA (eta-display.ts): once per summary event, whoever reads it. */
  private advanceEta(folded: readonly FoldedRow[]): void {
    this.eta.advance(
      folded.filter((x) => isActive(x.state)),
      this.o.queue.gate().open,
      this.o.slots,
      Date.now(),
    );
  }

  private summaryOf(folded: readonly FoldedRow[]): JobsSummary {
    const clips = clipCounts(folded);
    const shown = this.eta.shown;
    return {
      clips,
      otherJobs: this.o.view.otherJobs(),
      background: this.o.view.background(),
      etaMs: clips.active === 0 ? 0 : (shown?.ms ?? null),
      etaNote: shown?.note ?? null,
      network: this.networkState(),
      updatedAt: Date.now(),
    };
  }

  private onJob(j: Job): void {
    if (j.state === 'done' && j.finishedAt) this.eta.observe([{ stage: j.stage, clipId: j.clipId, runMs: j.runMs ?? null, workS: j.workS ?? null, finishedAt: j.finishedAt }]);
    if (j.clipId !== null) this.dirtyClips.add(j.clipId);
    this.scheduleFlush(false);
  }

  private onGate(g: GateState): void {
    if (g.primary && g.primary.reason !== 'user') this.o.events?.emit('jobs.attention', { reason: g.primary.reason, message: g.primary.message });
    // Every clip's blocked/waiting state may have flipped.
    for (const j of this.o.queue.list({ states: ['queued'], stages: [...NETWORK_STAGES] })) if (j.clipId !== null) this.dirtyClips.add(j.clipId);
    this.scheduleFlush(true);
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
