/**
 * Import throughput on a generated tree of small videos: first import (walk, fingerprint, insert,
 * then every file confirmed by ffprobe) against an unchanged re-import (walk + stat only). The
 * probe is the pipeline's first stage in the app, not the import's: here it is the same library
 * function, run 3 at a time as the pipeline's CPU slots run it, without the posters the app makes
 * in between (so the first import is not flattered by work it does not need). SCAN_FILES overrides
 * the number of files (default 5000). Last line: one JSON object.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCatalog } from '../src-main/core/catalog/open-catalog';
import { importPaths } from '../src-main/core/library/import/import-library';
import { probeClip } from '../src-main/core/pipeline/stages/clip-media';
import { appCpuSlots } from '../src-main/core/pipeline/app-pipeline';
import { runPool } from '../src-main/core/pipeline/stages/run-pool';
import { defaultVolumeResolver } from '../src-main/core/library/volumes/default-resolver';
import { ffPath } from '../src-main/core/media/ffmpeg-locate';
import { freeBox } from '../test/helpers/footage/distinct-copies';

const FILES = Number(process.env.SCAN_FILES ?? 5000);
const DISTINCT = 20;
const PER_DIR = 100;

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-bench-scan-'));
  try {
    const sources = path.join(work, 'sources');
    fs.mkdirSync(sources);
    const ffmpeg = ffPath('ffmpeg');
    const t0 = performance.now();
    const clips: Buffer[] = [];
    for (let i = 0; i < DISTINCT; i++) {
      const out = path.join(sources, `c${i}.mp4`);
      execFileSync(ffmpeg, [
        '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=s=64x64:r=25:d=0.5`,
        '-vf', `hue=h=${i * (360 / DISTINCT)}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
        '-movflags', '+faststart', out,
      ]);
      clips.push(fs.readFileSync(out));
    }
    const tree = path.join(work, 'footage');
    for (let i = 0; i < FILES; i++) {
      const d = path.join(tree, `day ${String(Math.floor(i / PER_DIR)).padStart(3, '0')}`);
      if (i % PER_DIR === 0) fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, `clip_${String(i).padStart(5, '0')}.mp4`), Buffer.concat([clips[i % DISTINCT]!, freeBox(i)]));
    }
    console.log(`generated ${FILES} files (${DISTINCT} distinct clips) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const db = openCatalog(path.join(work, 'catalog.sqlite'));
    const resolver = defaultVolumeResolver();
    let lastLog = 0;
    const t1 = performance.now();
    const first = await importPaths(db, [tree], {
      resolver,
      onProgress: (p) => {
        if (performance.now() - lastLog > 15_000) {
          lastLog = performance.now();
          console.log(`  ${p.phase} ${p.done}/${p.total}`);
        }
      },
    });
    const catalogueS = (performance.now() - t1) / 1000;
    const slots = appCpuSlots();
    let probed = 0;
    await runPool(first.needMedia, slots, async (id) => {
      await probeClip(db, id);
      if (++probed % 1000 === 0) console.log(`  probed ${probed}/${first.needMedia.length}`);
    });
    const firstS = (performance.now() - t1) / 1000;
    const statuses = db.prepare('SELECT status, COUNT(*) AS n FROM clips GROUP BY status').all() as { status: string; n: number }[];
    console.log(
      `first import: ${first.summary.added} catalogued in ${catalogueS.toFixed(2)} s, all probed (${slots} at a time) in ${firstS.toFixed(2)} s = ${(FILES / firstS).toFixed(1)} files/s; statuses ${JSON.stringify(statuses)}`,
    );

    const t2 = performance.now();
    const again = await importPaths(db, [tree], { resolver });
    const rescanS = (performance.now() - t2) / 1000;
    console.log(`unchanged re-import: ${again.summary.unchanged} unchanged, ${again.summary.added + again.summary.updated} re-read in ${rescanS.toFixed(3)} s = ${(FILES / rescanS).toFixed(0)} files/s`);
    const ratio = rescanS / firstS;
    console.log(`rescan_ratio = ${ratio.toFixed(4)} (goal <= 0.1)`);
    db.close();
    const allProbed = statuses.length === 1 && statuses[0]!.status === 'probed' && statuses[0]!.n === FILES;
    if (!allProbed || again.summary.unchanged !== FILES) process.exitCode = 1;
    console.log(
      JSON.stringify({
        files: FILES,
        files_per_s: Number((FILES / firstS).toFixed(1)),
        first_import_s: Number(firstS.toFixed(2)),
        rescan_s: Number(rescanS.toFixed(3)),
        rescan_files_per_s: Math.round(FILES / rescanS),
        rescan_ratio: Number(ratio.toFixed(4)),
        catalogue_s: Number(catalogueS.toFixed(2)),
        probe_slots: slots,
        all_probed: allProbed,
      }),
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
