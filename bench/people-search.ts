import fs from 'node:fs';
import path from 'node:path';
import { EMBEDDING_MODEL_FILE } from '../src-main/core/analysis/resource-paths';
import { openCatalog } from '../src-main/core/catalog/open-catalog';
import { createPresenceStore } from '../src-main/core/people/presence-store';
import { nameKey } from '../src-main/core/people/person-names';
import { DEFAULT_TENSOR_PROFILE } from '../src-main/core/tensors/tensor-profile';
import { insertClip, insertShot, insertVolume } from '../test/helpers/catalog/search-catalog';
import { faceSpace } from '../test/helpers/people/seed-faces';

/**
 * `@Name` at scale: a catalog of its own with `faces` synthetic faces (the rows the analysis and
 * the people service write: shot_faces, face_identity with a 128-d embedding, face_people) over
 * `clips` clips of 3 shots and `people` named people, 2 or 3 people a clip; then `lookups` lookups
 * as `@Name` makes them, one person after another: the name to a person (NFC case-folded key),
 * then every span of theirs (presence-store.ts).
 */
export function timeNameLookups(dir: string, o = { faces: 100_000, clips: 2000, people: 50, lookups: 200 }) {
  fs.mkdirSync(dir, { recursive: true });
  const db = openCatalog(path.join(dir, 'catalog.sqlite'));
  const t0 = performance.now();
  const space = faceSpace(7);
  const names = Array.from({ length: o.people }, (_, i) => `Person ${String(i + 1).padStart(2, '0')}`);
  const centres = names.map(() => space.centre());
  const facesPerClip = Math.ceil(o.faces / o.clips);
  const clipS = 30;
  const shots = 3;
  // One transaction for the whole seed: 100k faces in a few seconds instead of one fsync a row.
  db.transaction(() => {
    const vol = insertVolume(db, '/footage');
    const person = db.prepare('INSERT INTO people (uuid, name, name_key, hidden, named_at, created_at) VALUES (?, ?, ?, 0, 1, 1)');
    const personIds = names.map((n, i) => Number(person.run(`bench-person-${i}`, n, nameKey(n)).lastInsertRowid));
    const face = db.prepare('INSERT INTO shot_faces (shot_id, frame_idx, time_s, x, y, w, h, score, landmarks_json) VALUES (?, ?, ?, 0.4, 0.3, 0.2, 0.3, 0.9, ?)');
    const identity = db.prepare('INSERT INTO face_identity (face_id, clip_id, frame, model, eye_px, sharpness, yaw, quality, assignable, embedding, thumb) VALUES (?, ?, ?, ?, 40, 30, 0, 0.8, 1, ?, NULL)');
    const member = db.prepare("INSERT INTO face_people (face_id, person_id, how, similarity) VALUES (?, ?, 'matched', 0.8)");
    const shotFrames = db.prepare('UPDATE shots SET start_frame = ?, end_frame = ? WHERE id = ?');
    let made = 0;
    for (let c = 0; c < o.clips && made < o.faces; c++) {
      const clipId = insertClip(db, { volumeId: vol, relPath: `A${String(c).padStart(4, '0')}.mov`, durationS: clipS, fps: 25 });
      const shotIds = Array.from({ length: shots }, (_, k) => {
        const id = insertShot(db, clipId, k, (k * clipS) / shots, ((k + 1) * clipS) / shots);
        shotFrames.run((k * clipS * 25) / shots, ((k + 1) * clipS * 25) / shots, id);
        return id;
      });
      // 2 or 3 people a clip, one after another, each a run of samples on the tensor grid.
      const here = Array.from({ length: 2 + (c % 2) }, (_, k) => (c * 7 + k * 13) % o.people);
      for (let i = 0; i < facesPerClip && made < o.faces; i++, made++) {
        const p = here[Math.floor((i * here.length) / facesPerClip)]!;
        const timeS = 2 + i / DEFAULT_TENSOR_PROFILE.fps;
        const shot = shotIds[Math.min(shots - 1, Math.floor((timeS / clipS) * shots))]!;
        const faceId = Number(face.run(shot, Math.round(timeS * DEFAULT_TENSOR_PROFILE.fps), timeS, '[]').lastInsertRowid);
        const v = space.around(centres[p]!);
        identity.run(faceId, clipId, Math.round(timeS * 25), EMBEDDING_MODEL_FILE, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
        member.run(faceId, personIds[p]!);
      }
    }
  })();
  const seedS = (performance.now() - t0) / 1000;
  const presence = createPresenceStore(db, 1 / DEFAULT_TENSOR_PROFILE.fps);
  const times: number[] = [];
  let spans = 0;
  for (let q = 0; q < o.lookups; q++) {
    const s = performance.now();
    // As typed: another case than the stored name, so the lookup goes through the key.
    const p = presence.personByName(names[q % names.length]!.toLowerCase());
    spans += p ? presence.spansOf(p.id).length : 0;
    times.push(performance.now() - s);
  }
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;
  return { seedS, p50: pct(50), p95: pct(95), spansPerLookup: spans / o.lookups };
}
