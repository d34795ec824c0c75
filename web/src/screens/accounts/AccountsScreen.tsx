import { useState, type FormEvent } from 'react';
import { allPages } from '../../api/all-pages';
import { api, unwrap, type Schemas } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field, SelectField } from '../../ui/Field';
import { Pager, useCursorPages } from '../../ui/Pager';
import { useAction, useAsync } from '../../ui/useAsync';
import '../../ui/admin.css';
import { AccountManager } from './AccountManager';
import { ProjectChoice } from './ProjectChoice';

/** Accounts (owners and admins only): who may sign in, with which role and projects. */
export function AccountsScreen() {
  const { session } = useSession();
  // Each account is a form: a page of them at a time.
  const pages = useCursorPages();
  const accounts = useAsync(
    () => unwrap(api.GET('/accounts', { params: { query: { per_page: 25, cursor: pages.cursor } } })),
    [pages.cursor],
  );
  const projects = useAsync(() => allPages((cursor) => unwrap(api.GET('/projects', { params: { query: { per_page: 100, cursor } } }))), []);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Schemas['AccountRole']>('member');
  const [chosen, setChosen] = useState<string[]>([]);
  const create = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      await unwrap(api.POST('/accounts', { body: { name, email, role, ...(role === 'member' ? { projects: chosen } : {}) } }));
      setName('');
      setEmail('');
      setChosen([]);
      accounts.reload();
    });
  };
  const projectList = projects.data?.data ?? [];
  return (
    <section>
      <h1>Accounts</h1>
      <ErrorMessage problem={accounts.problem ?? projects.problem} />
      {accounts.data?.data.map((account) => (
        <AccountManager
          key={account.ulid}
          account={account}
          projects={projectList}
          self={account.ulid === session.account.ulid}
          onChanged={accounts.reload}
        />
      ))}
      <Pager pages={pages} nextCursor={accounts.data?.meta.next_cursor} loading={accounts.loading} label="Pages of accounts" />
      <form onSubmit={submit} aria-label="New account">
        <h2>New account</h2>
        <div className="inline">
          <Field label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={create.problem} />
          <Field
            label="Email"
            name="email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            problem={create.problem}
          />
          <SelectField label="Role" name="role" value={role} onChange={(e) => setRole(e.target.value as Schemas['AccountRole'])}>
            <option>member</option>
            <option>admin</option>
            <option>owner</option>
          </SelectField>
        </div>
        {role === 'member' ? (
          <ProjectChoice
            legend="Projects of the new member"
            projects={projectList}
            chosen={chosen}
            onChange={setChosen}
            problem={create.problem}
          />
        ) : null}
        <p>The account can sign in to the console once you set a temporary password for it.</p>
        <button type="submit" disabled={create.busy}>
          Create account
        </button>
        <ErrorMessage problem={create.problem} />
      </form>
    </section>
  );
}
