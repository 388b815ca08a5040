import path from 'node:path';

/** The spec recommends direct upload "for files under 100 MB". */
export const DIRECT_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

/**
 * Containers sent as they are. The spec does not list the formats the upload accepts; mp4 and
 * mov are the ones every video service takes, so everything else goes as an H.264/AAC mp4 proxy.
 */
export const DIRECT_CONTAINERS: readonly string[] = ['mp4', 'mov'];
const DIRECT_EXTENSIONS: Record<string, string> = { '.mp4': 'mp4', '.m4v': 'mp4', '.mov': 'mov' };

export interface UploadCandidate {
  path: string;
  sizeBytes: number;
  /** The catalog's short container name from ffprobe (mp4, mov, matroska...), null before probing. */
  container: string | null;
}

export interface UploadPlan {
  source: 'original' | 'proxy';
  reason: string;
}

/**
 * Original when the file is under the size threshold and its container is mp4 or mov; a proxy
 * otherwise. Before the clip is probed the extension stands in for the container.
 */
export function planUpload(c: UploadCandidate, thresholdBytes: number = DIRECT_UPLOAD_MAX_BYTES): UploadPlan {
  const container = c.container?.toLowerCase() ?? DIRECT_EXTENSIONS[path.extname(c.path).toLowerCase()] ?? null;
  if (!container || !DIRECT_CONTAINERS.includes(container)) {
    return { source: 'proxy', reason: `container ${container ?? (path.extname(c.path) || 'unknown')} is not mp4/mov` };
  }
  if (c.sizeBytes >= thresholdBytes) {
    return { source: 'proxy', reason: `${(c.sizeBytes / 1048576).toFixed(1)} MB is not under the ${(thresholdBytes / 1048576).toFixed(1)} MB direct-upload limit` };
  }
  return { source: 'original', reason: `${container} under ${(thresholdBytes / 1048576).toFixed(1)} MB` };
}
