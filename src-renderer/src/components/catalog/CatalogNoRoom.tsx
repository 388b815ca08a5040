import { useEffect, useRef, type ReactNode } from 'react';
import type { CatalogHealth } from '../../../../src-shared/contract/catalog';
import './catalog.css';

/**
 * In place of the app when there is not enough room on the disk yet to start the catalog (or to
 * upgrade it): the folder and the figures as they are now, in the core's words, and that nothing
 * needs doing here. The core looks at the disk every few seconds and says when the catalog opens
 * (catalog.health); this screen then gives way to the library by itself.
 */
export function CatalogNoRoom({ health }: { health: CatalogHealth }): ReactNode {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <main className="recovery" data-view="catalog-no-room">
      <div className="recovery-card card no-room" role="status">
        <h1 ref={heading} tabIndex={-1}>
          Not enough room yet
        </h1>
        <p data-testid="no-room-message">{health.message}</p>
        <p className="muted">Nothing else needs doing: Reelscout looks at the disk every few seconds and opens the library as soon as there is room.</p>
      </div>
    </main>
  );
}
