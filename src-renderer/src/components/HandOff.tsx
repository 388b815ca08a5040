import { useEffect, useState, type ReactNode } from 'react';
import type { AppError } from '../../../src-shared/errors';
import { api } from '../api/client';

let capabilities: Promise<{ desktop: boolean; why: string | null }> | null = null;
/** Whether this transport can hand real files to other applications (asked once). */
export function useHandOffCapabilities(): { desktop: boolean; why: string | null } | null {
  const [caps, setCaps] = useState<{ desktop: boolean; why: string | null } | null>(null);
  useEffect(() => {
    capabilities ??= api.call('files.capabilities', {}).catch(() => ({ desktop: false, why: 'unknown' }));
    let live = true;
    void capabilities.then((c) => live && setCaps(c));
    return () => {
      live = false;
    };
  }, []);
  return caps;
}

/**
 * Starts an OS drag of the clips' real files (Electron's startDrag) from an element's dragstart;
 * in the browser the drag is cancelled and `onRefused` says why it cannot work there.
 */
export function dragOutHandler(clipIds: number[], caps: { desktop: boolean; why: string | null } | null, onRefused: (why: string) => void) {
  return (e: React.DragEvent) => {
    e.preventDefault();
    if (!caps?.desktop) {
      onRefused(caps?.why ?? 'Dragging files out needs the desktop app.');
      return;
    }
    void api.call('files.startDrag', { clipIds }).catch((err: AppError) => onRefused(err.message));
  };
}

/** Reveal in Finder/Explorer, Open in the default player, Copy path, and a drag handle. */
export function HandOff({ clipIds, path }: { clipIds: number[]; path: string }): ReactNode {
  const caps = useHandOffCapabilities();
  const [note, setNote] = useState<string | null>(null);
  const clipId = clipIds[0]!;
  const fail = (e: AppError) => setNote(e.message);
  const revealLabel = navigator.platform.startsWith('Mac') ? 'Reveal in Finder' : navigator.platform.startsWith('Win') ? 'Show in Explorer' : 'Show in folder';
  return (
    <span className="hand-off row" data-testid="hand-off">
      <span
        className={`btn drag-out${caps?.desktop ? '' : ' disabled'}`}
        draggable
        onDragStart={dragOutHandler(clipIds, caps, setNote)}
        title={caps?.desktop ? 'Drag the file into your NLE or a folder' : (caps?.why ?? '')}
        role="button"
        aria-disabled={!caps?.desktop}
        data-action="drag-out"
      >
        ⠿ Drag file
      </span>
      <button type="button" className="btn" disabled={!caps?.desktop} title={caps?.why ?? undefined} onClick={() => void api.call('files.reveal', { clipId }).catch(fail)}>
        {revealLabel}
      </button>
      <button type="button" className="btn" disabled={!caps?.desktop} title={caps?.why ?? undefined} onClick={() => void api.call('files.open', { clipId }).catch(fail)}>
        Open in player
      </button>
      <button
        type="button"
        className="btn"
        onClick={() =>
          void navigator.clipboard.writeText(path).then(
            () => setNote('Path copied'),
            () => setNote(`Copy failed; the path is ${path}`),
          )
        }
        data-action="copy-path"
      >
        Copy path
      </button>
      {!caps?.desktop && caps && <span className="muted sv-small" data-testid="hand-off-why">{caps.why}</span>}
      {note && <span className="muted sv-small" role="status">{note}</span>}
    </span>
  );
}
