/** What the TypeScript flows share: their settings and a check that says what it checked. */

export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run the flows through test/generated-clients/run.ts)`);
  return value;
}

export function check(condition: unknown, what: string): void {
  if (!condition) throw new Error(`failed: ${what}`);
  console.log(`ok ${what}`);
}

/** Runs one part of a flow; an error names the part and, for an HTTP error, the answer. */
export async function step(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    const response = (error as { response?: Response }).response;
    const detail = response ? ` (HTTP ${response.status} ${response.url}: ${await response.text().catch(() => '')})` : '';
    console.error(`failed in "${name}": ${error instanceof Error ? error.message : String(error)}${detail}`);
    process.exit(1);
  }
}
