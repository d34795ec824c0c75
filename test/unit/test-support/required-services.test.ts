/**
 * `make test` runs the integration suites with MariaDB and Redis required: a suite that needs a
 * service that is down fails with a message naming it, rather than being skipped with a warning.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The environment of a shell outside any `make`: no required-service settings, no make flags. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of ['VEXIL_REQUIRE_MARIADB', 'VEXIL_REQUIRE_REDIS', 'CI', 'MAKEFLAGS', 'MFLAGS', 'MAKELEVEL']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

/** Imports one test-support module in its own process, as a test file would. */
function importSupport(module: string, env: Record<string, string>) {
  const code = `await import(${JSON.stringify(path.resolve('test/support', module))});`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    env: plainEnv(env),
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('services the tests need', () => {
  it('are required by make test', () => {
    // -B: every recipe as from a fresh clone, whatever this tree has built already.
    const recipe = execFileSync('make', ['-n', '-B', 'test'], { env: plainEnv(), encoding: 'utf8' });
    const vitest = recipe.split('\n').filter((line) => /npx vitest run\s*$/.test(line));
    expect(vitest, recipe).toHaveLength(1);
    expect(vitest[0]).toContain('VEXIL_REQUIRE_MARIADB=1');
    expect(vitest[0]).toContain('VEXIL_REQUIRE_REDIS=1');
    // The built command is tested too, so the build comes first.
    expect(recipe.indexOf('npx tsc -p cli/tsconfig.json')).toBeGreaterThan(-1);
    expect(recipe.indexOf('npx tsc -p cli/tsconfig.json')).toBeLessThan(recipe.indexOf(vitest[0]!));
  });

  it('fail a suite that needs Redis, naming Redis, when it is required and down', () => {
    const required = importSupport('redis.ts', { TEST_REDIS_URL: 'redis://127.0.0.1:1', VEXIL_REQUIRE_REDIS: '1' });
    expect(required.status).not.toBe(0);
    expect(required.stderr).toContain('Redis is required for the integration tests but redis://127.0.0.1:1 is not reachable');
    const optional = importSupport('redis.ts', { TEST_REDIS_URL: 'redis://127.0.0.1:1' });
    expect(optional.status).toBe(0);
    expect(optional.stderr).toContain('Redis not reachable at redis://127.0.0.1:1');
  });

  it('fail a suite that needs MariaDB, naming MariaDB, when it is required and down', () => {
    const required = importSupport('databases.ts', { TEST_MYSQL_URL: 'mysql://root@127.0.0.1:1', VEXIL_REQUIRE_MARIADB: '1' });
    expect(required.status).not.toBe(0);
    expect(required.stderr).toContain('MariaDB is required for the integration tests but mysql://root@127.0.0.1:1 is not reachable');
  });
});
