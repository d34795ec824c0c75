import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { commaList } from '../../ui/lists';
import { useAction, useAsync } from '../../ui/useAsync';

function SetPassword({ account }: { account: Schemas['Account'] }) {
  const [password, setPassword] = useState('');
  const action = useAction();
  const [done, setDone] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(api.PUT('/accounts/{accountUlid}/password', { params: { path: { accountUlid: account.ulid } }, body: { password } }));
      setPassword('');
      setDone(true);
    });
  };
  return (
    <form onSubmit={submit} className="inline" aria-label={`Password of ${account.email}`}>
      <Field label={`New password for ${account.email}`} name="password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} problem={action.problem} />
      <button type="submit">Set password</button>
      {done ? <span role="status">Set; the account's sessions ended.</span> : null}
      <ErrorMessage problem={action.problem} />
    </form>
  );
}

/** Accounts (owners and admins only): who may sign in, with which role and projects. */
export function AccountsScreen() {
  const accounts = useAsync(() => unwrap(api.GET('/accounts', { params: { query: { per_page: 100 } } })), []);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Schemas['AccountRole']>('member');
  const [projects, setProjects] = useState('');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(api.POST('/accounts', { body: { name, email, role, ...(role === 'member' ? { projects: commaList(projects) } : {}) } as Schemas['AccountCreate'] }));
      setName('');
      setEmail('');
      accounts.reload();
    });
  };
  return (
    <section>
      <h1>Accounts</h1>
      <ErrorMessage problem={accounts.problem} />
      {accounts.data?.data.map((account) => (
        <article key={account.ulid} className="environment">
          <h2>
            {account.name} ({account.role})
          </h2>
          <SetPassword account={account} />
        </article>
      ))}
      <h2>New account</h2>
      <form onSubmit={submit} className="inline">
        <Field label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={action.problem} />
        <Field label="Email" name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} problem={action.problem} />
        <label>
          Role{' '}
          <select value={role} onChange={(e) => setRole(e.target.value as Schemas['AccountRole'])}>
            <option>member</option>
            <option>admin</option>
            <option>owner</option>
          </select>
        </label>
        {role === 'member' ? <Field label="Projects (keys, comma-separated)" name="projects" value={projects} onChange={(e) => setProjects(e.target.value)} problem={action.problem} /> : null}
        <button type="submit" disabled={action.busy}>
          Create account
        </button>
      </form>
      <ErrorMessage problem={action.problem} />
    </section>
  );
}
