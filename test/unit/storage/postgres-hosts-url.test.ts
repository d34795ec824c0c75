import { describe, expect, it } from 'vitest';
import { StartupError } from '../../../src/startup-error.js';
import { openDatabase } from '../../../src/storage/database.js';
import { InvalidPostgresUrl, isPostgresHostsUrl, parsePostgresHostsUrl } from '../../../src/storage/postgres-hosts-url.js';

describe('PostgreSQL URLs with several hosts', () => {
  it('reads every host and port, in order, with 5432 where none is written', () => {
    const url = parsePostgresHostsUrl('postgres://vexil:secret@db1:5433,db2,10.0.0.3:6000/flags?target_session_attrs=read-write');
    expect(url.hosts).toEqual([
      { host: 'db1', port: 5433 },
      { host: 'db2', port: 5432 },
      { host: '10.0.0.3', port: 6000 },
    ]);
    expect(url.targetSessionAttrs).toBe('read-write');
  });

  it('gives pg one host at a time, keeping the credentials, database and the parameters pg reads', () => {
    const url = parsePostgresHostsUrl(
      'postgresql://vexil:p%40ss@db1:5433,db2:5434/flags?sslmode=require&target_session_attrs=primary&connect_timeout=3',
    );
    expect(url.urlFor({ host: 'db2', port: 5434 })).toBe('postgresql://vexil:p%40ss@db2:5434/flags?sslmode=require');
    expect(url.urlFor({ host: 'db2', port: 5434 }, 'postgres')).toBe('postgresql://vexil:p%40ss@db2:5434/postgres?sslmode=require');
    expect(url.targetSessionAttrs).toBe('primary');
    expect(url.connectTimeoutMs).toBe(3000);
  });

  it('reads IPv6 addresses in brackets, and writes them back so', () => {
    const url = parsePostgresHostsUrl('postgres://u@[::1]:5433,[fe80::2]/db');
    expect(url.hosts).toEqual([
      { host: '::1', port: 5433 },
      { host: 'fe80::2', port: 5432 },
    ]);
    expect(url.urlFor({ host: '::1', port: 5433 })).toBe('postgres://u@[::1]:5433/db');
  });

  it('takes the user information up to the last @, so a password with / or @ unencoded still parses', () => {
    const url = parsePostgresHostsUrl('postgres://u:a/b@c@h1:1,h2:2/db');
    expect(url.hosts).toEqual([
      { host: 'h1', port: 1 },
      { host: 'h2', port: 2 },
    ]);
    expect(url.urlFor({ host: 'h1', port: 1 })).toBe('postgres://u:a/b@c@h1:1/db');
  });

  it('reads no user and no database as absent, and target_session_attrs as any by default', () => {
    const url = parsePostgresHostsUrl('postgres://h1,h2');
    expect(url.targetSessionAttrs).toBe('any');
    expect(url.connectTimeoutMs).toBeUndefined();
    expect(url.urlFor({ host: 'h1', port: 5432 })).toBe('postgres://h1:5432');
  });

  it('tells the URLs it is for: several hosts or a target_session_attrs, PostgreSQL only', () => {
    expect(isPostgresHostsUrl('postgres://u@h1:1,h2:2/db')).toBe(true);
    expect(isPostgresHostsUrl('postgresql://u@h1/db?target_session_attrs=read-write')).toBe(true);
    expect(isPostgresHostsUrl('postgres://u:p@h1:5432/db?sslmode=require')).toBe(false);
    expect(isPostgresHostsUrl('mysql://u@h1,h2/db')).toBe(false);
    expect(isPostgresHostsUrl('sqlite:data/vexil.db')).toBe(false);
  });

  it.each([
    ['postgres://u@h1:99999,h2/db', 'host 1 ("h1:99999"): the port must be a number from 1 to 65535'],
    ['postgres://u@h1,h2:x/db', 'host 2 ("h2:x"): the port must be a number from 1 to 65535'],
    ['postgres://u@h1,,h3/db', 'host 2 ("") has no host name'],
    ['postgres://u@h1,:5432/db', 'host 2 (":5432") has no host name'],
    ['postgres://u@::1:5432,h2/db', 'host 1 ("::1:5432"): an IPv6 address is written in brackets, [::1]:5432'],
    ['postgres://u@h 1,h2/db', 'host 1 ("h 1"): not a host name or address'],
    [
      'postgres://u@h1,h2/db?target_session_attrs=standby',
      'target_session_attrs=standby chooses a standby, where Vexil cannot write (use read-write)',
    ],
    [
      'postgres://u@h1,h2/db?target_session_attrs=writable',
      'target_session_attrs must be one of any, read-write, primary (got "writable")',
    ],
    ['postgres://u@h1,h2/db?connect_timeout=0.5', 'connect_timeout must be a whole number of seconds, at least 1 (got "0.5")'],
    ['mysql://u@h1,h2/db', 'a PostgreSQL URL starts with postgres:// or postgresql://'],
  ])('refuses %s, naming the part that is wrong', (text, reason) => {
    expect(() => parsePostgresHostsUrl(text)).toThrow(new InvalidPostgresUrl(reason));
  });

  it('never repeats the password in a refusal', () => {
    try {
      parsePostgresHostsUrl('postgres://vexil:hunter2@h1:0,h2/db');
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe('DATABASE_URL: host 1 ("h1:0"): the port must be a number from 1 to 65535');
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('stops the start with one line (a StartupError) when DATABASE_URL has a wrong host', () => {
    expect(() => openDatabase('postgres://vexil@db1:5432,db2:70000/flags?target_session_attrs=read-write')).toThrow(StartupError);
    expect(() => openDatabase('postgres://vexil@db1:5432,db2:70000/flags')).toThrow(
      'DATABASE_URL: host 2 ("db2:70000"): the port must be a number from 1 to 65535',
    );
  });
});
