import type { ReactNode } from 'react';

export function JobsView(): ReactNode {
  return (
    <div className="view" data-view="jobs">
      <h1>Jobs</h1>
    </div>
  );
}
