import type { ReactNode } from 'react';
import { VIEWER_KEYS } from './keys';

/** The "?" overlay: every key of the viewer, over the picture (? or a click closes it). */
export function ViewerKeysHelp({ onClose }: { onClose: () => void }): ReactNode {
  return (
    <div className="viewer-keys-help" role="dialog" aria-label="Keyboard shortcuts" data-testid="viewer-keys-help" onClick={(e) => { e.stopPropagation(); onClose(); }}>
      <table>
        <tbody>
          {VIEWER_KEYS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">{keys}</th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
