import type { Schemas } from '../../api/client';

/** What every part of one environment's panel needs: the flag, the environment and their values. */
export interface PanelContext {
  project: string;
  flag: string;
  environment: Schemas['Environment'];
  values: Schemas['FlagValue'][];
  /** The project's segments, offered by key in segment criteria. */
  segments?: Schemas['Segment'][];
  /** Context types, attribute names and values observed in the environment: the editors' suggestions. */
  observed?: Schemas['ContextAttributes'];
}

export const targetsPath = (c: PanelContext) => ({ projectKey: c.project, flagKey: c.flag, environmentKey: c.environment.key });
export const displayOf = (values: Schemas['FlagValue'][], ulid: string | null | undefined) =>
  values.find((v) => v.ulid === ulid)?.display ?? '?';
