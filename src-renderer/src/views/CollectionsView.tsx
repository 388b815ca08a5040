import type { ReactNode } from 'react';

export function CollectionsView(): ReactNode {
  return (
    <div className="view" data-view="collections">
      <h1>Collections</h1>
    </div>
  );
}
