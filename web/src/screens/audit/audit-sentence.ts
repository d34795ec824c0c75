import type { Schemas } from '../../api/client';

type Entry = Schemas['AuditEntry'];

/** Who acted, as a person reads it. */
export function actorText(entry: Entry): string {
  const actor = entry.actor;
  if (!actor) return 'Someone not signed in';
  if (actor.type === 'system') return 'Vexil';
  return actor.email ?? actor.name ?? actor.type;
}

const subjectWords: Record<string, string> = {
  environment_key: 'environment key',
  flag_value: 'value',
  target_rule: 'rule',
  management_token: 'management token',
  personal_token: 'personal token',
};

/** A subject label `flag/environment` (targets, switches) as "flag in environment". */
function subjectText(entry: Entry): string {
  const label = entry.subject_label ?? '';
  const type = entry.subject_type ? (subjectWords[entry.subject_type] ?? entry.subject_type) : '';
  const [flag, environment] = label.split('/');
  if (environment && (entry.subject_type === 'target' || entry.subject_type === 'flag')) return `${flag} in ${environment}`;
  return [type, label].filter(Boolean).join(' ');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Verbs where the action's own word reads wrong in a sentence. */
const verbs: Record<string, string> = {
  'target.created': 'started a draft of',
  'target.rollout_updated': 'moved the rollout of',
  'target.rollout_completed': 'completed the rollout of',
};

/**
 * One sentence for what a request did, led by its action: "owner@example.com switched banner off
 * in production: “Kill switch”". The comment is the first the request's entries carry. Words only:
 * what happened is the entries', as the API recorded them.
 */
export function auditSentence(lead: Entry, entries: Entry[] = [lead]): string {
  const action = lead.request?.action ?? lead.action;
  const tried = lead.result === 'success' ? '' : ` (${lead.result.replaceAll('_', ' ')})`;
  if (action === 'auth.sign_in') return `${lead.subject_label ?? actorText(lead)} signed in${tried}`;
  const [, verb = action] = action.split('.');
  const after = isRecord(lead.changes?.after) ? lead.changes.after : undefined;
  const subject = subjectText(lead);
  let what: string;
  if (action === 'target.switched' && typeof after?.on === 'boolean') {
    const [flag, environment] = (lead.subject_label ?? '').split('/');
    what = `switched ${flag} ${after.on ? 'on' : 'off'}${environment ? ` in ${environment}` : ''}`;
  } else if (action === 'project.promoted') {
    what = `copied targeting${subject ? ` (${subject})` : ''}`;
  } else {
    what = `${verbs[action] ?? verb.replaceAll('_', ' ')}${subject ? ` ${subject}` : ''}`;
  }
  const comment = entries.find((e) => e.changes?.comment)?.changes?.comment;
  return `${actorText(lead)} ${what}${comment ? `: “${comment}”` : ''}${tried}`;
}
