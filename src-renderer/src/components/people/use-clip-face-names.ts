import { useEffect, useState } from 'react';
import type { Result } from '../../../../src-shared/contract';
import { api } from '../../api/client';

type ClipFaceName = Result<'people.clipFaces'>['faces'][number];

/** Who each face of the clip is (null: nobody named), for the viewer's boxes; read again when people change. */
export function useClipFaceNames(clipId: number): readonly ClipFaceName[] {
  const [faces, setFaces] = useState<readonly ClipFaceName[]>([]);
  useEffect(() => {
    let live = true;
    const load = () =>
      api.call('people.clipFaces', { clipId }).then(
        (r) => live && setFaces(r.faces),
        () => undefined,
      );
    void load();
    const off = api.on('catalog.changed', (p) => p.reason === 'people' && void load());
    return () => {
      live = false;
      off();
    };
  }, [clipId]);
  return faces;
}
