import { createContext } from 'react';

/**
 * True inside a screen whose top says when a rate limit was hit (App): there, a list or form that
 * was refused with 429 shows no message of its own, so the screen says it once.
 */
export const RateLimitShownAbove = createContext(false);
