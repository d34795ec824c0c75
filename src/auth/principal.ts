export type Role = 'owner' | 'admin' | 'member';
export type Tier = 'standard' | 'elevated' | 'unlimited';
export type EnvironmentKeyKind = 'server' | 'mobile' | 'client';

export const allScopes = [
  'projects:read',
  'flags:read',
  'flags:write',
  'targets:read',
  'targets:write',
  'audit:read',
  'config:write',
] as const;
export type Scope = (typeof allScopes)[number];

export interface AccountRef {
  ulid: string;
  name: string;
  email: string;
  role: Role;
}

/**
 * Which projects and environments a caller may reach: the account's own reach (members see only
 * the projects they are given) intersected with the token's grants (none = no restriction).
 */
export class ResourceAccess {
  constructor(
    /** null: every project (owner, admin). */
    private readonly accountProjects: ReadonlySet<string> | null,
    /** null: no grants on the token. */
    private readonly grants: {
      projects: ReadonlySet<string>;
      environments: ReadonlyMap<string, ReadonlySet<string>>;
    } | null,
  ) {}

  static unrestricted(): ResourceAccess {
    return new ResourceAccess(null, null);
  }

  get restricted(): boolean {
    return this.accountProjects !== null || this.grants !== null;
  }

  canSeeProject(projectUlid: string): boolean {
    if (this.accountProjects && !this.accountProjects.has(projectUlid)) return false;
    if (!this.grants) return true;
    return this.grants.projects.has(projectUlid) || this.grants.environments.has(projectUlid);
  }

  canSeeEnvironment(projectUlid: string, environmentUlid: string): boolean {
    if (this.accountProjects && !this.accountProjects.has(projectUlid)) return false;
    if (!this.grants) return true;
    return this.grants.projects.has(projectUlid) || this.grants.environments.get(projectUlid)?.has(environmentUlid) === true;
  }
}

export interface ManagementPrincipal {
  /** A console session acts with its account's rights, like the account's personal access token. */
  type: 'personal_access_token' | 'management_token' | 'console_session';
  tokenUlid: string;
  tokenName: string;
  /** The PAT's owner, or the account that created the management token. */
  account: AccountRef;
  /** null for personal access tokens, which carry no scopes. */
  scopes: ReadonlySet<Scope> | null;
  tier: Tier;
  access: ResourceAccess;
}

export interface PublicPrincipal {
  keyUlid: string;
  kind: EnvironmentKeyKind;
  environmentUlid: string;
  environmentKey: string;
  projectUlid: string;
}

export function hasScope(principal: ManagementPrincipal, scope: Scope): boolean {
  if (principal.scopes === null) return true;
  if (principal.scopes.has(scope)) return true;
  return scope === 'targets:read' && principal.scopes.has('targets:write');
}
