import { createContext, useContext } from 'react';
import type { Schemas } from '../api/client';

export interface SessionContextValue {
  session: Schemas['ConsoleSession'];
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in console');
  return value;
}
