import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SHARED_DIR } from '../paths';

/**
 * OpenTimelineIO 0.18.1 with its cmx_3600, fcp_xml and fcpx_xml adapters (../shared/tools/otio,
 * built for these machines; CI unpacks it in .ci/run): the readers behind OTIO-based tools, and
 * code that shares nothing with the writers. `env.sh` unpacks it once and sets PYTHONPATH and
 * the plugin manifest; every read runs in a shell that sources it.
 */
const ENV_SH = path.join(SHARED_DIR, 'tools', 'otio', 'env.sh');

/** Why the read-back cannot run here, or null when it can. */
export function otioMissing(): string | null {
  if (!fs.existsSync(ENV_SH)) return `OpenTimelineIO is not here (${ENV_SH} is missing): the read-back tests need ../shared/tools/otio`;
  const r = spawnSync('bash', ['-c', `source "${ENV_SH}" && python3 -c "import opentimelineio as o; import sys; sys.exit(0 if {'cmx_3600','fcp_xml','fcpx_xml'} <= {a.name for a in o.plugins.ActiveManifest().adapters} else 3)"`], { encoding: 'utf8' });
  if (r.status !== 0) return `OpenTimelineIO 0.18.1 does not load with its three adapters (python3 exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').pop()})`;
  return null;
}

export interface ReadMarker {
  name: string;
  start: number;
  duration: number;
}
export interface ReadItem {
  schema: string;
  name: string;
  /** Source range start and duration as the reader built them (value at `rate`). */
  start: number;
  duration: number;
  rate: number;
  targetUrl: string | null;
  reference: string | null;
  markers: ReadMarker[];
  /** The comment lines of an EDL event the cmx_3600 reader has no meaning for ("PEOPLE: ..."), as it keeps them. */
  comments: string[];
}
export interface ReadTrack {
  kind: string;
  name: string;
  items: ReadItem[];
}
export interface ReadTimeline {
  name: string;
  tracks: ReadTrack[];
}

const SCRIPT = String.raw`
import json, sys
import opentimelineio as otio
path, adapter, rate = sys.argv[1], sys.argv[2], sys.argv[3]
kw = {'rate': float(rate)} if adapter == 'cmx_3600' else {}
got = otio.adapters.read_from_file(path, adapter_name=adapter, **kw)
timelines = [got] if isinstance(got, otio.schema.Timeline) else [t for t in got if isinstance(t, otio.schema.Timeline)]
def item(c):
    sr = c.source_range
    ref = getattr(c, 'media_reference', None)
    return {'schema': c.schema_name(), 'name': c.name, 'start': sr.start_time.value if sr else 0, 'duration': sr.duration.value if sr else 0,
            'rate': sr.start_time.rate if sr else 0, 'targetUrl': getattr(ref, 'target_url', None), 'reference': ref.schema_name() if ref else None,
            'markers': [{'name': m.name, 'start': m.marked_range.start_time.value, 'duration': m.marked_range.duration.value} for m in getattr(c, 'markers', [])],
            'comments': list(c.metadata.get('cmx_3600', {}).get('comments', []))}
print(json.dumps([{'name': t.name, 'tracks': [{'kind': str(tr.kind), 'name': tr.name, 'items': [item(c) for c in tr]} for tr in t.tracks]} for t in timelines]))
`;

/** Every timeline OTIO reads from `file` with `adapter` (`rate` for EDLs, which do not carry one). */
export function readWithOtio(file: string, adapter: 'cmx_3600' | 'fcp_xml' | 'fcpx_xml' | 'otio_json', rate = 24): ReadTimeline[] {
  const out = execFileSync('bash', ['-c', `source "${ENV_SH}" && exec python3 -c "$0" "$@"`, SCRIPT, file, adapter, String(rate)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out) as ReadTimeline[];
}
