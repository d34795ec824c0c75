import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** A small router over the History API: the console has few routes and needs no dependency for them. */
const listeners = new Set<() => void>();

export function navigate(to: string): void {
  if (to === window.location.pathname + window.location.search) return;
  window.history.pushState(null, '', to);
  for (const listener of listeners) listener();
}

/** Keeps a screen's state (filters) in the address's query without a navigation: Back leaves the screen. */
export function replaceQuery(query: Record<string, string>): void {
  const search = new URLSearchParams(query).toString();
  window.history.replaceState(null, '', window.location.pathname + (search ? `?${search}` : ''));
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((t) => t + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

/** Matches `/projects/:project/flags/:flag` against a path; returns the named parts or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const regex = new RegExp(`^${pattern.replace(/:([a-z]+)/g, (_, name: string) => (names.push(name), '([^/]+)'))}/?$`);
  const found = regex.exec(path);
  if (!found) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1] as string)]));
}

export function Link({ to, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={onClick} {...rest} />;
}
