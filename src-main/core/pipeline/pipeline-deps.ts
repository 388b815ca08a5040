import type { ProxyEncoder } from '../media/proxy-encoder';
import type { AnalysisPool } from '../analysis/analysis-pool';
import type { ProxySettings } from '../proxies/proxy-policy';
import type { CatalogDb } from '../catalog/open-catalog';
import type { ServiceClient } from '../service/client';
import type { TensorProfile } from '../tensors/tensor-profile';
import type { ClipShare } from '../team-port';
import type { Logger } from '../util/logger';
import type { Job } from './queue/job-types';
import type { InFlight } from './stages/run-pool';
import type { SegmentStore } from './service-cache/segment-store';
import type { ShotFrameCache } from './stages/shot-frame-cache';

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
