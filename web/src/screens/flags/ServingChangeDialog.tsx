import { useState, type FormEvent, type ReactNode } from 'react';
import { fieldMessages, type Schemas } from '../../api/client';
import { Dialog, DialogActions, type DialogControl } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction } from '../../ui/useAsync';

/** What a change of what an environment serves carries: a comment, and the typed key where required. */
export interface ServingChangeInput {
  comment: string | null;
  confirmation?: string;
}

/** The body members of a serving change, for an environment's rules (typed key only where required). */
export function changeBody(environment: Schemas['Environment'], input: ServingChangeInput): ServingChangeInput {
  return { comment: input.comment, ...(environment.confirmation_required ? { confirmation: input.confirmation } : {}) };
}

/**
 * A modal dialog confirming a change of what an environment serves (switch, restore, copy): it
 * says what will happen (`children`), asks for the comment and, where the environment requires
 * it, the typed key; the API's refusal is shown in it.
 */
export function ServingChangeDialog({
  control,
  environment,
  title,
  heading,
  submitLabel,
  onSubmit,
  children,
}: {
  control: DialogControl;
  environment: Schemas['Environment'];
  title: string;
  /** The title with markup (a time with its exact value on hover); its text is `title`. */
  heading?: ReactNode;
  submitLabel: string;
  onSubmit: (input: ServingChangeInput) => Promise<void>;
  children?: ReactNode;
}) {
  return (
    <Dialog control={control} title={heading ?? title}>
      <ServingChangeForm control={control} environment={environment} title={title} submitLabel={submitLabel} onSubmit={onSubmit}>
        {children}
      </ServingChangeForm>
    </Dialog>
  );
}

/** The dialog's form; mounted only while the dialog is open, so every opening starts empty. */
function ServingChangeForm({
  control,
  environment,
  title,
  submitLabel,
  onSubmit,
  children,
}: {
  control: DialogControl;
  environment: Schemas['Environment'];
  title: string;
  submitLabel: string;
  onSubmit: (input: ServingChangeInput) => Promise<void>;
  children?: ReactNode;
}) {
  const [comment, setComment] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await onSubmit(changeBody(environment, { comment: comment || null, confirmation }));
      control.close();
    });
  };
  const typedFirst = environment.confirmation_required;
  return (
    <form onSubmit={submit} aria-label={title}>
      {children}
      <Field
        label={environment.comments_required ? 'Comment (required here)' : 'Comment (optional)'}
        name="comment"
        required={environment.comments_required}
        autoFocus={!typedFirst}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        problem={action.problem}
      />
      {typedFirst ? (
        <TypedConfirmation
          expected={environment.key}
          value={confirmation}
          onChange={setConfirmation}
          what={`change what ${environment.name} serves`}
          messages={fieldMessages(action.problem, 'confirmation')}
          autoFocus
        />
      ) : null}
      <DialogActions
        control={control}
        disabled={action.busy || (environment.confirmation_required && confirmation !== environment.key)}
        problem={action.problem}
      >
        {submitLabel}
      </DialogActions>
    </form>
  );
}
