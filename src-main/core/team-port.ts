import type { TeamVideoState } from '../../src-shared/contract/collections';
import type { TeamActivity } from '../../src-shared/contract/team';
import type { TensorService } from './tensors/chunk-upload';

/**
 * The team library's port, the one file outside src-main/core/team/ that names the team room. Two faces:
 * - for solo code (pipeline, search, collections, marks, library, people), the types below: all it
 *   knows of the room. Solo code works the same with each of these absent (solo); a joined seat hands
 *   them in (team/team-runtime.ts implements them). They say in their own words what the room needs of
 *   the solo modules (a space, an upload's row), and solo code imports them as types only, so naming
 *   the port loads nothing;
 * - for the app's composition (settings/ and the core's root), the room's one door, `openTeamRoom`
 *   (team/team-room.ts): the opt-in's handlers and each open catalog's runtime.
 * The rule `layers` (eslint-rules/index.mjs) refuses any other import of the room from outside it,
 * a value import of this file from below the room, and anything here but types from below and the door.
 */

export { openTeamRoom, type TeamOptInHandlers, type TeamRoom, type TeamRuntimeNeeds } from './team/team-room';

/** An embedding space, as the team keys the texts it shares (search's EmbeddingSpace is one). */
export interface TextSpace {
  model: string;
  region: string;
}

/** What the team needs of a collection's row to claim its upload (collections' VideoRow is one). */
export interface UploadRow {
  clipId: number;
  collectionId: string;
  region: string;
  /** When the clip was added to the collection (here, or by another seat). */
  attachedAt: number;
  /** The team's video the service failed that this upload replaces (the editor's Retry); null otherwise. */
  replacesVideoId: string | null;
}

/** Whether this seat analyses a clip itself (team libraries divide the work; solo always does). */
export type ShareDecision =
  | { kind: 'here' }
  /** The team had the clip's results: they are in this catalog now, nothing to decode or send. */
  | { kind: 'adopted'; from: string }
  /** Another seat holds the clip: look again after the delay (its results may wake the job sooner). */
  | { kind: 'wait'; delayMs: number; note: string };

/** A seat of a team library's share of the indexing (team/syncs/clip-sharing.ts); absent when solo. */
export interface ClipShare {
  beforeAnalysis(clipId: number): Promise<ShareDecision>;
  /** The clip is indexed in this catalog. */
  indexed(clipId: number): void;
  /** Another seat held the clip before this one (it died or lost its lease): what it sent is in the team's journal. */
  takenOver(clipId: number): boolean;
  /**
   * Storage keys the team's journal holds for these request ids of the clip: only rows recorded under
   * its team clip (empty when the server does not answer or the clip is not linked to the team's).
   */
  knownUploads(clipId: number, region: string, requestIds: readonly string[]): Promise<Map<string, string>>;
  /** Task ids the team's journal holds for the clip, by `<kind>:<upload request id>` (empty as for knownUploads). */
  knownTasks(clipId: number, region: string, uploadRequestIds: readonly string[]): Promise<Map<string, string>>;
  /** The service answered an upload of the clip: into the team's journal (never throws; nothing while the server is away). */
  uploaded(clipId: number, requestId: string, region: string, storageKeysJson: string): Promise<void>;
  /** The service answered a submission of the clip: into the team's journal (never throws). */
  submitted(clipId: number, uploadRequestId: string, kind: TensorService, region: string, taskId: string): Promise<void>;
}

/**
 * What search asks of a team library (team/syncs/text-sharing.ts): encode_text is billed per call, so a
 * text any seat had the service encode (a reference query, a typed search) is the whole team's.
 */
export interface TextShare {
  /** Whether the team server answered last time (a search someone waits for only asks it then). */
  online(): boolean;
  /** Vectors the team has for these texts in the space, by normalised text (empty when it does not answer). */
  known(space: TextSpace, texts: readonly string[]): Promise<Map<string, Float32Array>>;
  /** A text the service encoded for this seat goes to the team (never rejects; a search does not wait for it). */
  encoded(space: TextSpace, text: string, vector: ArrayLike<number>): Promise<void>;
  /** The reference queries are encoded by one seat: this one (call `done` after), or another (wait). */
  claimBank(): Promise<{ kind: 'here'; done(): Promise<void> } | { kind: 'wait'; delayMs: number; note: string }>;
}

/** What a joined seat's team answers before a clip is uploaded into a collection (team/syncs/collections-sync.ts). */
export type UploadClaim =
  /** Upload it; `hold` (a claim held for the team, null when solo or detached) is ended with whether a video id came of it. */
  | { kind: 'upload'; hold: { end(uploaded: boolean): void } | null }
  /** The team has its video: record it, send nothing. */
  | { kind: 'adopt'; videoId: string; state: TeamVideoState }
  /** Another seat is uploading it (or the team does not know the clip yet): look again later. */
  | { kind: 'wait'; note: string; retryMs: number };

/** The collections' uploads and members shared by the seats (team/syncs/collections-sync.ts); absent when solo. */
export interface CollectionShare {
  claim(row: UploadRow): Promise<UploadClaim>;
  /** A member changed here (added, removed): send it soon. */
  edited(): void;
}

/** The team library of one open catalog (team/team-runtime.ts): all the app's composition calls. */
export interface TeamRuntime {
  /** The indexing share of the seat while joined; null when solo. */
  share(): ClipShare | null;
  /** A mark was edited here: while joined, send it soon. */
  marksEdited(): void;
  /** People changed here: while joined, send soon. */
  peopleEdited(): void;
  /** The team's encoded texts while joined; null when solo. */
  textShare(): TextShare | null;
  /** The collections' uploads and members while joined; null when solo. */
  collectionShare(): CollectionShare | null;
  /** This seat's share of the work (team.activity). */
  activity(): TeamActivity;
  stop(): Promise<void>;
}
