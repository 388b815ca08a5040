import type { ReactNode } from 'react';
import { api } from '../../api/client';

/** The desktop app's folder picker as a button; nothing in the browser, where no picker reaches the disk. */
export function ChooseFoldersButton({ disabled, onPicked, children }: { disabled: boolean; onPicked: (paths: string[]) => void; children: ReactNode }) {
  if (!api.chooseFolders) return null;
  return (
    <button
      type="button"
      className="btn"
      disabled={disabled}
      onClick={async () => {
        const picked = await api.chooseFolders!();
        if (picked.length) onPicked(picked);
      }}
    >
      {children}
    </button>
  );
}
