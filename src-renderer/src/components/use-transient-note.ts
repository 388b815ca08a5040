import { useEffect, useState } from 'react';

/** How long a confirmation ("Path copied", "Saved") stays: read once, then out of the way. */
export const NOTE_MS = 6000;

/** A note that clears itself NOTE_MS after it was last set: confirmations are news, not state. */
export function useTransientNote(): [string | null, (note: string | null) => void] {
  const [note, setNote] = useState<{ text: string; at: number } | null>(null);
  useEffect(() => {
    if (!note) return;
    const t = setTimeout(() => setNote(null), NOTE_MS);
    return () => clearTimeout(t);
  }, [note]);
  return [note?.text ?? null, (text) => setNote(text === null ? null : { text, at: Date.now() })];
}
