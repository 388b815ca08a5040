import type { QueryChip } from '../../../../src-shared/contract/search';
import type { AppErrorData } from '../../../../src-shared/errors';
import { nameKey } from '../../people/person-names';
import type { NamedPerson, PersonPresence } from '../../people/person-presence';
import { intersectSpans } from '../../people/person-spans';
import type { EmbeddingSpace } from '../index/embedding-space';
import { peopleScope, type PeopleScope } from './people-scope';
import type { PeopleScopeStore } from './people-scope-store';

export interface PeopleFilterDeps {
  segments: PeopleScopeStore;
  presence: PersonPresence;
}

/** The people a query names, found: where they are (the scope), and each typed name's person. */
export interface PeopleFilter {
  scope: PeopleScope;
  /** By nameKey of the name as typed: the person it found. */
  found: Map<string, NamedPerson>;
}

/** A name as a message quotes it: a pasted paragraph is not repeated whole. */
function quoted(name: string): string {
  return `“${name.length > 60 ? `${name.slice(0, 59)}…` : name}”`;
}

/**
 * The people of a parsed query as a filter: null when it names nobody; an error (kind 'not_found')
 * naming every `@name` nobody has, so the editor reads why nothing is listed instead of an empty list.
 */
export function peopleFilter(d: PeopleFilterDeps, space: EmbeddingSpace, people: { include: readonly string[]; exclude: readonly string[] }): { filter: PeopleFilter } | { error: AppErrorData } | null {
  if (people.include.length === 0 && people.exclude.length === 0) return null;
  const found = new Map<string, NamedPerson>();
  const unknown: string[] = [];
  for (const name of [...people.include, ...people.exclude]) {
    const p = d.presence.personByName(name);
    if (p) found.set(nameKey(name), p);
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    const names = unknown.map(quoted).join(unknown.length === 2 ? ' or ' : ', ');
    return { error: { kind: 'not_found', message: `Nobody is named ${names} in this library. Name people in the People view, or check the spelling (@ then the name; quotes around a name with spaces: @"Ana María").` } };
  }
  const personOf = (name: string) => found.get(nameKey(name))!;
  const included = people.include.length ? intersectSpans(people.include.map((n) => d.presence.spansOf(personOf(n).id))) : null;
  const excluded = people.exclude.flatMap((n) => d.presence.spansOf(personOf(n).id));
  const clips = [...new Set((included ?? excluded).map((s) => s.clipId))];
  return { filter: { scope: peopleScope(d.segments.segmentsOfClips(clips, space), included, excluded), found } };
}

/** Person chips labelled with the name as the catalog spells it ("@maria" shows "Maria"). */
export function labelPersonChips(chips: readonly QueryChip[], filter: PeopleFilter | null): QueryChip[] {
  return chips.map((c) => (c.field === 'person' ? { ...c, label: filter?.found.get(nameKey(c.value))?.name ?? c.label } : c));
}

