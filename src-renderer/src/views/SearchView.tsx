import type { ReactNode } from 'react';

export function SearchView(): ReactNode {
  return (
    <div className="view" data-view="search">
      <h1>Search</h1>
    </div>
  );
}
