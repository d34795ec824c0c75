/** The audit action of each management operation (specs/management.yaml, schema AuditAction). */
export const auditActionByOperation: Record<string, string> = {
  listProjects: 'project.listed',
  createProject: 'project.created',
  getProject: 'project.read',
  updateProject: 'project.updated',
  deleteProject: 'project.deleted',
  exportProjectConfiguration: 'project.exported',
  planProjectConfiguration: 'project.planned',
  applyProjectConfiguration: 'project.applied',
  promoteConfiguration: 'project.promoted',
  serveFlagValue: 'target.served',
  restoreTarget: 'target.restored',
  switchFlag: 'target.switched',
  createSession: 'auth.sign_in',
  getSession: 'auth.session_read',
  deleteSession: 'auth.sign_out',
  changeOwnPassword: 'account.password_changed',
  setAccountPassword: 'account.password_set',
  listWebhooks: 'webhook.listed',
  createWebhook: 'webhook.created',
  getWebhook: 'webhook.read',
  updateWebhook: 'webhook.updated',
  deleteWebhook: 'webhook.deleted',
  listWebhookDeliveries: 'webhook.deliveries_listed',
  redeliverWebhookDelivery: 'webhook.redelivered',
  pingWebhook: 'webhook.pinged',
  rotateWebhookSecret: 'webhook.secret_rotated',
  listEnvironments: 'environment.listed',
  createEnvironment: 'environment.created',
  getEnvironment: 'environment.read',
  updateEnvironment: 'environment.updated',
  deleteEnvironment: 'environment.deleted',
  listEnvironmentKeys: 'environment_key.listed',
  createEnvironmentKey: 'environment_key.created',
  revokeEnvironmentKey: 'environment_key.revoked',
  listManagementTokens: 'token.listed',
  createManagementToken: 'token.created',
  revokeManagementToken: 'token.revoked',
  listAccounts: 'account.listed',
  createAccount: 'account.created',
  updateAccount: 'account.updated',
  deleteAccount: 'account.deleted',
  createPersonalAccessToken: 'personal_token.created',
  revokePersonalAccessToken: 'personal_token.revoked',
  listFlags: 'flag.listed',
  createFlag: 'flag.created',
  getFlag: 'flag.read',
  getFlagEnvironmentOverview: 'flag.read',
  updateFlag: 'flag.updated',
  deleteFlag: 'flag.deleted',
  bulkDeleteFlags: 'flag.bulk_deleted',
  evaluateFlag: 'flag.evaluated',
  evaluateFlagForContext: 'flag.evaluated',
  getFlagInsights: 'flag.insights_read',
  listSplitExposures: 'flag.insights_read',
  listFlagEvaluationHours: 'flag.insights_read',
  listStaleFlags: 'flag.stale_listed',
  listDefaultValueReports: 'flag.default_value_reports_read',
  listContextAttributes: 'context_attribute.listed',
  listFlagValues: 'flag_value.listed',
  createFlagValue: 'flag_value.created',
  createFlagValueForFlag: 'flag_value.created',
  updateFlagValue: 'flag_value.updated',
  deleteFlagValue: 'flag_value.deleted',
  setDefaultFlagValue: 'flag_value.default_set',
  setDefaultFlagValueForFlag: 'flag_value.default_set',
  listTargets: 'target.listed',
  createTarget: 'target.created',
  getTarget: 'target.read',
  updateTarget: 'target.updated',
  deleteTarget: 'target.deleted',
  publishTarget: 'target.published',
  createRollout: 'target.rollout_initialized',
  updateRollout: 'target.rollout_updated',
  deleteRollout: 'target.rollout_deleted',
  completeRollout: 'target.rollout_completed',
  listRules: 'target_rule.listed',
  createRule: 'target_rule.created',
  updateRule: 'target_rule.updated',
  deleteRule: 'target_rule.deleted',
  reorderRules: 'target_rule.reordered',
  listTargetPrerequisites: 'target.read',
  replaceTargetPrerequisites: 'target.updated',
  listSegments: 'segment.listed',
  createSegment: 'segment.created',
  getSegment: 'segment.read',
  updateSegment: 'segment.updated',
  deleteSegment: 'segment.deleted',
  listAuditLogs: 'audit_log.listed',
  listPublicAuditLogs: 'public_audit_log.listed',
  getManagementApiDocs: 'api_docs.read',
};

/** The audit action of each public API operation (management.yaml, schema AuditAction). */
export const publicAuditActionByOperation: Record<string, string> = {
  getPublicApiDocs: 'api_docs.read',
  // Answered before the audit stage: never recorded (named so every operation has an action).
  getHealth: 'health.checked',
  getReadiness: 'readiness.checked',
  getMetrics: 'metrics.read',
  // specs/public.yaml: a direct call of GET /v1/flags is a "Flag evaluated" event, like GET /v1/flags/{key}.
  listEvaluatedFlags: 'flag.evaluated',
  getEvaluatedFlag: 'flag.evaluated',
  // The POST twins (context and defaults in the body) are the same requests as far as the audit goes.
  evaluateFlags: 'flag.evaluated',
  evaluateFlag: 'flag.evaluated',
  recordFlagUsage: 'flag.used',
  getPayload: 'payload.retrieved',
  getPayloadForContext: 'payload.retrieved',
  streamPayloadChanges: 'payload.streamed',
  // Both OFREP operations evaluate on the server, like GET /v1/flags (a "Flag evaluated" event, specs/public.yaml).
  ofrepEvaluateFlag: 'flag.evaluated',
  ofrepEvaluateFlags: 'flag.evaluated',
};

/** Actions of refused requests, which name the refusal rather than the operation. */
export const denialActions = {
  missingToken: 'auth.missing_token',
  invalidToken: 'auth.invalid_token',
  expiredToken: 'auth.expired_token',
  scope: 'scope.denied',
  grant: 'grant.denied',
  missingKey: 'auth.missing_key',
  invalidKey: 'auth.invalid_key',
} as const;

/** Result recorded for a response status. */
export function auditResult(status: number, scopeDenied: boolean): string {
  if (status < 400) return 'success';
  if (status === 401) return 'denied_auth';
  if (status === 403) return scopeDenied ? 'denied_scope' : 'denied_grant';
  if (status === 404 || status === 405) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'error';
  return 'invalid';
}
