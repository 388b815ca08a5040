import { useEffect, useState, type ReactNode } from 'react';
import type { AppError } from '../../../src-shared/errors';
import { api } from '../api/client';
import { copyText } from '../api/copy-text';
import { useTransientNote } from './use-transient-note';

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

/** The clipboard with a note of how it went, naming what was copied. */
function CopyButton({ text, what, onNote }: { text: string; what: string; onNote: (note: string) => void }): ReactNode {
  return (
    <button
      type="button"
      className="btn"
      onClick={() =>
        void copyText(text).then((ok) => onNote(ok ? `${what[0]!.toUpperCase()}${what.slice(1)} copied: ${text}` : `Copy failed; the ${what} is ${text}`))
      }
      data-action={`copy-${what}`}
    >
      Copy {what}
    </button>
  );
}

/**
 * Reveal in Finder/Explorer, Open in the default player, Copy path, and a drag handle. A clip added
 * by URL has no file on this computer: only its address can be copied.
 */
export function HandOff({ clipIds, path, sourceUrl }: { clipIds: number[]; path: string; sourceUrl: string | null }): ReactNode {
  const caps = useHandOffCapabilities();
  const [note, setNote] = useTransientNote();
  const clipId = clipIds[0]!;
  const fail = (e: AppError) => setNote(e.message);
  if (sourceUrl) {
    return (
      <span className="hand-off row" data-testid="hand-off">
        <CopyButton text={sourceUrl} what="address" onNote={setNote} />
        <span className="muted sv-small" data-testid="hand-off-why">
          Streamed from its address: no file on this computer to show, open or drag into an NLE.
        </span>
        {note && <span className="muted sv-small" role="status" data-testid="hand-off-note">{note}</span>}
      </span>
    );
  }
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
      <CopyButton text={path} what="path" onNote={setNote} />
      {!caps?.desktop && caps && <span className="muted sv-small" data-testid="hand-off-why">{caps.why}</span>}
      {note && <span className="muted sv-small" role="status" data-testid="hand-off-note">{note}</span>}
    </span>
  );
}
