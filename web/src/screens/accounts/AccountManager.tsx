import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field, SelectField } from '../../ui/Field';
import { DeleteAfterTyping } from '../../ui/TypedConfirmation';
import { useAction } from '../../ui/useAsync';
import { When } from '../../ui/When';
import { ProjectChoice } from './ProjectChoice';

const roles: Schemas['AccountRole'][] = ['member', 'admin', 'owner'];

/** A password a person can type once: 20 letters and digits from the browser's random source. */
function randomPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => alphabet[b % alphabet.length]).join('');
}

export function PasswordStatus({ account }: { account: Schemas['Account'] }) {
  if (account.password_status === 'none') return <>none yet: cannot sign in to the console</>;
  if (account.password_status === 'set') return <>their own</>;
  const until = account.password_temporary_until ?? '';
  return (
    <>
      {until <= new Date().toISOString() ? 'temporary, expired ' : 'temporary, expires '}
      <When iso={until} />
    </>
  );
}

function EditAccount({ account, projects, onSaved }: { account: Schemas['Account']; projects: Schemas['Project'][]; onSaved: () => void }) {
  const [name, setName] = useState(account.name);
  const [role, setRole] = useState(account.role);
  const [chosen, setChosen] = useState(account.projects);
  const save = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(async () => {
      await unwrap(
        api.PUT('/accounts/{accountUlid}', {
          params: { path: { accountUlid: account.ulid } },
          body: { name, role, ...(role === 'member' ? { projects: chosen } : {}) },
        }),
      );
      onSaved();
    });
  };
  return (
    <form onSubmit={submit} aria-label={`Edit ${account.email}`}>
      <div className="inline">
        <Field label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={save.problem} />
        <SelectField label="Role" name="role" value={role} onChange={(e) => setRole(e.target.value as Schemas['AccountRole'])}>
          {roles.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </SelectField>
      </div>
      {role === 'member' ? (
        <ProjectChoice legend="Projects" projects={projects} chosen={chosen} onChange={setChosen} problem={save.problem} />
      ) : (
        <p>Owners and admins reach every project.</p>
      )}
      <button type="submit" disabled={save.busy}>
        Save {account.email}
      </button>
      <ErrorMessage problem={save.problem} />
    </form>
  );
}

function SetTemporaryPassword({ account, onSet }: { account: Schemas['Account']; onSet: () => void }) {
  const [password, setPassword] = useState('');
  const [shown, setShown] = useState(false);
  const [done, setDone] = useState(false);
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    void action.run(async () => {
      await unwrap(api.PUT('/accounts/{accountUlid}/password', { params: { path: { accountUlid: account.ulid } }, body: { password } }));
      setDone(true);
      onSet();
    });
  };
  return (
    <form onSubmit={submit} aria-label={`Password of ${account.email}`}>
      <p>A password you set is temporary: {account.email} signs in with it only to choose their own. Their sessions end now.</p>
      <div className="inline">
        <Field
          label={`Temporary password for ${account.email}`}
          name="password"
          type={shown ? 'text' : 'password'}
          autoComplete="new-password"
          value={password}
          onChange={(e) => (setPassword(e.target.value), setDone(false))}
          problem={action.problem}
        />
        <button type="button" onClick={() => (setPassword(randomPassword()), setShown(true), setDone(false))}>
          Generate one
        </button>
        {shown && password ? <CopyButton text={password} /> : null}
      </div>
      <button type="submit" disabled={action.busy}>
        Set temporary password
      </button>
      {done ? <span role="status">Set: {account.email} chooses their own at next sign-in; their sessions ended.</span> : null}
      <ErrorMessage problem={action.problem} />
    </form>
  );
}

function DeleteAccount({ account, onDeleted }: { account: Schemas['Account']; onDeleted: () => void }) {
  return (
    <div>
      <p>
        Deletes the account, its personal access tokens and the management tokens it created, and ends its console sessions at once. Audit
        entries keep its name.
      </p>
      <DeleteAfterTyping
        expected={account.email}
        what="delete this account"
        remove={async () => {
          await unwrap(api.DELETE('/accounts/{accountUlid}', { params: { path: { accountUlid: account.ulid } } }));
          onDeleted();
        }}
      >
        Delete account {account.email}
      </DeleteAfterTyping>
    </div>
  );
}

/** One account: who, what role and projects, its password state; edit, set a temporary password, delete. */
export function AccountManager({
  account,
  projects,
  self,
  onChanged,
}: {
  account: Schemas['Account'];
  projects: Schemas['Project'][];
  self: boolean;
  onChanged: () => void;
}) {
  return (
    <article className="environment" aria-labelledby={`acc-${account.ulid}`}>
      <h2 id={`acc-${account.ulid}`}>
        {account.name} <small>{account.email}</small>
        {self ? <span className="badge quiet">you</span> : null}
      </h2>
      <dl className="facts">
        <dt>Role</dt>
        <dd>{account.role}</dd>
        <dt>Projects</dt>
        <dd>{account.role === 'member' ? (account.projects.length > 0 ? account.projects.join(', ') : 'none') : 'every project'}</dd>
        <dt>Console password</dt>
        <dd>
          <PasswordStatus account={account} />
        </dd>
      </dl>
      <details className="manage">
        <summary>Edit {account.email}</summary>
        <EditAccount account={account} projects={projects} onSaved={onChanged} />
      </details>
      {self ? null : (
        <>
          <details className="manage">
            <summary>Set a temporary password for {account.email}</summary>
            <SetTemporaryPassword account={account} onSet={onChanged} />
          </details>
          <details className="manage">
            <summary>Delete {account.email}</summary>
            <DeleteAccount account={account} onDeleted={onChanged} />
          </details>
        </>
      )}
    </article>
  );
}
