import type { ReactNode } from 'react';
import type { PersonFace } from '../../../../src-shared/contract/people';
import { faceWhere } from './people-format';

/**
 * One face crop; without a crop (none kept for it yet) a neutral tile that says where the face is,
 * so the editor can still go and look.
 */
export function FaceTile({ face, size }: { face: PersonFace; size: number }): ReactNode {
  const where = faceWhere(face);
  return face.image ? (
    <img className="pp-face" src={face.image} alt={`Face in ${where}`} title={where} width={size} height={size} draggable={false} />
  ) : (
    <div className="pp-face pp-face-none" style={{ width: size, height: size }} role="img" aria-label={`Face in ${where} (no picture yet)`} title={where}>
      <span className="pp-face-glyph" aria-hidden>
        ◯
      </span>
      <span className="pp-face-clip">{face.clipName}</span>
      <span className="pp-face-time">{where.slice(face.clipName.length + 1)}</span>
    </div>
  );
}
