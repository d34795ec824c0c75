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

/** How a message names an environment the caller was not granted (it must not learn its key). */
export const environmentOutsideGrants = 'an environment outside your grants';

/** The environment's key where the caller may see it; otherwise a phrase that names none. */
export function environmentName(
  access: Pick<ResourceAccess, 'canSeeEnvironment'>,
  projectUlid: string,
  environment: { environment_key: string; environment_ulid: string },
): string {
  return access.canSeeEnvironment(projectUlid, environment.environment_ulid) ? environment.environment_key : environmentOutsideGrants;
}
