import { AppError } from '../../../src-shared/errors';

export type RegionId = 'asia' | 'usa' | 'china';

export interface RegionInfo {
  id: RegionId;
  label: string;
  /** The spec announces usa and china as "coming soon": they are listed, never used. */
  available: boolean;
}

export const REGIONS: readonly RegionInfo[] = [
  { id: 'asia', label: 'Asia (primary)', available: true },
  { id: 'usa', label: 'USA (coming soon)', available: false },
  { id: 'china', label: 'China (coming soon)', available: false },
];

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
