import { useEffect, type RefObject } from 'react';
import { trapTab } from './keys';

/** What Tab can reach inside a modal, in document order. */
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal keeps the keyboard: focus starts on it, and whenever it would leave (a button that
 * disables itself while it works, an element that re-renders away, a click on the page behind),
 * it comes back, so the modal's keys keep working after every action. The element that had focus
 * before the modal opened gets it back when it closes.
 */
export function useModalFocus(dialog: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const el = dialog.current;
    el?.focus();
    const reclaim = () => {
      const d = dialog.current;
      if (d && !d.contains(document.activeElement)) d.focus({ preventScroll: true });
    };
    const onFocusIn = (e: FocusEvent) => {
      if (dialog.current && e.target instanceof Node && !dialog.current.contains(e.target)) reclaim();
    };
    // Focus lost to nowhere (the focused element went away or was disabled): it lands on <body>.
    const onFocusOut = (e: FocusEvent) => {
      if (e.relatedTarget === null) requestAnimationFrame(reclaim);
    };
    document.addEventListener('focusin', onFocusIn);
    el?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      el?.removeEventListener('focusout', onFocusOut);
      before?.focus({ preventScroll: true });
    };
  }, [dialog]);
}

/** Tab inside the modal: the next (Shift: previous) of its visible controls, wrapping at the ends. */
export function tabWithin(dialog: HTMLElement | null, shift: boolean): void {
  const items = [...(dialog?.querySelectorAll<HTMLElement>(TABBABLE) ?? [])].filter((el) => el.offsetParent !== null || el === document.activeElement);
  const next = trapTab(items.length, items.indexOf(document.activeElement as HTMLElement), shift);
  if (next !== null) items[next]!.focus();
}
