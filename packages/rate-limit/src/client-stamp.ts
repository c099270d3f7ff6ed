// Next hides the socket from route handlers and server actions, and passes a client-sent X-Forwarded-For
// through: without the socket's address a per-client limit would count only behind a named proxy.
import { type IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";
import { PROXY_SECRET_ENV, readProxyHeader } from "./proxy-header";

/** Set from the socket on every request before the app sees it; a client-sent value is overwritten. */
export const CLIENT_HEADER = "x-vigil-client";

/** The client each proxied connection came from, as its PROXY header said. */
const proxied = new WeakMap<Socket, string>();

function stampClientAddress(req: IncomingMessage): void {
  req.headers[CLIENT_HEADER] = proxied.get(req.socket) ?? req.socket.remoteAddress ?? "";
}

const INSTALLED = Symbol.for("vigil.client-stamp");

/**
 * Once per process (from instrumentation, and before Next starts under `pnpm start`): every HTTP request
 * carries its client's address in CLIENT_HEADER.
 */
export function installClientStamp(): void {
  const proto = Server.prototype as Server & { [INSTALLED]?: boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const secret = process.env[PROXY_SECRET_ENV];
  const emit = proto.emit;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "connection" && secret) {
      const socket = args[0] as Socket;
      readProxyHeader(socket, secret).then(
        (address) => {
          proxied.set(socket, address);
          (emit as (...a: unknown[]) => boolean).apply(this, [event, ...args]);
        },
        () => socket.destroy(),
      );
      return true;
    }
    if (event === "request") stampClientAddress(args[0] as IncomingMessage);
    return (emit as (...a: unknown[]) => boolean).apply(this, [event, ...args]);
  } as typeof proto.emit;
}
