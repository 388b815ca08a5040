import { AppError } from '../../../src-shared/errors';
// The region list is part of the renderer contract (Settings shows it); the client reuses it.
import { REGIONS, type RegionId } from '../../../src-shared/contract/settings';

export { REGIONS, type RegionId };
export type RegionInfo = (typeof REGIONS)[number];

export const REGION_IDS: readonly RegionId[] = REGIONS.map((r) => r.id);

export function regionInfo(id: RegionId): RegionInfo {
  const info = REGIONS.find((r) => r.id === id);
  if (!info) throw new AppError('invalid', `unknown region: ${String(id)}`);
  return info;
}

/** The base URL of a usable region, without a trailing slash. */
export function resolveBaseUrl(region: RegionId, baseUrls: Partial<Record<RegionId, string>>): string {
  const info = regionInfo(region);
  if (!info.available) throw new AppError('invalid', `region ${info.label} is not available yet`);
  const raw = baseUrls[region];
  if (!raw) throw new AppError('invalid', `no base URL is set for region ${info.label}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('invalid', `base URL of region ${info.label} is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('invalid', `base URL of region ${info.label} must be http(s): ${raw}`);
  }
  return url.toString().replace(/\/+$/, '');
}
