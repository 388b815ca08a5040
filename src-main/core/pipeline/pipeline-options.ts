import type { AnalysisPoolOptions } from '../analysis/analysis-pool';
import type { CatalogDb } from '../catalog/open-catalog';
import type { ProxySettings } from '../proxies/proxy-policy';
import type { EventBus } from '../rpc/event-bus';
import type { ServiceClient } from '../service/client';
import type { TensorProfile } from '../tensors/tensor-profile';
import type { Logger } from '../util/logger';
import type { ClipShare } from '../team-port';
import type { BackoffOptions } from './queue/error-policy';
import type { JobResource } from './queue/job-types';
import type { DiskRoomCheck } from './queue/queue-options';

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
  /** A clip's local analysis (faces among it) was stored: analysed here or adopted from a seat. */
  onClipAnalysed?: (clipId: number) => void;
  /** Room to write in the data folder: without it every stage waits, and carries on when there is. */
  disk?: DiskRoomCheck;
  /** The team library's share of the work while this seat is joined (team/syncs/clip-sharing.ts); solo when absent or null. */
  share?: () => ClipShare | null;
  /** When decodes also write viewing proxies and their space; 'needed' and the default budget when absent. */
  proxySettings?: () => ProxySettings;
  /** Whether decodes also make the faces' identity embeddings (Settings); on when absent. */
  faceRecognition?: () => boolean;
}
