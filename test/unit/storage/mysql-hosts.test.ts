import { describe, expect, it } from 'vitest';
import { mysqlHostsOf, queryTimeoutOf } from '../../../src/storage/mysql-hosts.js';
import { StartupError } from '../../../src/startup-error.js';

describe('the hosts of a mysql:// DATABASE_URL', () => {
  it('lists every host of the URL in order, with the default port where none is given', () => {
    const list = mysqlHostsOf('mysql://vexil:p%40ss@db1:3307,db2,127.0.0.1:3309/vexil?ssl=false');
    expect(list.hosts).toEqual(['db1:3307', 'db2:3306', '127.0.0.1:3309']);
    expect(list.urlFor('db2:3306')).toBe('mysql://vexil:p%40ss@db2:3306/vexil?ssl=false');
  });

  it('reads a single host, mariadb:// and a URL without credentials alike', () => {
    expect(mysqlHostsOf('mariadb://db:3306/vexil').hosts).toEqual(['db:3306']);
    expect(mysqlHostsOf('mysql://root@[::1]:3306/vexil').hosts).toEqual(['[::1]:3306']);
    expect(mysqlHostsOf('mysql://root@127.0.0.1:3306/vexil').urlFor('127.0.0.1:3306')).toBe('mysql://root@127.0.0.1:3306/vexil');
  });

  it('refuses an empty or malformed host with one line naming it', () => {
    expect(() => mysqlHostsOf('mysql://root@db1:3306,,db2/vexil')).toThrow(StartupError);
    expect(() => mysqlHostsOf('mysql://root@db1:3306,,db2/vexil')).toThrow('invalid host ""');
    expect(() => mysqlHostsOf('mysql://root@db1:port/vexil')).toThrow('invalid host "db1:port"');
  });
});

describe('the query time limit of a connection', () => {
  it('is the configured one on a connection that is not on a Galera node (0: none)', () => {
    const plain = {};
    expect(queryTimeoutOf(plain, 5000)).toBe(5000);
    expect(queryTimeoutOf(plain, 0)).toBe(0);
  });
});
