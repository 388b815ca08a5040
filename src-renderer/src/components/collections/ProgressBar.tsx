import type { ReactNode } from 'react';

/** A thin bar; without a value it runs as an indeterminate stripe (the service sent no progress). */
export function ProgressBar({ value, tone = 'accent', label }: { value: number | null; tone?: 'accent' | 'ok' | 'error' | 'muted'; label?: string }): ReactNode {
  const pct = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      className={`col-progress tone-${tone}${pct === null ? ' indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct ?? undefined}
    >
      <div className="col-progress-fill" style={pct === null ? undefined : { width: `${pct}%` }} />
    </div>
  );
}
