import { useEffect, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { api } from '../../api/client';
import { acceptName, atName, atTermAt, type AtTerm } from './person-completion';

export interface PersonCompletion {
  /** The caret moved or the text changed: find the `@` term it is in. */
  update: () => void;
  /** The box's keys while the list is open (arrows, Enter or Tab to take a name, Esc to close); true when used. */
  onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => boolean;
  /** The caret left the box: the list closes. */
  close: () => void;
  open: boolean;
  /** The id of the name the arrows are on (the box's aria-activedescendant). */
  activeId: string | undefined;
  /** The list of names, under the box (null when closed). */
  list: ReactNode;
}

/**
 * Known names for the `@` being typed in the search box (contract `people.names`: those starting
 * with what is typed first, case and accents folded), taken with the keyboard or the mouse.
 */
export function usePersonCompletion(input: RefObject<HTMLInputElement | null>, setText: (text: string) => void): PersonCompletion {
  const [term, setTerm] = useState<AtTerm | null>(null);
  const [names, setNames] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  // Esc closes the list for what is typed now: typing on opens it again.
  const [dismissed, setDismissed] = useState<AtTerm | null>(null);
  const at = term?.at ?? null;
  const prefix = term?.prefix ?? null;
  useEffect(() => {
    if (prefix === null) {
      setNames([]);
      return;
    }
    let live = true;
    api
      .call('people.names', { prefix })
      .then((r) => {
        if (!live) return;
        setNames(r.names);
        setActive(0);
      })
      // No names (people not available on this catalog): nothing to offer, the `@` still searches.
      .catch(() => live && setNames([]));
    return () => {
      live = false;
    };
  }, [at, prefix]);

  const open = term !== null && names.length > 0 && !(dismissed?.at === term.at && dismissed.prefix === term.prefix);
  const update = () => {
    const el = input.current;
    if (!el) return;
    setTerm(atTermAt(el.value, el.selectionStart ?? el.value.length));
  };
  const accept = (name: string) => {
    const el = input.current;
    if (!el || !term) return;
    const next = acceptName(el.value, term, name);
    setText(next.text);
    setTerm(null);
    // After React has put the new text in: the caret after the name, ready for the next word.
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): boolean => {
    if (!open) return false;
    if (e.key === 'ArrowDown') setActive((active + 1) % names.length);
    else if (e.key === 'ArrowUp') setActive((active - 1 + names.length) % names.length);
    else if (e.key === 'Enter' || e.key === 'Tab') accept(names[active]!);
    // Esc in a search box would also empty it: here it only closes the list.
    else if (e.key === 'Escape') setDismissed(term);
    else return false;
    e.preventDefault();
    return true;
  };
  const list = open ? (
    <ul className="sv-names" role="listbox" id="search-person-names" aria-label="Known people" data-testid="person-completion">
      {names.map((n, i) => (
        <li
          key={n}
          id={`search-person-${i}`}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'on' : undefined}
          data-person-name={n}
          // mousedown, not click: the box keeps the focus (and the caret) while the name goes in.
          onMouseDown={(e) => {
            e.preventDefault();
            accept(n);
          }}
          onMouseEnter={() => setActive(i)}
        >
          {atName(n)}
        </li>
      ))}
    </ul>
  ) : null;
  return { update, onKeyDown, close: () => setTerm(null), open, activeId: open ? `search-person-${active}` : undefined, list };
}
