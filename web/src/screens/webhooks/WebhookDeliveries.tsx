import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Pager, useCursorPages } from '../../ui/Pager';
import { useAction, useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';

/** A subscription's delivery log, newest first: each event's state, attempts and last answer, with Redeliver. */
export function WebhookDeliveries({ project, webhook, refresh }: { project: string; webhook: Schemas['Webhook']; refresh: number }) {
  const pages = useCursorPages();
  const path = { projectKey: project, webhookUlid: webhook.ulid };
  const deliveries = useAsync(
    () =>
      unwrap(
        api.GET('/projects/{projectKey}/webhooks/{webhookUlid}/deliveries', {
          params: { path, query: { per_page: 25, cursor: pages.cursor } },
        }),
      ),
    [project, webhook.ulid, pages.cursor, refresh],
  );
  const redeliver = useAction();
  const again = (deliveryUlid: string) =>
    void redeliver.run(async () => {
      await unwrap(
        api.POST('/projects/{projectKey}/webhooks/{webhookUlid}/deliveries/{deliveryUlid}/redeliver', {
          params: { path: { ...path, deliveryUlid } },
        }),
      );
      deliveries.reload();
    });
  const rows = deliveries.data?.data ?? [];
  return (
    <section aria-label={`Deliveries to ${webhook.url}`}>
      <div className="actions">
        <h3>Deliveries</h3>
        <button type="button" onClick={deliveries.reload}>
          Refresh deliveries
        </button>
      </div>
      <ErrorMessage problem={deliveries.problem ?? redeliver.problem} />
      {/* Scrolls in its own box on a phone: focusable and named, so the keyboard can scroll it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1, axe scrollable-region-focusable) */}
      <table tabIndex={0} aria-label={`Deliveries of ${webhook.url}`}>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((delivery) => (
            <tr key={delivery.ulid} data-delivery={delivery.ulid}>
              <td>
                <code>{delivery.event_type}</code>
              </td>
              <td>
                <span className={`badge status-${delivery.status}`}>{delivery.status}</span>
                {delivery.status === 'pending' && delivery.next_attempt_at ? (
                  <div className="hint">
                    next try <When iso={delivery.next_attempt_at} />
                  </div>
                ) : null}
              </td>
              <td>{delivery.attempts}</td>
              <td>
                {delivery.last_status_code !== null ? `HTTP ${delivery.last_status_code}` : null}
                {delivery.last_error ? <div className="hint">{delivery.last_error}</div> : null}
                {delivery.last_status_code === null && !delivery.last_error ? '—' : null}
              </td>
              <td>
                <When iso={delivery.created_at} />
              </td>
              <td>
                <button type="button" onClick={() => again(delivery.ulid)} disabled={redeliver.busy}>
                  Redeliver <span className="visually-hidden">{`${delivery.event_type} ${delivery.ulid}`}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deliveries.data && rows.length === 0 ? <p className="empty">No deliveries yet: send a ping to try the endpoint.</p> : null}
      <Pager pages={pages} nextCursor={deliveries.data?.meta.next_cursor} loading={deliveries.loading} label="Pages of deliveries" />
    </section>
  );
}
