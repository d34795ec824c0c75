import type { ManagementPrincipal, ResourceAccess } from '../../auth/principal.js';
import { ForbiddenError } from '../../http/errors.js';

/**
 * Administration (config:write) is for owners and admins. Personal access tokens of members are
 * refused by the scope check already; this also covers a management token owned by a member.
 */
export function requireAdministrator(principal: ManagementPrincipal): void {
  if (principal.account.role === 'member') {
    throw new ForbiddenError('Member accounts cannot administer projects, environments or keys.');
  }
}

/**
 * Whether the caller reaches the whole project, not only some of its environments: reaching an
 * environment it was not granted one by one means the project itself is granted (or no grant
 * restricts the caller). The empty string is an environment ulid no environment has.
 */
export function reachesWholeProject(access: ResourceAccess, projectUlid: string): boolean {
  return access.canSeeProject(projectUlid) && access.canSeeEnvironment(projectUlid, '');
}

export function requireWholeProject(access: ResourceAccess, projectUlid: string): void {
  if (!reachesWholeProject(access, projectUlid)) {
    throw new ForbiddenError('This token has no grant for the whole project.');
  }
}

/** Ulids the caller may see among `ulids`, or null when nothing restricts the caller. */
export function visibleAmong(ulids: string[], restricted: boolean, canSee: (ulid: string) => boolean): string[] | null {
  return restricted ? ulids.filter(canSee) : null;
}
