import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAction, useAsync } from '../../ui/useAsync';

/** An environment's keys: listed masked, created with the secret shown once, revoked. */
export function EnvironmentKeys({ project, environment }: { project: string; environment: Schemas['Environment'] }) {
  const path = { projectKey: project, environmentKey: environment.key };
  const keys = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/environments/{environmentKey}/keys', { params: { path } })),
    [project, environment.key],
  );
  const [kind, setKind] = useState<Schemas['EnvironmentKeyKind']>('server');
  const [secret, setSecret] = useState<string>();
  const action = useAction();
  const create = () =>
    void action.run(async () => {
      const created = await unwrap(
        api.POST('/projects/{projectKey}/environments/{environmentKey}/keys', { params: { path }, body: { kind } }),
      );
      setSecret(created.data.key);
      keys.reload();
    });
  const revoke = (keyUlid: string) =>
    void action.run(async () => {
      await unwrap(
        api.DELETE('/projects/{projectKey}/environments/{environmentKey}/keys/{keyUlid}', { params: { path: { ...path, keyUlid } } }),
      );
      setSecret(undefined);
      keys.reload();
    });
  return (
    <section aria-label={`Keys of ${environment.name}`}>
      <h3>Keys of {environment.name}</h3>
      <ErrorMessage problem={keys.problem ?? action.problem} />
      <ul>
        {keys.data?.data.map((key) => (
          <li key={key.ulid}>
            {key.name} <code>{key.masked_key}</code> ({key.kind}){' '}
            {key.revoked_at ? (
              <span>revoked {key.revoked_at.slice(0, 10)}</span>
            ) : (
              <button type="button" onClick={() => revoke(key.ulid)}>
                Revoke {key.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      {secret ? (
        <p className="secret" role="status">
          New key, shown only now: <code data-testid="new-key">{secret}</code> <CopyButton text={secret} />
        </p>
      ) : null}
      <label>
        Kind{' '}
        <select value={kind} onChange={(e) => setKind(e.target.value as Schemas['EnvironmentKeyKind'])}>
          <option value="server">server</option>
          <option value="mobile">mobile</option>
          <option value="client">client</option>
        </select>
      </label>{' '}
      <button type="button" onClick={create} disabled={action.busy}>
        Create {environment.name} key
      </button>
    </section>
  );
}
