import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../../src-shared/errors';
import type { ResourceLocations } from '../util/app-resources';
import { resolveEmbeddingModelPath, resolveFaceModelPath, resolveOrtPath, resolveWorkerScript } from './resource-paths';
import type { MotionStep } from './workers/block-motion.cjs';
import type { FaceIdentity } from './analysis-types';
import type { FramePatch } from './workers/face-align.cjs';
import type { IdentityFrameTask } from './workers/face-identity.cjs';
import type { RawFace } from './workers/yunet.cjs';

export interface AnalysisPoolOptions extends ResourceLocations {
  /** Worker threads; default: cores - 1, at least 1, so the main thread and ffmpeg keep a core. */
  size?: number;
  modelPath?: string;
  embeddingModelPath?: string;
  workerScript?: string;
  /** Bytes of frames queued or in flight before waitForRoom() holds the producer back. */
  maxPendingBytes?: number;
}

export interface FaceTask {
  width: number;
  height: number;
  contentWidth: number;
  contentHeight: number;
  /** bgr24 frames of width x height; their buffers are transferred (unusable afterwards). */
  frames: Uint8Array[];
  scoreThreshold: number;
  nmsThreshold: number;
  topK: number;
}

/**
 * Recognition on: per sampled instant where detection found a face worth measuring, the patch of its
 * identity frame that the faces' alignments read (face-identity.cjs identityPatch), with those faces;
 * the answer is each face's identity.
 */
export interface IdentifyTask extends IdentityFrameTask {
  patches: FramePatch[];
  faces: RawFace[][];
  /** Per patch: only a thumbnail of each face, no model run (faces that carry their track's embedding). */
  thumbOnly: boolean[];
}

export interface MotionTask {
  width: number;
  height: number;
  /** gray frames of width x height; their buffers are transferred. */
  frames: Uint8Array[];
}

interface Job {
  id: number;
  message: Record<string, unknown>;
  transfer: ArrayBuffer[];
  bytes: number;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  done?: boolean;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export function defaultPoolSize(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, cores - 1);
}

/** A buffer that can be transferred: the frame must own its whole ArrayBuffer. */
function ownBuffer(frame: Uint8Array): ArrayBuffer {
  if (frame.byteOffset === 0 && frame.byteLength === frame.buffer.byteLength && frame.buffer instanceof ArrayBuffer) return frame.buffer;
  return frame.slice().buffer as ArrayBuffer;
}

/**
 * Bounded pool of worker threads for face detection and motion estimation. Work runs off the main
 * thread so the Electron main process (IPC, UI events) stays responsive while a library is
 * processed; at most `size` tasks run at once, the rest wait in order. One pool is meant to be
 * shared by all clips of a job run; close() ends its workers.
 */
const RELEASE_ID = -1;
const RELEASE_TIMEOUT_MS = 2000;
/** Longest a closing pool waits for an inference in flight (one frame batch takes well under a second). */
const BUSY_TIMEOUT_MS = 10_000;

export class AnalysisPool {
  readonly size: number;
  readonly modelPath: string;
  readonly embeddingModelPath: string;
  private readonly workerScript: string;
  private readonly ortPath: string;
  private readonly maxPendingBytes: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private pending = 0;
  private roomWaiters: Array<() => void> = [];
  private closed = false;

