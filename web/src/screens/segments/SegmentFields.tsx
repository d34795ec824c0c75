import type { ReactNode } from 'react';
import type { ApiError, Schemas } from '../../api/client';
import { Field } from '../../ui/Field';
import { commaList } from '../../ui/lists';
import { draftRules, RulesEditor, rulesBody, type RuleDraft } from './RulesEditor';

/** A segment as its form holds it: member lists as the comma-separated text typed. */
export interface SegmentDraft {
  name: string;
  description: string;
  included: string;
  excluded: string;
  rules: RuleDraft[];
}

export const blankSegment = (): SegmentDraft => ({ name: '', description: '', included: '', excluded: '', rules: [] });

export function segmentDraft(segment: Schemas['Segment']): SegmentDraft {
  return {
    name: segment.name,
    description: segment.description ?? '',
    included: segment.included.join(', '),
    excluded: segment.excluded.join(', '),
    rules: draftRules(segment.rules),
  };
}

/** The request body's fields a segment's form edits (creating adds the key). */
export function segmentBody(draft: SegmentDraft) {
  return {
    name: draft.name,
    description: draft.description.trim() ? draft.description : null,
    included: commaList(draft.included),
    excluded: commaList(draft.excluded),
    rules: rulesBody(draft.rules),
  };
}

/** The fields of a segment's form; `leading` goes first on the name's row (the key, when creating). */
export function SegmentFields({
  draft,
  onChange,
  problem,
  leading,
}: {
  draft: SegmentDraft;
  onChange: (draft: SegmentDraft) => void;
  problem: ApiError | undefined;
  leading?: ReactNode;
}) {
  const set = (field: keyof Omit<SegmentDraft, 'rules'>) => (event: { target: { value: string } }) =>
    onChange({ ...draft, [field]: event.target.value });
  return (
    <>
      <div className="inline">
        {leading}
        <Field label="Name" name="name" required value={draft.name} onChange={set('name')} problem={problem} />
        <Field label="Description" name="description" size={40} value={draft.description} onChange={set('description')} problem={problem} />
      </div>
      <Field
        label="Always members (identifiers, comma-separated)"
        name="included"
        value={draft.included}
        onChange={set('included')}
        problem={problem}
      />
      <Field
        label="Never members (identifiers, comma-separated)"
        name="excluded"
        value={draft.excluded}
        onChange={set('excluded')}
        problem={problem}
      />
      <RulesEditor rules={draft.rules} onChange={(rules) => onChange({ ...draft, rules })} problem={problem} />
    </>
  );
}
