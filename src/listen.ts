import type { Server } from 'node:http';
import { StartupError } from './startup-error.js';

/** Starts listening; a port that is taken or not allowed is a StartupError saying so in one line (naming `setting`). */
export function listen(server: Server, port: number, host: string, setting = 'PORT'): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const where = `${host}:${port}`;
      if (error.code === 'EADDRINUSE') reject(new StartupError(`port ${port} is already in use (${where}); set ${setting} to a free port`));
      else if (error.code === 'EACCES')
        reject(new StartupError(`no permission to listen on ${where}; set ${setting} to a port above 1023`));
      else if (error.code === 'EADDRNOTAVAIL') reject(new StartupError(`HOST ${host} is not an address of this machine`));
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
