import { ERROR_KINDS, type ErrorKind } from '../../../src-shared/errors';
import { COLLECTION_VIDEO_STATES, VIDEO_STATES, type CollectionVideo, type CollectionVideoState, type TeamVideoState } from '../../../src-shared/contract/collections';
import { presenceToSend, type MemberVersion } from './collection-member-merge';
import type { Held } from '../util/take-field';

/** One row of collection_videos: a clip in a collection of a region. */
export interface VideoKey {
  collectionId: string;
  region: string;
  clipId: number;
}

export interface VideoRow extends VideoKey {
  fileName: string;
  videoId: string | null;
  status: CollectionVideoState;
  progress: number | null;
  errorKind: ErrorKind | null;
  errorMessage: string | null;
  source: 'original' | 'proxy' | null;
  proxyPath: string | null;
  uploads: number;
  updatedAt: number;
  /** When the clip was added to the collection (here, or by `addedBy`). */
  attachedAt: number;
  /** The team seat whose add this row is; null: this catalog's own. */
  addedBy: string | null;
  /** The video the service failed that this row's retry uploads anew (catalog migration 0060); null: not a retry. */
  replacesVideoId: string | null;
}

/** States in which the app still has work to do for the row (upload or poll). */
export const OPEN_STATES: readonly CollectionVideoState[] = ['queued', 'transcoding', 'uploading', 'uploaded', 'processing'];
/** Before the service answered the upload with a video_id. */
export const UPLOAD_STATES: readonly CollectionVideoState[] = ['queued', 'transcoding', 'uploading'];
/** The service has the video and is (or may be) processing it. */
export const POLL_STATES: readonly CollectionVideoState[] = ['uploaded', 'processing'];

/** A row of collection_videos as stored, with its clip's file name. */
export interface RawRow {
  collection_id: string;
  region: string;
  clip_id: number;
  file_name: string | null;
  video_id: string | null;
  status: string;
  progress: number | null;
  error_kind: string | null;
  error_message: string | null;
  source: string | null;
  proxy_path: string | null;
  uploads: number;
  updated_at: number;
  attached_at: number | null;
  added_by: string | null;
  removed_at: number | null;
  removed_by: string | null;
  presence_at: number;
  presence_by: string | null;
  replaces_video_id: string | null;
}

export function toRow(r: RawRow): VideoRow {
  return {
    collectionId: r.collection_id,
    region: r.region,
    clipId: r.clip_id,
    fileName: r.file_name ?? `clip ${r.clip_id}`,
    videoId: r.video_id,
    status: (COLLECTION_VIDEO_STATES as readonly string[]).includes(r.status) ? (r.status as CollectionVideoState) : 'processing',
    progress: r.progress,
    errorKind: (ERROR_KINDS as readonly string[]).includes(r.error_kind ?? '') ? (r.error_kind as ErrorKind) : null,
    errorMessage: r.error_message,
    source: r.source === 'original' || r.source === 'proxy' ? r.source : null,
    proxyPath: r.proxy_path,
    uploads: r.uploads,
    updatedAt: r.updated_at,
    attachedAt: r.attached_at ?? r.updated_at,
    addedBy: r.added_by,
    replacesVideoId: r.replaces_video_id,
  };
}

export function toContractVideo(r: VideoRow): CollectionVideo {
  return {
    collectionId: r.collectionId,
    clipId: r.clipId,
    fileName: r.fileName,
    videoId: r.videoId,
    status: r.status,
    progress: r.progress === null ? null : Math.min(1, Math.max(0, r.progress)),
    errorKind: r.errorKind,
    errorMessage: r.errorMessage,
    source: r.source,
    uploads: r.uploads,
    updatedAt: r.updatedAt,
  };
}

/** A change the team must hear of: an add, a removal, a video id, the service's verdict. */
export interface MemberReceipt {
  collectionId: string;
  region: string;
  clipId: number;
  at: number;
}

/** What applying another seat's version of a member did to this catalog's row. */
export interface AppliedMember {
  key: VideoKey;
  /** The row was written (the views are told). */
  changed: boolean;
  /** The clip has work to (re)start: an upload to claim, or a video to poll. */
  schedule: boolean;
  /** The member was removed while work on it was open here. */
  cancel: boolean;
}

/** The row's video as the team's rule sees it; a video id on a row in another state (cancelled, reset to poll) counts as uploaded. */
function videoOf(r: RawRow, seatId: string): MemberVersion['video'] {
  if (r.video_id === null) return null;
  const state = (VIDEO_STATES as readonly string[]).includes(r.status) ? (r.status as TeamVideoState) : 'uploaded';
  return { id: r.video_id, state, by: seatId };
}

/** The row's presence as the seat holds it: the server's stamp last seen, pending while this catalog's add or removal waits (catalog migration 0059). */
export function heldPresence(r: RawRow, seatId: string): Held<boolean> {
  return { value: r.removed_at === null, stamp: { at: r.presence_at, by: r.presence_by ?? seatId }, pending: r.presence_by === null };
}

/** The row as a version of the team's member, as this seat sends it: its presence over its base, and its video. */
export function versionOf(r: RawRow, seatId: string): MemberVersion {
  return { ...presenceToSend(heldPresence(r, seatId), seatId), video: videoOf(r, seatId) };
}
