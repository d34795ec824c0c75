import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { commaList } from '../../ui/lists';
import { useAction, useAsync } from '../../ui/useAsync';

const scopes: Schemas['TokenScope'][] = ['projects:read', 'flags:read', 'flags:write', 'targets:read', 'targets:write', 'audit:read', 'config:write'];
const tiers: Schemas['TokenTier'][] = ['standard', 'elevated', 'unlimited'];

/** Management tokens for automation: scopes, tier, project grants, expiry; the secret is shown once. */
export function TokensScreen() {
  const tokens = useAsync(() => unwrap(api.GET('/tokens', { params: { query: { per_page: 100 } } })), []);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<Schemas['TokenScope']>>(new Set(['flags:read']));
  const [tier, setTier] = useState<Schemas['TokenTier']>('standard');
  const [projects, setProjects] = useState('');
  const [expires, setExpires] = useState('');
  const [secret, setSecret] = useState<string>();
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      const grants = commaList(projects);
      const created = await unwrap(
        api.POST('/tokens', {
          body: {
            name,
            scopes: [...chosen],
            tier,
            ...(grants.length > 0 ? { grants: { projects: grants } } : {}),
            ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
          } as Schemas['ManagementTokenCreate'],
        }),
      );
      setSecret(created.data.token);
      setName('');
      tokens.reload();
    });
  };
  const revoke = (ulid: string) =>
    void action.run(async () => {
      await unwrap(api.DELETE('/tokens/{tokenUlid}', { params: { path: { tokenUlid: ulid } } }));
      tokens.reload();
    });
  return (
    <section>
      <h1>Management tokens</h1>
      <ErrorMessage problem={tokens.problem ?? action.problem} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Scopes</th>
            <th scope="col">Tier</th>
            <th scope="col">Expires</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {tokens.data?.data.map((token) => (
            <tr key={token.ulid}>
              <td>{token.name}</td>
              <td>{token.scopes.join(', ')}</td>
              <td>{token.tier}</td>
              <td>{token.expires_at ?? 'never'}</td>
              <td>{token.revoked_at ? 'revoked' : <button type="button" onClick={() => revoke(token.ulid)}>Revoke {token.name}</button>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {secret ? (
        <p className="secret" role="status">
          New token, shown only now: <code>{secret}</code> <CopyButton text={secret} />
        </p>
      ) : null}
      <h2>New token</h2>
      <form onSubmit={submit}>
        <Field label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={action.problem} />
        <fieldset>
          <legend>Scopes</legend>
          {scopes.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={chosen.has(scope)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(scope);
                  else next.delete(scope);
                  setChosen(next);
                }}
              />{' '}
              {scope}
            </label>
          ))}
        </fieldset>
        <label>
          Tier{' '}
          <select value={tier} onChange={(e) => setTier(e.target.value as Schemas['TokenTier'])}>
            {tiers.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <Field label="Only these projects (keys, comma-separated; empty: all)" name="grants" value={projects} onChange={(e) => setProjects(e.target.value)} problem={action.problem} />
        <Field label="Expires (optional)" name="expires_at" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Create token
        </button>
      </form>
    </section>
  );
}
