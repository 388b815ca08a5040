import type { ProxyEncoder } from '../media/proxy-encoder';
import type { AnalysisPool } from '../analysis/analysis-pool';
import type { ProxySettings } from '../proxies/proxy-policy';
import type { CatalogDb } from '../catalog/open-catalog';
import type { ServiceClient } from '../service/client';
import type { TensorService } from '../tensors/chunk-upload';
import type { TensorProfile } from '../tensors/tensor-profile';
import type { Logger } from '../util/logger';
import type { Job } from './queue/job-types';
import type { InFlight } from './stages/run-pool';
import type { SegmentStore } from './service-cache/segment-store';
import type { ShotFrameCache } from './stages/shot-frame-cache';

/** Whether this seat analyses a clip itself (team libraries divide the work; solo always does). */
export type ShareDecision =
  | { kind: 'here' }
  /** The team had the clip's results: they are in this catalog now, nothing to decode or send. */
  | { kind: 'adopted'; from: string }
  /** Another seat holds the clip: look again after the delay (its results may wake the job sooner). */
  | { kind: 'wait'; delayMs: number; note: string };

/** A seat of a team library's share of the indexing (clip-sharing.ts); absent when solo. */
export interface ClipShare {
  beforeAnalysis(clipId: number): Promise<ShareDecision>;
  /** The clip is indexed in this catalog. */
  indexed(clipId: number): void;
  /** Another seat held the clip before this one (it died or lost its lease): what it sent is in the team's journal. */
  takenOver(clipId: number): boolean;
  /** Storage keys the team's journal holds for these request ids (empty when the server does not answer). */
  knownUploads(region: string, requestIds: readonly string[]): Promise<Map<string, string>>;
  /** Task ids the team's journal holds, by `<kind>:<upload request id>` (empty when the server does not answer). */
  knownTasks(region: string, uploadRequestIds: readonly string[]): Promise<Map<string, string>>;
  /** The service answered an upload of the clip: into the team's journal (never throws; nothing while the server is away). */
  uploaded(requestId: string, region: string, storageKeysJson: string): Promise<void>;
  /** The service answered a submission of the clip: into the team's journal (never throws). */
  submitted(uploadRequestId: string, kind: TensorService, region: string, taskId: string): Promise<void>;
}

/** Everything the indexing stages use, handed in by the orchestrator (and by tests). */
export interface StageDeps {
  db: CatalogDb;
  store: SegmentStore;
  profile: TensorProfile;
  /** The app cache folder; thumbnails go to its thumbs/ subfolder. */
  cacheDir: string;
  /** The service client for the current settings; throws 'auth' (or 'invalid') when none is configured. */
  client(): ServiceClient;
  /** Region and model label stored beside embeddings (the search reads them back by these). */
  identity(): { region: string; model: string };
  tools(): { ffmpeg?: string; ffprobe?: string };
  /** The encoder of the viewing proxies on this machine (asked of ffmpeg once). */
  proxyEncoder(): Promise<ProxyEncoder>;
  /** Threads for a decode `job` starts now: the cores split between it and the CPU jobs running (decodesAtOnce). */
  decodeThreads(job: Job): number;
  /** When a clip's decode also writes a viewing proxy, and the space proxies may take (Settings). */
  proxySettings(): ProxySettings;
  /** Whether a clip's decode also makes its faces' identity embeddings (Settings). */
  faceRecognition(): boolean;
  /** The worker pool for faces and motion, made on first use and shared by every clip. */
  analysisPool(): AnalysisPool;
  /** Service calls one network job makes at once (the client's limiter still bounds the key as a whole). */
  callsPerJob: number;
  /** Delay before polling a task again, from how long it has been submitted. */
  pollDelayMs(ageMs: number): number;
  /** Resubmissions allowed after the service reports a task failed. */
  maxResubmits: number;
  inflight: InFlight;
  /** A stage changed what the Library shows of a clip (shots, thumbnails): views re-query. */
  mediaChanged(clipId: number): void;
  /** The clip's local analysis was stored (the people module groups its faces). */
  analysed(clipId: number): void;
  /** Decoded shots between planning and upload (the normal path decodes a shot once). */
  frameCache: ShotFrameCache;
  /** The team library's share of the work while this seat is joined; null when solo. */
  share(): ClipShare | null;
  logger?: Logger;
}
