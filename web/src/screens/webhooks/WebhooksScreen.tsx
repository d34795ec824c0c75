import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { Link } from '../../app/router';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Pager, useCursorPages } from '../../ui/Pager';
import { DeleteAfterTyping } from '../../ui/TypedConfirmation';
import { useAction, useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';
import '../../ui/admin.css';
import { RotateSecret } from './RotateSecret';
import { WebhookDeliveries } from './WebhookDeliveries';
import { families, WebhookForm, webhookBody, type WebhookFormValues } from './WebhookForm';

const blank: WebhookFormValues = { url: '', events: ['*'], environments: [], description: '' };

/** One subscription: what it takes, its health, Ping, pause or resume, edit, delete, and its delivery log. */
function WebhookCard({
  project,
  webhook,
  environments,
  onChanged,
}: {
  project: string;
  webhook: Schemas['Webhook'];
  environments: Schemas['Environment'][];
  onChanged: () => void;
}) {
  const path = { projectKey: project, webhookUlid: webhook.ulid };
  const action = useAction();
  const save = useAction();
  // Bumped after a ping, so the delivery log shows the queued delivery.
  const [refresh, setRefresh] = useState(0);
  const [pinged, setPinged] = useState(false);
  const values: WebhookFormValues = {
    url: webhook.url,
    events: webhook.events,
    environments: webhook.environments,
    description: webhook.description ?? '',
  };
  const ping = () =>
    void action.run(async () => {
      await unwrap(api.POST('/projects/{projectKey}/webhooks/{webhookUlid}/ping', { params: { path } }));
      setPinged(true);
      setRefresh((n) => n + 1);
    });
  const setEnabled = (enabled: boolean) =>
    void action.run(async () => {
      await unwrap(api.PUT('/projects/{projectKey}/webhooks/{webhookUlid}', { params: { path }, body: webhookBody(values, enabled) }));
      onChanged();
    });
  return (
    <article className="environment" aria-labelledby={`whk-${webhook.ulid}`}>
      <h2 id={`whk-${webhook.ulid}`}>
        <code>{webhook.url}</code>
        <span className={webhook.enabled ? 'badge quiet' : 'badge'}>{webhook.enabled ? 'active' : 'paused'}</span>
      </h2>
      {webhook.description ? <p>{webhook.description}</p> : null}
      <dl className="facts">
        <dt>Events</dt>
        {/* In the form's words; a single event type, which the form does not offer, as its code. */}
        <dd>
          {webhook.events.map((filter, i) => (
            <span key={filter}>
              {i > 0 ? ', ' : ''}
              {families.find(([f]) => f === filter)?.[1] ?? <code>{filter}</code>}
            </span>
          ))}
        </dd>
        <dt>Environments</dt>
        <dd>{webhook.environments.length > 0 ? webhook.environments.join(', ') : 'every environment'}</dd>
        <dt>Failures in a row</dt>
        <dd>
          {webhook.consecutive_failures}
          {webhook.disabled_reason ? ` (paused: ${webhook.disabled_reason})` : ''}
        </dd>
        <dt>Created</dt>
        <dd>
          <When iso={webhook.created_at} />
        </dd>
      </dl>
      <div className="actions">
        <button type="button" onClick={ping} disabled={action.busy}>
          Send a ping<span className="visually-hidden"> to {webhook.url}</span>
        </button>
        <button type="button" onClick={() => setEnabled(!webhook.enabled)} disabled={action.busy}>
          {webhook.enabled ? 'Pause' : 'Resume'}
          <span className="visually-hidden"> {webhook.url}</span>
        </button>
        <RotateSecret project={project} webhook={webhook} />
      </div>
      {pinged ? (
        <p role="status" className="hint">
          Ping queued: its delivery is in the log below.
        </p>
      ) : null}
      <ErrorMessage problem={action.problem} />
      <WebhookDeliveries project={project} webhook={webhook} refresh={refresh} />
      <details className="manage">
        <summary>Edit {webhook.url}</summary>
        <WebhookForm
          label={`Edit webhook ${webhook.url}`}
          initial={values}
          environments={environments}
          problem={save.problem}
          busy={save.busy}
          submitLabel="Save webhook"
          onSubmit={(next) =>
            save.run(async () => {
              await unwrap(
                api.PUT('/projects/{projectKey}/webhooks/{webhookUlid}', { params: { path }, body: webhookBody(next, webhook.enabled) }),
              );
              onChanged();
            })
          }
        />
      </details>
      <details className="manage">
        <summary>Delete {webhook.url}</summary>
        <DeleteAfterTyping
          expected={webhook.url}
          what="delete this subscription (its deliveries stop)"
          remove={async () => {
            await unwrap(api.DELETE('/projects/{projectKey}/webhooks/{webhookUlid}', { params: { path } }));
            onChanged();
          }}
        >
          Delete webhook
        </DeleteAfterTyping>
      </details>
    </article>
  );
}

/** A project's webhook subscriptions: each with its delivery log, and a new one with its secret shown once. */
export function WebhooksScreen({ project }: { project: string }) {
  const pages = useCursorPages();
  const webhooks = useAsync(
    () =>
      unwrap(
        api.GET('/projects/{projectKey}/webhooks', {
          params: { path: { projectKey: project }, query: { per_page: 25, cursor: pages.cursor } },
        }),
      ),
    [project, pages.cursor],
  );
  const environments = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: project } } })),
    [project],
  );
  const create = useAction();
  const [secret, setSecret] = useState<string>();
  const list = webhooks.data?.data ?? [];
  return (
    <section>
      <h1>Webhooks of {project}</h1>
      <nav aria-label={`Project ${project}`} className="inline">
        <Link to={`/projects/${project}`}>Project {project}</Link>
      </nav>
      <p className="hint">
        Each change in the project is POSTed to the subscriptions that take it, signed with the subscription's secret (Standard Webhooks
        headers: webhook-id, webhook-timestamp, webhook-signature).
      </p>
      <ErrorMessage problem={webhooks.problem ?? environments.problem} />
      {list.map((webhook) => (
        <WebhookCard
          key={`${webhook.ulid}-${webhook.updated_at}`}
          project={project}
          webhook={webhook}
          environments={environments.data?.data ?? []}
          onChanged={webhooks.reload}
        />
      ))}
      {webhooks.data && list.length === 0 ? (
        <p className="empty">{pages.number === 1 ? 'No webhooks yet: subscribe an endpoint below.' : 'No webhooks on this page.'}</p>
      ) : null}
      <Pager pages={pages} nextCursor={webhooks.data?.meta.next_cursor} loading={webhooks.loading} label="Pages of webhooks" />
      <h2>New webhook</h2>
      <WebhookForm
        label="New webhook"
        initial={blank}
        environments={environments.data?.data ?? []}
        problem={create.problem}
        busy={create.busy}
        submitLabel="Create webhook"
        onSubmit={(values) =>
          create.run(async () => {
            const created = await unwrap(
              api.POST('/projects/{projectKey}/webhooks', { params: { path: { projectKey: project } }, body: webhookBody(values, true) }),
            );
            setSecret(created.data.secret);
            webhooks.reload();
          })
        }
      />
      {secret ? (
        <p className="secret" role="status">
          Signing secret, shown only now: <code data-testid="webhook-secret">{secret}</code> <CopyButton text={secret} />
        </p>
      ) : null}
    </section>
  );
}
