import { useEffect, useRef } from 'react';

/** The first thing a keyboard reaches on every page: straight to the page's content (<main>, which hands the focus to its heading). */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to content
    </a>
  );
}

/** Focuses the page's main heading (or the main region while the page has none yet); true when a heading was found. */
export function focusMainHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('main h1');
  const target = heading ?? document.querySelector<HTMLElement>('main');
  if (!target) return false;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
  return heading !== null;
}

/**
 * After each navigation within the console, focus moves to the new page's main heading, so a
 * screen reader announces the page and the keyboard starts from its top (rather than from the
 * link that was followed, or <body>). A screen that renders its heading once its data has loaded
 * is waited for, briefly.
 */
export function useFocusOnNavigation(path: string): void {
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `path` is the trigger: each navigation moves the focus
  useEffect(() => {
    // The first page keeps the browser's own start: nothing was followed to reach it.
    if (first.current) {
      first.current = false;
      return;
    }
    if (focusMainHeading()) return;
    const main = document.querySelector('main');
    if (!main) return;
    const observer = new MutationObserver(() => {
      if (document.querySelector('main h1')) {
        observer.disconnect();
        focusMainHeading();
      }
    });
    observer.observe(main, { childList: true, subtree: true });
    const stop = setTimeout(() => observer.disconnect(), 10_000);
    return () => {
      observer.disconnect();
      clearTimeout(stop);
    };
  }, [path]);
}
