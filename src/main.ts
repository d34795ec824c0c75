import http from 'node:http';
import { createApp } from './app.js';
import { compose } from './composition-root.js';
import { loadConfig } from './config.js';
import { bootstrapFirstStart } from './features/accounts/bootstrap.js';
import { importConfigurationFile } from './features/configuration/import-file.js';
import { listen } from './listen.js';
import { flushLogger } from './logger.js';
import { metricsApp } from './observability/metrics-endpoint.js';
import { StartupError } from './startup-error.js';
import { isDatabaseUnavailable } from './storage/db-errors.js';

/** Process entry: configure, compose, serve; SIGTERM and SIGINT stop gracefully. */
async function main(): Promise<void> {
  const config = loadConfig();
  const composition = await compose(config);
  const { logger } = composition.core;
  const app = createApp(composition);
  const handle = app.callback();
  // Until the start below is complete (first start, VEXIL_IMPORT_FILE, keys loaded), the probes
  // and the metrics answer (/ready: 503, starting) and every other request waits for it, so none
  // sees an instance without its owner, its imported project or its keys.
  composition.readiness.starting = true;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const probe = (url = '') => /^\/(health|ready|metrics)(\?|$)/.test(url);
  // Context and default-value headers carry JSON: allow more than Node's 16 KB default.
  let closing = false;
  const server = http.createServer({ maxHeaderSize: config.maxHeaderBytes }, (req, res) => {
    // Once the server is closing, a keep-alive client's next request is its last on that connection.
    if (closing) res.shouldKeepAlive = false;
    if (!composition.readiness.starting || probe(req.url)) return void handle(req, res);
    void started.then(() => handle(req, res));
  });
  // Listen before first start creates its one-time secrets: a port in use stops the start before
  // any secret is stored or printed, so the next start shows them.
  await listen(server, config.port, config.host).catch(async (error: unknown) => {
    await composition.close();
    throw error;
  });
  // VEXIL_METRICS_PORT: /metrics on a port of its own (for example one only the monitoring network reaches).
  let metricsServer: http.Server | undefined;
  if (config.metrics.port !== undefined) {
    metricsServer = http.createServer(metricsApp(composition.metrics, config.metrics, logger).callback());
    await listen(metricsServer, config.metrics.port, config.host, 'VEXIL_METRICS_PORT').catch(async (error: unknown) => {
      server.close();
      await composition.close();
      throw error;
    });
  }
  await bootstrapFirstStart(composition.core, config.initOwnerToken, undefined, config.importFile === undefined);
  if (config.importFile !== undefined) await importConfigurationFile(composition, config.importFile);
  // The keys first start created must work from the first request, not from the first poll.
  await composition.keyCache.refreshIfChanged();
  for (const task of composition.tasks) task.start();
  composition.readiness.starting = false;
  markStarted();
  const redis = config.redisUrl ? 'configured' : 'not configured';
  const metricsPort = config.metrics.port ?? config.port;
  const tracing = composition.tracing ? 'exporting' : 'off';
  logger.info(
    { port: config.port, host: config.host, database: composition.core.dialect, redis, metricsPort, tracing },
    'Vexil is listening',
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainMs: config.drainMs }, 'stopping');
    // Drain: /ready answers 503 at once so load balancers stop sending; requests keep being served.
    composition.readiness.shuttingDown = true;
    await new Promise((resolve) => setTimeout(resolve, config.drainMs));
    // Stop accepting and end the event streams (they never end by themselves), then let the
    // requests still open finish; one still open after 5 s is cut off rather than holding the shutdown.
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Node closes the connections idle at close() only: those busy then (ended streams included)
    // are closed as they become idle, so that none holds the close until the cutoff.
    const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
    metricsServer?.close();
    metricsServer?.closeIdleConnections();
    await composition.endStreams();
    setTimeout(() => server.closeAllConnections(), 5000).unref();
    await closed;
    clearInterval(closeIdle);
    // Only now flush audit and telemetry buffers and stop the tasks: every request that finished
    // during the drain or the close has recorded what it did.
    await composition.stopTasks();
    await composition.close();
    logger.info('stopped');
    // Log lines are written asynchronously (src/logger.ts): every one is out before the exit.
    await flushLogger(logger);
    process.exit(0);
  };
  // A promise nobody awaited that failed is a bug to fix, not a reason to stop answering
  // evaluations: it is logged with its stack and the process keeps serving.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  // A cause the operator can fix is one line; anything else keeps its stack for the bug report.
  if (error instanceof StartupError) console.error(`Vexil cannot start: ${error.message}`);
  else if (isDatabaseUnavailable(error)) {
    // The database was reached (the checks before migration passed) and then stopped answering.
    const reason = (error as Error).message.split('\n')[0];
    console.error(`Vexil cannot start: the database stopped answering during the start (${reason}); start again once it answers`);
  } else console.error(error);
  process.exit(1);
});
