import { useEffect, useState } from 'react';
import type { ExportFormatId, ExportPlan } from '../../../src-shared/contract/export';
import type { ArgsIn } from '../../../src-shared/contract';
import { api } from '../api/client';

type Selection = ArgsIn<'export.build'>['selection'];

/**
 * What the export would write for this format and selection, asked of main before the editor
 * clicks (one file or one per rate, what is left out and why). Selections are rebuilt on every
 * render, so the request follows their content, and waits a moment while the editor is still choosing.
 */
export function useExportPlan(format: ExportFormatId, selection: Selection, title: string | undefined, enabled: boolean): ExportPlan | null {
  const [plan, setPlan] = useState<ExportPlan | null>(null);
  const key = JSON.stringify([format, selection, title ?? null]);
  useEffect(() => {
    if (!enabled) {
      setPlan(null);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      api
        .call('export.plan', { format, selection, title })
        .then((p) => live && setPlan(p))
        .catch(() => live && setPlan(null)); // the Export button's own outcome says what failed
    }, 250);
    return () => {
      live = false;
      clearTimeout(t);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the arguments' content
  }, [key, enabled]);
  return plan;
}

/** "Writes Dog 25 fps.edl and Dog 29.97 fps DF.edl (7 items; 1 left out)": the plan as one line. */
export function planLine(plan: ExportPlan): string {
  const names = plan.fileNames.length <= 3 ? plan.fileNames.join(', ') : `${plan.fileNames.length} files (${plan.fileNames.slice(0, 2).join(', ')}…)`;
  const left = plan.skipped.length > 0 ? `; ${plan.skipped.length} left out` : '';
  return `Writes ${names} · ${plan.items} item${plan.items === 1 ? '' : 's'}${left}`;
}
