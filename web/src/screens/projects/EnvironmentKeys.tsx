import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { SelectField } from '../../ui/Field';
import { RevokeButton } from '../../ui/RevokeButton';
import { useAction, useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';

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
  const revoke = async (keyUlid: string) => {
    await unwrap(
      api.DELETE('/projects/{projectKey}/environments/{environmentKey}/keys/{keyUlid}', { params: { path: { ...path, keyUlid } } }),
    );
    setSecret(undefined);
    keys.reload();
  };
  return (
    <section aria-label={`Keys of ${environment.name}`}>
      <h3>Keys of {environment.name}</h3>
      <ErrorMessage problem={keys.problem ?? action.problem} />
      {keys.data?.data.length === 0 ? <p className="empty">No keys yet.</p> : null}
      <ul>
        {keys.data?.data.map((key) => (
          <li key={key.ulid}>
            {key.name} <code>{key.masked_key}</code> ({key.kind}){' '}
            {key.revoked_at ? (
              <span>
                revoked <When iso={key.revoked_at} />
              </span>
            ) : (
              <RevokeButton name={key.name} what={`${key.kind} key`} revoke={() => revoke(key.ulid)} />
            )}
          </li>
        ))}
      </ul>
      {secret ? (
        <p className="secret" role="status">
          New key, shown only now: <code data-testid="new-key">{secret}</code> <CopyButton text={secret} />
        </p>
      ) : null}
      <div className="inline">
        <SelectField label="Kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value as Schemas['EnvironmentKeyKind'])}>
          <option value="server">server</option>
          <option value="mobile">mobile</option>
          <option value="client">client</option>
        </SelectField>
        <button type="button" onClick={create} disabled={action.busy}>
          Create {environment.name} key
        </button>
      </div>
    </section>
  );
}
