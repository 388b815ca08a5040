import type { Migration } from '../migration';

/**
 * People by name (issue 39). Four tables, each with one owner:
 *
 * - `face_identity` (analysis/face-identity-store.ts): what the analysis decode learnt of a face
 *   besides its box: its quality and, when good enough to be told apart, its identity embedding.
 *   Replaced with its `shot_faces` row when a shot is analysed again; never uploaded.
 * - `people` (people/people-store.ts): a person, named or a group proposed by the grouping. `uuid`
 *   names the person across re-groupings and across a team's seats.
 * - `face_people` (people/people-store.ts): which person each face belongs to now. Derived: rebuilt
 *   from the facts and the grouping, never the only record of an editor's choice.
 * - `people_facts` (people/people-facts-store.ts): the editor's choices, kept as facts about a face
 *   named by where it is (clip, frame, box), not by a row id or an embedding, so a fact outlives a
 *   re-analysis, a change of threshold and a change of embedding model.
 */
export const m0053People: Migration = {
  version: 53,
  name: 'people: face identities, people, their faces, the editor facts',
  up(db) {
    db.exec(`
      CREATE TABLE face_identity (
        face_id    INTEGER PRIMARY KEY REFERENCES shot_faces(id) ON DELETE CASCADE,
        clip_id    INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        frame      INTEGER,               -- decoded frame number of the sample; NULL: its shot has no frames
        model      TEXT NOT NULL,         -- embedding model id; another id is another space
        eye_px     REAL NOT NULL,         -- distance between the eyes in source pixels
        sharpness  REAL NOT NULL,         -- variance of the Laplacian of the aligned crop's gray
        yaw        REAL NOT NULL,         -- 0 frontal .. 1 full profile, from the landmarks
        quality    REAL NOT NULL,         -- 0..1, the three above combined
        assignable INTEGER NOT NULL CHECK (assignable IN (0, 1)),  -- 0: below the floor, never given to a person
        embedding  BLOB,                  -- float32 x dim, L2-normalised; NULL when not assignable
        thumb      BLOB                   -- small PNG of the aligned crop, for the strips of the People view
      );
      CREATE INDEX face_identity_clip ON face_identity(clip_id, frame);

      CREATE TABLE people (
        id         INTEGER PRIMARY KEY,
        uuid       TEXT NOT NULL UNIQUE,
        name       TEXT,                  -- NULL: a group proposed by the grouping, not named yet
        name_key   TEXT,                  -- NFC, case-folded: one person per name
        hidden     INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),  -- "not a person of interest"
        named_at   INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX people_name_key ON people(name_key) WHERE name_key IS NOT NULL;

      CREATE TABLE face_people (
        face_id    INTEGER PRIMARY KEY REFERENCES face_identity(face_id) ON DELETE CASCADE,
        person_id  INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        how        TEXT NOT NULL CHECK (how IN ('confirmed', 'grouped', 'matched')),
        similarity REAL NOT NULL
      );
      CREATE INDEX face_people_person ON face_people(person_id);

      CREATE TABLE people_facts (
        id          INTEGER PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('is', 'is_not', 'forget')),
        person_uuid TEXT NOT NULL,
        clip_id     INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        frame       INTEGER,              -- the face's sample; NULL with time_s for a shot without frames
        time_s      REAL NOT NULL,
        x REAL NOT NULL, y REAL NOT NULL, w REAL NOT NULL, h REAL NOT NULL,
        at          INTEGER NOT NULL,
        by_seat     TEXT                  -- NULL: this catalog's editor
      );
      CREATE INDEX people_facts_person ON people_facts(person_uuid);
      CREATE INDEX people_facts_clip ON people_facts(clip_id, time_s);
    `);
  },
};
