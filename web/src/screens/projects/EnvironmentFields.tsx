import type { ApiProblem, Schemas } from '../../api/client';
import { ColourField } from '../../ui/ColourField';
import { CheckboxField, Field } from '../../ui/Field';

/** What the environment forms edit (the key only at creation). */
export type EnvironmentDraft = Pick<Schemas['Environment'], 'name' | 'color' | 'comments_required' | 'confirmation_required'> & {
  description: string;
};

export function draftOf(environment?: Schemas['Environment']): EnvironmentDraft {
  return {
    name: environment?.name ?? '',
    description: environment?.description ?? '',
    color: environment?.color ?? '#808080',
    comments_required: environment?.comments_required ?? false,
    confirmation_required: environment?.confirmation_required ?? false,
  };
}

/** The draft as the API takes it: an empty description is none. */
export function bodyOf(draft: EnvironmentDraft) {
  return { ...draft, description: draft.description.trim() === '' ? null : draft.description };
}

/** Name, description, colour and the two publishing safeguards, with the API's messages by field. */
export function EnvironmentFields({
  draft,
  onChange,
  problem,
}: {
  draft: EnvironmentDraft;
  onChange: (draft: EnvironmentDraft) => void;
  problem?: ApiProblem;
}) {
  const set = <K extends keyof EnvironmentDraft>(name: K, value: EnvironmentDraft[K]) => onChange({ ...draft, [name]: value });
  return (
    <>
      <Field label="Name" name="name" required value={draft.name} onChange={(e) => set('name', e.target.value)} problem={problem} />
      <Field
        label="Description"
        name="description"
        value={draft.description}
        onChange={(e) => set('description', e.target.value)}
        problem={problem}
      />
      <ColourField label="Colour" name="color" value={draft.color} onChange={(value) => set('color', value)} problem={problem} />
      <div className="checks">
        <CheckboxField
          label="Comment required to publish"
          name="comments_required"
          checked={draft.comments_required}
          onChange={(e) => set('comments_required', e.target.checked)}
          problem={problem}
        />
        <CheckboxField
          label="Typed confirmation required to publish (only in the console)"
          name="confirmation_required"
          checked={draft.confirmation_required}
          onChange={(e) => set('confirmation_required', e.target.checked)}
          problem={problem}
        />
      </div>
    </>
  );
}
