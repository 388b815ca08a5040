import type { ReactNode } from 'react';

export function LibraryView(): ReactNode {
  return (
    <div className="view" data-view="library">
      <h1>Library</h1>
    </div>
  );
}
