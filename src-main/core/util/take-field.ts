/**
 * The team's conflict rule on a seat, for every field a seat edits offline over a server's version
 * (a mark's field, a person's name and hidden flag, a clip's presence in a collection;
 * docs/notes-team-library.md "the server's clock stamps, the seat's base decides"), as one pure function:
 * held field + a version from the server -> held field. Every stamp is the server's (team migrations
 * 0014, 0016): the server takes a seat's change of a field only when the seat's base (the server's
 * stamp of the version it last saw) is not older than the field's stamp, and stamps it by its own
 * clock. So a seat holds, per field, the last server version it saw and whether a local edit of it
 * waits to be sent (`pending`, the edit's base being the held stamp):
 * - a version from the server replaces the field, unless an edit of it is pending over that very
 *   version (the server has not taken the edit yet: it will be sent) or the version is older than the
 *   one held (a read that crossed a newer one);
 * - a pending edit replaced by a newer server version of another value lost its conflict: the edit is
 *   dropped and reported (`lost`), once.
 */

/** When and by which seat a version was made, by the server's clock: ms since the epoch, seat uuid (lower case). */
export interface Stamp {
  at: number;
  by: string;
}

/** A field as the server holds it, or as a seat sends it (then `stamp.at` is the seat's base). */
export interface Versioned<T> {
  value: T;
  stamp: Stamp;
}

/** A field as a seat holds it: the server's stamp it last saw, and whether `value` is a local edit waiting to be sent. */
export interface Held<T> extends Versioned<T> {
  pending: boolean;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The rule for one field. `sent`: the value this seat sent in the push the version answers (an edit
 * made again since is kept, over the new stamp, when the sent one landed). `lost`: a pending edit gave
 * way to another value the server took after the edit's base.
 */
export function takeField<T>(held: Held<T> | null, incoming: Versioned<T>, sent?: { value: T }, same: (a: T, b: T) => boolean = sameJson): { field: Held<T>; lost: boolean } {
  const taken = { field: { ...incoming, pending: false }, lost: false };
  if (!held) return taken;
  if (incoming.stamp.at < held.stamp.at) return { field: held, lost: false };
  if (!held.pending) return incoming.stamp.at === held.stamp.at && same(incoming.value, held.value) ? { field: held, lost: false } : taken;
  // the version the edit was made over: the edit waits to be sent, unless this answers its push and the
  // server holds the same value already (an edit back to what the server had: nothing is left to send)
  if (incoming.stamp.at === held.stamp.at) return sent && same(incoming.value, held.value) ? taken : { field: held, lost: false };
  if (sent && same(incoming.value, sent.value) && !same(held.value, sent.value)) return { field: { ...held, stamp: incoming.stamp }, lost: false };
  return { field: taken.field, lost: !same(incoming.value, held.value) };
}
