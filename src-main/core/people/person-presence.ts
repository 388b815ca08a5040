/**
 * Where named people are visible: the read model search (`@Name`) and the hand-off files (names as
 * keywords, markers, comments) use. A span is a run of a person's face samples in one shot, each
 * sample standing for half a sample interval on either side, clamped to the shot; frames are the
 * clip's decoded frame numbers, Out exclusive ([inFrame, outFrame)), as shots and segments count them.
 */
export interface PersonSpan {
  personId: number;
  clipId: number;
  shotId: number;
  /** Where the span's shot starts in its clip (seconds): search merges moments within one shot only. */
  shotStartS: number;
  /** null when the clip counts no frames (a clip analysed from its URL): then the times are all there is. */
  inFrame: number | null;
  outFrame: number | null;
  startS: number;
  endS: number;
}

export interface NamedPerson {
  id: number;
  uuid: string;
  name: string;
  hidden: boolean;
}

export interface PersonPresence {
  /** The person an `@name` means: exact after NFC and case folding, then accent-folded; null when none. */
  personByName(name: string): NamedPerson | null;
  /** Every span of one person, by clip then time. */
  spansOf(personId: number): PersonSpan[];
  /** Every named, not hidden person's spans in one clip, by time (the hand-off writers' view). */
  namedSpansInClip(clipId: number): Array<PersonSpan & { name: string }>;
}
