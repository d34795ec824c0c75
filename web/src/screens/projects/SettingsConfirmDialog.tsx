import { useState, type FormEvent } from 'react';
import { fieldMessages, type Schemas } from '../../api/client';
import { Dialog, DialogActions, type DialogControl } from '../../ui/Dialog';
import { problemFrom } from '../../ui/ErrorMessage';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction } from '../../ui/useAsync';

/**
 * Saving the settings of an environment that requires typed confirmation: the person types its
 * key (updateEnvironment's `confirmation`). A refusal of the key is shown in the dialog; any other
 * refusal (a field of the settings) closes it and goes to `onRefused`, shown beside the fields.
 */
export function SettingsConfirmDialog({
  control,
  environment,
  lifting,
  onConfirm,
  onRefused,
}: {
  control: DialogControl;
  environment: Schemas['Environment'];
  /** The change turns typed confirmation off. */
  lifting: boolean;
  onConfirm: (confirmation: string) => Promise<void>;
  onRefused: (error: unknown) => void;
}) {
  const title = `Save the settings of ${environment.name}`;
  return (
    <Dialog control={control} title={title}>
      <SettingsConfirmForm
        control={control}
        environment={environment}
        lifting={lifting}
        title={title}
        onConfirm={onConfirm}
        onRefused={onRefused}
      />
    </Dialog>
  );
}

/** The dialog's form; mounted only while open, so every opening starts empty. */
function SettingsConfirmForm({
  control,
  environment,
  lifting,
  title,
  onConfirm,
  onRefused,
}: {
  control: DialogControl;
  environment: Schemas['Environment'];
  lifting: boolean;
  title: string;
  onConfirm: (confirmation: string) => Promise<void>;
  onRefused: (error: unknown) => void;
}) {
  const [confirmation, setConfirmation] = useState('');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      try {
        await onConfirm(confirmation);
      } catch (error) {
        if (fieldMessages(problemFrom(error), 'confirmation').length > 0) throw error;
        control.close();
        onRefused(error);
        return;
      }
      control.close();
    });
  };
  return (
    <form onSubmit={submit} aria-label={title}>
      <p>
        {lifting
          ? `${environment.name} will no longer require typed confirmation: tokens will be able to publish there.`
          : `${environment.name} requires typed confirmation, for its settings too.`}
      </p>
      <TypedConfirmation
        expected={environment.key}
        value={confirmation}
        onChange={setConfirmation}
        what={`change the settings of ${environment.name}`}
        messages={fieldMessages(action.problem, 'confirmation')}
        autoFocus
      />
      <DialogActions control={control} disabled={action.busy || confirmation !== environment.key} problem={action.problem}>
        Confirm and save {environment.key}
      </DialogActions>
    </form>
  );
}