  constructor(opts: AnalysisPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(opts.size ?? defaultPoolSize()));
    this.modelPath = resolveFaceModelPath(opts.modelPath, opts);
    this.embeddingModelPath = resolveEmbeddingModelPath(opts.embeddingModelPath, opts);
    this.workerScript = resolveWorkerScript(opts.workerScript, opts);
    this.ortPath = resolveOrtPath();
    this.maxPendingBytes = opts.maxPendingBytes ?? 64 * 1024 * 1024;
  }

  /** Worker threads alive now (never more than size). */
  get workerCount(): number {
    return this.slots.length;
  }

  /** Bytes of frames queued or being processed. */
  get pendingBytes(): number {
    return this.pending;
  }

  /** Resolves once the pool has room for more frames: the producer's backpressure. */
  waitForRoom(): Promise<void> {
    if (this.pending < this.maxPendingBytes || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  hasRoom(): boolean {
    return this.pending < this.maxPendingBytes;
  }

  /**
   * `holding`: bytes the caller keeps until this answer comes (the identity frames of these instants,
   * sent on only where a face was found), counted with the task's own for the producer's backpressure.
   */
  detectFaces(task: FaceTask, signal?: AbortSignal, holding = 0): Promise<RawFace[][]> {
    const frames = task.frames.map(ownBuffer);
    const bytes = frames.reduce((s, b) => s + b.byteLength, holding);
    return this.submit({ ...task, type: 'faces', frames }, frames, bytes, signal) as Promise<RawFace[][]>;
  }

  /**
   * Patches are copied to the worker (structured clone: a few kilobytes each), never transferred:
   * IdentityCarry keeps a sample's patch for the faces that wait on their track's next embedding,
   * and a later call may ask for the same patch again (a run whose ends disagree, another track
   * ending there); a transferred one would be detached by then (postMessage throws, the clip's
   * analysis fails). Two entries of one call may be one patch: the clone sends it once.
   */
  identifyFaces(task: IdentifyTask, signal?: AbortSignal): Promise<FaceIdentity[][]> {
    const bytes = [...new Set(task.patches)].reduce((s, p) => s + p.data.byteLength, 0);
    return this.submit({ ...task, type: 'identify' }, [], bytes, signal) as Promise<FaceIdentity[][]>;
  }

  estimateMotion(task: MotionTask, signal?: AbortSignal): Promise<MotionStep[]> {
    const transfer = task.frames.map(ownBuffer);
    const bytes = transfer.reduce((s, b) => s + b.byteLength, 0);
    return this.submit({ ...task, type: 'motion', frames: transfer }, transfer, bytes, signal) as Promise<MotionStep[]>;
  }

  /** Loads the models in every worker now (the embedding model too with recognition on), so the first clip does not pay for them. */
  async warmUp(opts: { faceRecognition?: boolean } = {}): Promise<void> {
    await Promise.all(Array.from({ length: this.size }, () => this.submit({ type: 'warmup', recognition: !!opts.faceRecognition }, [], 0)));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, new AppError('cancelled', 'analysis pool closed'));
    const slots = this.slots.splice(0);
    for (const s of slots) if (s.job) this.settle(s.job, new AppError('cancelled', 'analysis pool closed'));
    await Promise.all(slots.map((s) => this.retire(s)));
    this.releaseWaiters();
  }

  /**
   * Ends a worker without ending a thread inside onnxruntime, which can crash the whole process in
   * its finalizers ("terminate called after throwing an instance of 'Napi::Error'", seen when the
   * app closed while two clips were being analysed): a busy worker first finishes its inference (its
   * caller was already released), then frees its session, then is terminated.
   */
  private async retire(slot: Slot): Promise<void> {
    slot.worker.ref();
    if (slot.job) await this.answer(slot, slot.job.id, BUSY_TIMEOUT_MS);
    await this.answer(slot, RELEASE_ID, RELEASE_TIMEOUT_MS, { id: RELEASE_ID, type: 'release' });
    await slot.worker.terminate();
  }

  /** Resolves when the worker answers message `id` (or after the timeout); sends `message` first if given. */
  private answer(slot: Slot, id: number, timeoutMs: number, message?: Record<string, unknown>): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        slot.worker.off('message', onMessage);
        slot.worker.off('exit', done);
        resolve();
      }
      const onMessage = (m: { id: number }) => {
        if (m.id === id) done();
      };
      slot.worker.on('message', onMessage);
      slot.worker.once('exit', done);
      if (message) slot.worker.postMessage(message);
    });
  }

  private submit(message: Record<string, unknown>, transfer: ArrayBuffer[], bytes: number, signal?: AbortSignal): Promise<unknown> {
    if (this.closed) return Promise.reject(new AppError('cancelled', 'analysis pool closed'));
    if (signal?.aborted) return Promise.reject(new AppError('cancelled', 'analysis cancelled'));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, message, transfer, bytes, resolve, reject, signal };
      if (signal) {
        job.onAbort = () => this.abortJob(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.pending += bytes;
      this.queue.push(job);
      this.pump();
    });
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerScript, { workerData: { ortPath: this.ortPath, modelPath: this.modelPath, embedModelPath: this.embeddingModelPath } });
    const slot: Slot = { worker, job: null };
    worker.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      slot.job = null;
      worker.unref();
      if (m.ok) this.settle(job, null, m.result);
      else this.settle(job, new AppError('internal', `analysis worker: ${m.error ?? 'failed'}`));
      this.pump();
    });
    const fail = (err: unknown) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      if (slot.job) this.settle(slot.job, new AppError('internal', `analysis worker died: ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
      slot.job = null;
      this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) fail(new Error(`exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      // Idle workers are unref'd so a forgotten pool never keeps the process alive; busy ones are not,
      // or Node could exit while a result is still owed.
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, ...job.message }, job.transfer);
    }
  }

  private abortJob(job: Job): void {
    const qi = this.queue.indexOf(job);
    if (qi >= 0) {
      this.queue.splice(qi, 1);
      this.settle(job, new AppError('cancelled', 'analysis cancelled'));
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) {
      // A running inference cannot be interrupted, and ending a thread inside onnxruntime can take
      // the process down: the caller is released now, the slot when the worker answers (ignored).
      this.settle(job, new AppError('cancelled', 'analysis cancelled'));
    }
  }

  private settle(job: Job, err: unknown, value?: unknown): void {
    if (job.done) return;
    job.done = true;
    if (job.signal && job.onAbort) job.signal.removeEventListener('abort', job.onAbort);
    this.pending -= job.bytes;
    if (err) job.reject(err);
    else job.resolve(value);
    if (this.pending < this.maxPendingBytes) this.releaseWaiters();
  }

  private releaseWaiters(): void {
    const w = this.roomWaiters.splice(0);
    for (const r of w) r();
  }
}
