import path from 'node:path';
import type { FitGeometry } from '../media/frame-geometry';
import type { AnalysisPool } from './analysis-pool';
import type { AnalysisSettings } from './analysis-settings';
import type { MotionStep } from './workers/block-motion.cjs';
import { IdentityCarry, type EmbedGroup } from './identity-carry';
import { carriedIdentity, identityPatch, ruledOutByLandmarks, unembeddedIdentity, type IdentityFrameTask } from './workers/face-identity.cjs';
import type { RawFace } from './workers/yunet.cjs';

function noop(): void {}

/** The identity frames' geometry, the picture's display size, the floors of `settings` and the model's id, as face-identity.cjs takes them. */
export function identityFrameTask(geom: FitGeometry, sourceWidth: number, sourceHeight: number, settings: AnalysisSettings, model: string): IdentityFrameTask {
  return {
    width: geom.outWidth,
    height: geom.outHeight,
    sourceWidth,
    sourceHeight,
    minEyePx: settings.faceMinEyePx,
    minSharpness: settings.faceMinSharpness,
    maxYaw: settings.faceMaxYaw,
    goodEyePx: settings.faceGoodEyePx,
    goodSharpness: settings.faceGoodSharpness,
    model,
  };
}

/**
 * Faces and motion of a decode's frames, worked out in the analysis pool while the decode goes on
 * (neither depends on the shots): frames are sent in batches and each answer is put in its place.
 * With an identity geometry (recognition on) face frame k * identityEvery goes with identity frame
 * k, the same instant at a size faces can be aligned from (the face frames between have none: their
 * faces carry their track's embedding, identity-carry.ts).
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
  private identityBatch: Uint8Array[] = [];
  /** Identity frames received so far (identity frame j is at face frame j * identityEvery). */
  private identityFrames = 0;
  private motionBatch: Uint8Array[] = [];
  private motionBatchStart = 0;
  /** The identify step of the last batch sent (recognition on): the next waits for it. */
  private carried: Promise<void> = Promise.resolve();
  /** Which faces of the batches (sent with `carry`, in time order) are embedded, which carry an embedding. */
  private readonly carry: IdentityCarry;
  private task: IdentityFrameTask | null = null;

  constructor(
    private readonly pool: AnalysisPool,
    private readonly faceGeom: FitGeometry,
    private readonly motionGeom: FitGeometry,
    private readonly identity: { geom: FitGeometry; sourceWidth: number; sourceHeight: number } | null,
    private readonly settings: AnalysisSettings,
    private readonly signal: AbortSignal | undefined,
    private readonly onError: (e: unknown) => void,
    /** Takes back an identity frame pushed here once its patches are cut (the decoder reads a later one into it). */
    private readonly recycle: (identityFrame: Uint8Array) => void = noop,
  ) {
    this.carry = new IdentityCarry(
      (src, face, thumb) => ({ ...carriedIdentity(src, face, this.identityTask()), thumb }),
      (face) => unembeddedIdentity(face, this.identityTask()),
    );
  }

  /**
   * Faces of these detector-size frames, one list per frame, with their identities from the
   * identity frames of the same instants when given (null where an instant has none; not tracked:
   * the caller awaits it). Detection
   * first; then only the faces their landmarks do not rule out are embedded, and only the patches of
   * the identity frames that their alignments read go to the worker (most sampled frames hold none). `carry`: these frames follow
   * the last ones given with `carry` (in time order), so a face seen there may carry its embedding.
   */
  async detectFaces(frames: Uint8Array[], identityFrames: Array<Uint8Array | null> = [], carry = false): Promise<RawFace[][]> {
    const g = this.faceGeom;
    const s = this.settings;
    const held = identityFrames.reduce((n, f) => n + (f?.byteLength ?? 0), 0);
    const detected = this.pool.detectFaces(
      { width: g.outWidth, height: g.outHeight, contentWidth: g.content.width, contentHeight: g.content.height, frames, scoreThreshold: s.faceScoreThreshold, nmsThreshold: s.faceNmsThreshold, topK: s.faceTopK },
      this.signal,
      held,
    );
    if (!this.identity) return detected;
    if (!carry) return this.identify(await detected, identityFrames, false);
    // Batches are detected side by side but identified in time order: a batch's first frame carries from the last one's.
    const step = Promise.all([detected, this.carried]).then(([faces]) => this.identify(faces, identityFrames, true));
    this.carried = step.then(noop, noop);
    return step;
  }

  /** What every identity task of this decode carries (its geometry, floors and model): made once. */
  private identityTask(): IdentityFrameTask {
    const id = this.identity!;
    return (this.task ??= identityFrameTask(id.geom, id.sourceWidth, id.sourceHeight, this.settings, path.basename(this.pool.embeddingModelPath)));
  }

  private async identify(faces: RawFace[][], identityFrames: Array<Uint8Array | null>, carry: boolean): Promise<RawFace[][]> {
    const task = this.identityTask();
    // Face frames without an identity frame (between two, or the last of a decode): their faces can
    // only carry a track's embedding (and get none outside `carry`).
    // Each sample's identity frame is cut down here to the patch its faces' alignments read: only
    // that goes to the worker and waits in the carry (kilobytes, not the frame's ~0.8 MB).
    const samples = faces.map((list, k) => {
      const whole = identityFrames[k] ?? null;
      const embeddable: RawFace[] = [];
      for (const f of whole || carry ? list : []) {
        const ruledOut = ruledOutByLandmarks(f, task);
        if (ruledOut) f.identity = ruledOut;
        else embeddable.push(f);
      }
      return { frame: whole && identityPatch(whole, embeddable, task), faces: embeddable };
    });
    // Nothing holds the decode's identity frames now (the carry keeps patches): they go back to be read into again.
    if (carry) for (const f of identityFrames) if (f) this.recycle(f);
    const groups = carry ? this.carry.plan(samples) : samples.flatMap((x) => (x.frame && x.faces.length > 0 ? [{ frame: x.frame, faces: [...x.faces] }] : []));
    await this.embed(groups, task);
    if (carry) await this.embed(this.carry.settle(), task);
    return faces;
  }

  private async embed(groups: readonly EmbedGroup[], task: IdentityFrameTask): Promise<void> {
    if (groups.length === 0) return;
    const ids = await this.pool.identifyFaces({ ...task, patches: groups.map((g) => g.frame), faces: groups.map((g) => g.faces), thumbOnly: groups.map((g) => !!g.thumbOnly) }, this.signal);
    groups.forEach((g, i) => g.faces.forEach((f, j) => (f.identity = ids[i]![j]!)));
  }

  pushFace(frame: Uint8Array): void {
    this.faceBatch.push(frame);
    this.maybeFlushFaces();
  }

  pushIdentity(frame: Uint8Array): void {
    this.identityBatch.push(frame);
    this.identityFrames++;
    this.maybeFlushFaces();
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
    // The tracks still open end with an embedding of their last face, after the last batch's.
    if (this.identity) this.track(this.carried.then(() => this.embed(this.carry.finish(), this.identityTask())).then(() => this.embed(this.carry.settle(), this.identityTask())));
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

  /**
   * A batch goes once it is full and, with recognition on, its identity frames have come too (face
   * frames up to the one of the next identity frame not yet read need none).
   */
  private maybeFlushFaces(): void {
    const every = this.settings.identityEvery;
    const ready = this.identity ? Math.min(this.faceBatch.length, this.identityFrames * every - this.faceBatchStart) : this.faceBatch.length;
    if (ready >= this.settings.faceBatchFrames) this.flushFaces(ready);
  }

  /** Sends the first n face frames (all by default) with the identity frames of the same instants. */
  private flushFaces(n = this.faceBatch.length): void {
    if (n === 0) return;
    const start = this.faceBatchStart;
    const every = this.settings.identityEvery;
    const frames = this.faceBatch.splice(0, n);
    const identityFrames = frames.map((_, k) => ((start + k) % every === 0 ? (this.identityBatch.shift() ?? null) : null));
    this.faceBatchStart += n;
    this.track(this.detectFaces(frames, identityFrames, true).then((faces) => faces.forEach((list, k) => (this.facesAt[start + k] = list))));
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
