import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field, SelectField } from '../../ui/Field';
import { Pager, useCursorPages } from '../../ui/Pager';
import { RevokeButton } from '../../ui/RevokeButton';
import { useAction, useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';
import '../../ui/admin.css';
import { GrantsPicker, grantsText, noGrants, type Grants } from './GrantsPicker';

const scopes: Schemas['TokenScope'][] = [
  'projects:read',
  'flags:read',
  'flags:write',
  'targets:read',
  'targets:write',
  'audit:read',
  'config:write',
];
const tiers: Schemas['TokenTier'][] = ['standard', 'elevated', 'unlimited'];

function Expiry({ token }: { token: Schemas['ManagementToken'] }) {
  if (!token.expires_at) return <>never</>;
  return token.expires_at <= new Date().toISOString() ? (
    <>
      expired <When iso={token.expires_at} />
    </>
  ) : (
    <When iso={token.expires_at} />
  );
}

/** Management tokens for automation: scopes, tier, project and environment grants, expiry; the secret is shown once. */
export function TokensScreen() {
  const pages = useCursorPages();
  const tokens = useAsync(() => unwrap(api.GET('/tokens', { params: { query: { per_page: 50, cursor: pages.cursor } } })), [pages.cursor]);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<Schemas['TokenScope']>>(new Set(['flags:read']));
  const [tier, setTier] = useState<Schemas['TokenTier']>('standard');
  const [grants, setGrants] = useState<Grants>(noGrants);
  const [expires, setExpires] = useState('');
  const [secret, setSecret] = useState<string>();
  const create = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      const created = await unwrap(
        api.POST('/tokens', {
          body: {
            name,
            scopes: [...chosen],
            tier,
            grants,
            expires_at: expires ? new Date(expires).toISOString() : null,
          },
        }),
      );
      setSecret(created.data.token);
      setName('');
      setGrants(noGrants);
      setExpires('');
      tokens.reload();
    });
  };
  const revokeToken = async (ulid: string) => {
    await unwrap(api.DELETE('/tokens/{tokenUlid}', { params: { path: { tokenUlid: ulid } } }));
    tokens.reload();
  };
  return (
    <section>
      <h1>Management tokens</h1>
      <ErrorMessage problem={tokens.problem} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Scopes</th>
            <th scope="col">Tier</th>
            <th scope="col">Grants</th>
            <th scope="col">Expires</th>
            <th scope="col">Created</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {tokens.data?.data.map((token) => (
            <tr key={token.ulid} data-token={token.ulid}>
              <td>
                {token.name}
                <br />
                <code>{token.ulid}</code>
              </td>
              <td>{token.scopes.join(', ')}</td>
              <td>{token.tier}</td>
              <td>{grantsText(token.grants)}</td>
              <td>
                <Expiry token={token} />
              </td>
              <td>
                <When iso={token.created_at} />
              </td>
              <td>
                {token.revoked_at ? (
                  <>
                    revoked <When iso={token.revoked_at} />
                  </>
                ) : (
                  <RevokeButton name={token.name} what="management token" revoke={() => revokeToken(token.ulid)} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {tokens.data?.data.length === 0 ? (
        <p className="empty">
          {pages.number === 1 ? 'No management tokens yet: automation (CI, scripts) signs in with one.' : 'No tokens on this page.'}
        </p>
      ) : null}
      <Pager pages={pages} nextCursor={tokens.data?.meta.next_cursor} loading={tokens.loading} label="Pages of tokens" />
      {secret ? (
        <p className="secret" role="status">
          New token, shown only now: <code>{secret}</code> <CopyButton text={secret} />
        </p>
      ) : null}
      <form onSubmit={submit} aria-label="New token">
        <h2>New token</h2>
        <Field label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={create.problem} />
        <fieldset>
          <legend>Scopes</legend>
          <div className="checks">
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
          </div>
        </fieldset>
        <SelectField label="Tier" name="tier" value={tier} onChange={(e) => setTier(e.target.value as Schemas['TokenTier'])}>
          {tiers.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </SelectField>
        <GrantsPicker grants={grants} onChange={setGrants} problem={create.problem} />
        <Field
          label="Expires (optional)"
          name="expires_at"
          type="datetime-local"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          problem={create.problem}
        />
        <button type="submit" disabled={create.busy}>
          Create token
        </button>
        <ErrorMessage problem={create.problem} />
      </form>
    </section>
  );
}
