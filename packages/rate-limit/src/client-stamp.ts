// Next hides the socket from route handlers and server actions, and passes a client-sent X-Forwarded-For
// through: without the socket's address a per-client limit would count only behind a named proxy.
import { type IncomingMessage, Server } from "node:http";
import { clientAddress } from "./client-address";

/** Set from the socket on every request before the app sees it; a client-sent value is overwritten. */
const CLIENT_HEADER = "x-vigil-client";

function stampClientAddress(req: IncomingMessage): void {
  req.headers[CLIENT_HEADER] = req.socket.remoteAddress ?? "";
}

const INSTALLED = Symbol.for("vigil.client-stamp");

/** Once per process (from instrumentation): every HTTP request carries its socket address in CLIENT_HEADER. */
export function installClientStamp(): void {
  const proto = Server.prototype as Server & { [INSTALLED]?: boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") stampClientAddress(args[0] as IncomingMessage);
    return (emit as (...a: unknown[]) => boolean).apply(this, [event, ...args]);
  } as typeof proto.emit;
}

/** The client of a request whose socket address was stamped: see clientAddress. */
export const stampedClient = (headers: Pick<Headers, "get">, trustedProxies: readonly string[]): string | null =>
  clientAddress(headers, headers.get(CLIENT_HEADER) || undefined, trustedProxies);
