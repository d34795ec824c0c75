import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../api/client';
import { problemFrom } from './ErrorMessage';

/**
 * Loads data for a screen; `reload` fetches again after a change. With `seed` (what an earlier read
 * already answered), the first load is skipped and the seed shown; later ones fetch.
 */
export function useAsync<T>(
  load: () => Promise<T>,
  deps: unknown[],
  seed?: T,
): { data?: T; problem?: ApiError; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data?: T; problem?: ApiError; loading: boolean }>(() =>
    seed === undefined ? { loading: true } : { data: seed, loading: false },
  );
  const [tick, setTick] = useState(0);
  const seeded = useRef(seed !== undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what `load` reads (deps), as useEffect's own list would
  useEffect(() => {
    if (seeded.current) {
      seeded.current = false;
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ problem: problemFrom(error), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Runs an action, keeping its problem for display. */
export function useAction(): {
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  problem?: ApiError;
  busy: boolean;
  clear: () => void;
} {
  const [problem, setProblem] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await action();
      return true;
    } catch (error) {
      setProblem(problemFrom(error));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, problem, busy, clear: () => setProblem(undefined) };
}
