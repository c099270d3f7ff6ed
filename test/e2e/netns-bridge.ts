// Inside a test's network namespace: 127.0.0.1:<port> forwarded to a unix socket on the shared
// filesystem, so a probe in the namespace reaches the server outside it (ping-namespace.stack.test.ts).
import { connect, createServer } from "node:net";

const [socketPath, port] = process.argv.slice(2);
createServer((client) => {
  const upstream = connect(socketPath!);
  client.pipe(upstream).pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
}).listen(Number(port), "127.0.0.1");
