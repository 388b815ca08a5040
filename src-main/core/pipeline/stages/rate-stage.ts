import { clipWhere, fileWentAway, reachClipFile } from '../../library/clip-reach';
import { getClipRow } from '../../library/clip-store';
import { recordPictureRate } from '../../library/clips-repository';
import { readNominalRate } from '../../media/probe';
import type { StageHandler } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';

/**
 * The rate a VFR clip probed before catalog 0063 was shot at, read from its first pictures the way
 * the probe reads it (readNominalRate), for a clip catalog 0064 marked: the rate is set when it
 * differs (the Library and the viewer read the clip again on `mediaChanged`; saved ranges keep the
 * rate they were saved at) and the mark cleared. On the background lane, after all indexing;
 * pausable and cancellable in Jobs. A file that is away (its drive unplugged) is `unplugged`: the
 * job waits for it, marked, and runs when the Library finds it back. One ffprobe cannot read keeps
 * its rate and loses its mark: reading it again would fail the same way.
 */
export function rateStage(d: StageDeps): StageHandler<'rate'> {
  return {
    stage: 'rate',
    maxAttempts: 2,
    async run(ctx) {
      const row = getClipRow(d.db, ctx.job.clipId!);
      // A reset content clears the mark (its probe reads the rate); a clip not probed or not VFR has no rate to read here.
      if (row.rate_unread !== 1 || row.vfr !== 1 || row.probed_at === null) return {};
      const where = clipWhere(row);
      // Away: `unplugged`, the job waits for the file. A file touched or rewritten since is read as it is: a changed content is
      // probed again when the Library finds it (the reset clears the mark, recordPictureRate then writes nothing).
      reachClipFile(d.db, where);
      const fps = await readNominalRate(where.path, { ffprobe: d.tools().ffprobe, signal: ctx.signal });
      ctx.signal.throwIfAborted();
      if (fps === null) {
        const away = fileWentAway(d.db, where);
        if (away) throw away;
        d.logger?.info('rate.kept', { clipId: row.id });
      }
      if (recordPictureRate(d.db, row, fps)) d.mediaChanged(row.id);
      return {};
    },
  };
}
