/** Principals of the management API for the unit tests of the access rules. */
import { ResourceAccess, type ManagementPrincipal, type Role, type Scope } from '../../../src/auth/principal.js';

let n = 0;
export function principal(
  options: { role?: Role; type?: ManagementPrincipal['type']; scopes?: Scope[] | null; access?: ResourceAccess; accountUlid?: string } = {},
): ManagementPrincipal {
  n += 1;
  return {
    type: options.type ?? 'personal_access_token',
    tokenUlid: `tok_${n}`,
    tokenName: 'test',
    account: { ulid: options.accountUlid ?? `usr_${n}`, name: 'Tester', email: `t${n}@example.test`, role: options.role ?? 'owner' },
    scopes: options.scopes === undefined ? null : options.scopes && new Set(options.scopes),
    tier: 'elevated',
    access: options.access ?? ResourceAccess.unrestricted(),
  };
}

/** Access of a token granted whole projects and single environments (by ulid). */
export function granted(projects: string[], environments: Array<[string, string]> = []): ResourceAccess {
  const map = new Map<string, Set<string>>();
  for (const [p, e] of environments) map.set(p, new Set([...(map.get(p) ?? []), e]));
  return new ResourceAccess(null, { projects: new Set(projects), environments: map });
}
