import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { auditActionByOperation, auditResult, denialActions, publicAuditActionByOperation } from '../../../src/audit/actions.js';

const management = parse(readFileSync(new URL('../../../specs/management.yaml', import.meta.url), 'utf8'));
const publicDoc = parse(readFileSync(new URL('../../../specs/public.yaml', import.meta.url), 'utf8'));
const actionEnum: string[] = management.components.schemas.AuditAction.enum;
const resultEnum: string[] = management.components.schemas.AuditResult.enum;

function operationIds(doc: { paths: Record<string, Record<string, { operationId?: string }>> }): string[] {
  return Object.values(doc.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([, op]) => op.operationId as string),
  );
}

describe('audit actions', () => {
  it('name an action for every management and public operation, each listed in the AuditAction enum', () => {
    for (const id of operationIds(management)) {
      expect(auditActionByOperation[id], id).toBeDefined();
      expect(actionEnum, id).toContain(auditActionByOperation[id]);
    }
    for (const id of operationIds(publicDoc)) {
      expect(publicAuditActionByOperation[id], id).toBeDefined();
      expect(actionEnum, id).toContain(publicAuditActionByOperation[id]);
    }
    for (const action of Object.values(denialActions)) expect(actionEnum).toContain(action);
  });

  it('map every status to a documented result', () => {
    const cases: Array<[number, boolean, string]> = [
      [200, false, 'success'],
      [304, false, 'success'],
      [400, false, 'invalid'],
      [401, false, 'denied_auth'],
      [403, true, 'denied_scope'],
      [403, false, 'denied_grant'],
      [404, false, 'not_found'],
      [409, false, 'conflict'],
      [413, false, 'invalid'],
      [415, false, 'invalid'],
      [422, false, 'invalid'],
      [429, false, 'rate_limited'],
      [500, false, 'error'],
    ];
    for (const [status, scope, result] of cases) {
      expect(auditResult(status, scope), String(status)).toBe(result);
      expect(resultEnum).toContain(result);
    }
  });
});
