import type { FitGeometry } from '../media/frame-geometry';
import type { AnalysisPool } from './analysis-pool';
import type { AnalysisSettings } from './analysis-settings';
import type { MotionStep } from './workers/block-motion.cjs';
import type { RawFace } from './workers/yunet.cjs';

function noop(): void {}

/**
 * Faces and motion of a decode's frames, worked out in the analysis pool while the decode goes on
 * (neither depends on the shots): frames are sent in batches and each answer is put in its place.
 * A failed task goes to `onError` at once (the caller stops the decode); `settled` waits for every
 * answer.
 */
export class PoolFeed {
  /** Faces of face frame k (the tensor grid), filled in as the pool answers. */
  readonly facesAt: RawFace[][] = [];
  /** Motion step j: from motion frame j to j + 1. */
  readonly stepsFrom: MotionStep[] = [];
  /** Motion frames pushed so far. */
  motionFrames = 0;
  private readonly tasks: Array<Promise<unknown>> = [];
  private faceBatch: Uint8Array[] = [];
  private faceBatchStart = 0;
  private motionBatch: Uint8Array[] = [];
  private motionBatchStart = 0;

  constructor(
    private readonly pool: AnalysisPool,
    private readonly faceGeom: FitGeometry,
    private readonly motionGeom: FitGeometry,
    private readonly settings: AnalysisSettings,
    private readonly signal: AbortSignal | undefined,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Faces of these detector-size frames, one list per frame (not tracked: the caller awaits it). */
  detectFaces(frames: Uint8Array[]): Promise<RawFace[][]> {
    const g = this.faceGeom;
    const s = this.settings;
    return this.pool.detectFaces(
      {
        width: g.outWidth,
        height: g.outHeight,
        contentWidth: g.content.width,
        contentHeight: g.content.height,
        frames,
        scoreThreshold: s.faceScoreThreshold,
        nmsThreshold: s.faceNmsThreshold,
        topK: s.faceTopK,
      },
      this.signal,
    );
  }

  pushFace(frame: Uint8Array): void {
    this.faceBatch.push(frame);
    if (this.faceBatch.length >= this.settings.faceBatchFrames) this.flushFaces();
  }

  pushMotion(frame: Uint8Array): void {
    this.motionFrames++;
    this.motionBatch.push(frame);
    if (this.motionBatch.length >= this.settings.motionBatchFrames) this.flushMotion();
  }

  /** Sends what is left of both batches (the decode is over) and waits for every answer. */
  async settled(): Promise<void> {
    this.flushFaces();
    this.flushMotion();
    await Promise.all(this.tasks);
  }

  /** Work still in flight after a failure must not surface as unhandled rejections. */
  abandon(): void {
    for (const p of this.tasks) p.catch(noop);
  }

  private track(p: Promise<unknown>): void {
    p.catch(this.onError);
    this.tasks.push(p);
  }

  private flushFaces(): void {
    if (this.faceBatch.length === 0) return;
    const start = this.faceBatchStart;
    const frames = this.faceBatch;
    this.faceBatchStart += frames.length;
    this.faceBatch = [];
    this.track(this.detectFaces(frames).then((faces) => faces.forEach((list, k) => (this.facesAt[start + k] = list))));
  }

  private flushMotion(): void {
    if (this.motionBatch.length < 2) return;
    const start = this.motionBatchStart;
    const frames = this.motionBatch;
    // The next batch starts from this batch's last frame so no step between batches is lost.
    this.motionBatchStart += frames.length - 1;
    this.motionBatch = [frames[frames.length - 1]!.slice()];
    const g = this.motionGeom;
    this.track(this.pool.estimateMotion({ width: g.outWidth, height: g.outHeight, frames }, this.signal).then((steps) => steps.forEach((st, k) => (this.stepsFrom[start + k] = st))));
  }
}
