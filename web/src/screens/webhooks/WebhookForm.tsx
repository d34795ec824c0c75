import { useState, type FormEvent } from 'react';
import type { ApiError, Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { CheckboxField, Field, GroupMessages } from '../../ui/Field';

/** The event filters offered as choices: everything, or a family of events. */
export const families: Array<[Schemas['WebhookEventFilter'], string]> = [
  ['*', 'every event'],
  ['flag.*', 'flags'],
  ['flag_value.*', 'flag values'],
  ['target.*', 'publishes and rollouts'],
  ['target_rule.*', 'rules'],
  ['segment.*', 'segments'],
  ['environment.*', 'environments'],
  ['project.*', 'the project'],
];

export interface WebhookFormValues {
  url: string;
  events: Schemas['WebhookEventFilter'][];
  environments: string[];
  description: string;
}

/** A subscription's fields: where, which events, which environments (none ticked: all). */
export function WebhookForm({
  label,
  initial,
  environments,
  problem,
  busy,
  submitLabel,
  onSubmit,
}: {
  label: string;
  initial: WebhookFormValues;
  environments: Schemas['Environment'][];
  problem: ApiError | undefined;
  busy: boolean;
  submitLabel: string;
  onSubmit: (values: WebhookFormValues) => Promise<boolean>;
}) {
  const [values, setValues] = useState(initial);
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit(values).then((done) => done && initial.url === '' && setValues(initial));
  };
  return (
    <form onSubmit={submit} aria-label={label}>
      <Field
        label="Endpoint URL"
        name="url"
        type="url"
        required
        size={50}
        value={values.url}
        onChange={(e) => setValues({ ...values, url: e.target.value })}
        problem={problem}
      />
      <fieldset>
        <legend>Events</legend>
        <div className="checks">
          {families.map(([filter, text]) => (
            <CheckboxField
              key={filter}
              label={text}
              name={`event-${filter}`}
              checked={values.events.includes(filter)}
              onChange={(e) => setValues({ ...values, events: toggle(values.events, filter, e.target.checked) })}
            />
          ))}
        </div>
        <GroupMessages problem={problem} name="events" />
      </fieldset>
      <fieldset>
        <legend>Environments (none ticked: every environment)</legend>
        <div className="checks">
          {environments.map((environment) => (
            <CheckboxField
              key={environment.key}
              label={environment.name}
              name={`environment-${environment.key}`}
              checked={values.environments.includes(environment.key)}
              onChange={(e) => setValues({ ...values, environments: toggle(values.environments, environment.key, e.target.checked) })}
            />
          ))}
        </div>
        <GroupMessages problem={problem} name="environments" />
      </fieldset>
      <Field
        label="Description"
        name="description"
        size={50}
        value={values.description}
        onChange={(e) => setValues({ ...values, description: e.target.value })}
        problem={problem}
      />
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
      <ErrorMessage problem={problem} />
    </form>
  );
}

/** The body of createWebhook and updateWebhook for the form's values. */
export function webhookBody(values: WebhookFormValues, enabled: boolean): Schemas['WebhookWrite'] {
  return {
    url: values.url.trim(),
    events: values.events,
    environments: values.environments,
    description: values.description.trim() ? values.description : null,
    enabled,
  };
}
