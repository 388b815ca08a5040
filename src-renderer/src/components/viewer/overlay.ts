/**
 * Where the tags of the span under the playhead show over the picture, and whether they show:
 * a corner the editor chooses (a burnt-in timecode or a title may sit in any corner), or hidden
 * (T). Kept in the renderer's storage, so the viewer opens the way it was left.
 */
export const OVERLAY_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type OverlayPosition = (typeof OVERLAY_POSITIONS)[number];

export interface OverlaySettings {
  visible: boolean;
  position: OverlayPosition;
}

export const DEFAULT_OVERLAY: OverlaySettings = { visible: true, position: 'top-left' };

export const OVERLAY_POSITION_LABEL: Record<OverlayPosition, string> = {
  'top-left': 'Top left',
  'top-right': 'Top right',
  'bottom-left': 'Bottom left',
  'bottom-right': 'Bottom right',
};

const KEY = 'reelscout.viewerOverlay';

/** What was stored, or the default for anything missing or unreadable. */
export function parseOverlay(stored: string | null): OverlaySettings {
  try {
    const v = JSON.parse(stored ?? '{}') as Partial<OverlaySettings>;
    return {
      visible: typeof v.visible === 'boolean' ? v.visible : DEFAULT_OVERLAY.visible,
      position: OVERLAY_POSITIONS.includes(v.position as OverlayPosition) ? (v.position as OverlayPosition) : DEFAULT_OVERLAY.position,
    };
  } catch {
    return DEFAULT_OVERLAY;
  }
}

export function loadOverlay(storage: { getItem(key: string): string | null }): OverlaySettings {
  return parseOverlay(storage.getItem(KEY));
}

export function saveOverlay(storage: { setItem(key: string, value: string): void }, s: OverlaySettings): void {
  storage.setItem(KEY, JSON.stringify(s));
}

export function toggleOverlay(s: OverlaySettings): OverlaySettings {
  return { ...s, visible: !s.visible };
}

/** Choosing a corner shows the tags there. */
export function moveOverlay(s: OverlaySettings, position: OverlayPosition): OverlaySettings {
  return { visible: true, position };
}
