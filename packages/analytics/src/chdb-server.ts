// One file: ClickHouse's HTTP protocol (auth, compression, formats, errors) is one surface, kept whole to behave as :8123 does.
// ClickHouse's HTTP interface in front of chdb (the ClickHouse engine in-process), for tests and local runs
// where no ClickHouse server is installed: @clickhouse/client, curl and the apps talk to it as to :8123.
import { randomUUID, timingSafeEqual } from "node:crypto";
import { mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { Session } from "chdb";

export interface ChdbServerOptions {
  /** chdb's data directory (created if missing); one per process. */
  path: string;
  /** The one user this server knows, and its password: every query must present them. */
  user?: string;
  password: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

export interface ChdbServer {
  url: string;
  port: number;
  /** Engine version (`SELECT version()`), as the server reports it in errors. */
  version: string;
  close(): Promise<void>;
}

const MAX_BODY = 256 * 1024 * 1024;

// URL parameters that are part of the HTTP protocol, not settings.
const PROTOCOL_PARAMS = new Set(["query", "query_id", "database", "default_format", "user", "password", "quota_key", "role"]);
// Settings that only shape the HTTP exchange; this server always buffers the whole answer (as wait_end_of_query=1).
const HTTP_ONLY_SETTINGS = new Set([
  "enable_http_compression",
  "wait_end_of_query",
  "http_wait_end_of_query",
  "buffer_size",
  "http_response_buffer_size",
  "send_progress_in_http_headers",
  "http_headers_progress_interval_ms",
  "http_zlib_compression_level",
  "cancel_http_readonly_queries_on_client_close",
]);

// How ClickHouse maps an exception to an HTTP status (src/Server/HTTP/exceptionCodeToHTTPStatus.cpp), by error name.
const STATUS_BY_NAME: [number, string[]][] = [
  [401, ["REQUIRED_PASSWORD"]],
  [403, ["UNKNOWN_USER", "WRONG_PASSWORD", "AUTHENTICATION_FAILED", "SET_NON_GRANTED_ROLE", "ACCESS_DENIED"]],
  [
    400,
    [
      "BAD_ARGUMENTS",
      "CANNOT_COMPILE_REGEXP",
      "CANNOT_PARSE_TEXT",
      "CANNOT_PARSE_ESCAPE_SEQUENCE",
      "CANNOT_PARSE_QUOTED_STRING",
      "CANNOT_PARSE_DATE",
      "CANNOT_PARSE_DATETIME",
      "CANNOT_PARSE_NUMBER",
      "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING",
      "CANNOT_PARSE_IPV4",
      "CANNOT_PARSE_IPV6",
      "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
      "CANNOT_PARSE_UUID",
      "DUPLICATE_COLUMN",
      "ILLEGAL_COLUMN",
      "UNKNOWN_ELEMENT_IN_AST",
      "UNKNOWN_TYPE_OF_AST_NODE",
      "THERE_IS_NO_COLUMN",
      "TOO_DEEP_AST",
      "TOO_BIG_AST",
      "UNEXPECTED_AST_STRUCTURE",
      "SYNTAX_ERROR",
      "INCORRECT_DATA",
      "TYPE_MISMATCH",
      "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE",
    ],
  ],
  [
    404,
    [
      "UNKNOWN_TABLE",
      "UNKNOWN_FUNCTION",
      "UNKNOWN_IDENTIFIER",
      "UNKNOWN_TYPE",
      "UNKNOWN_STORAGE",
      "UNKNOWN_DATABASE",
      "UNKNOWN_SETTING",
      "UNKNOWN_DIRECTION_OF_SORTING",
      "UNKNOWN_AGGREGATE_FUNCTION",
      "UNKNOWN_FORMAT",
      "UNKNOWN_DATABASE_ENGINE",
      "UNKNOWN_TYPE_OF_QUERY",
      "UNKNOWN_ROLE",
    ],
  ],
  [413, ["QUERY_IS_TOO_LARGE"]],
  [501, ["NOT_IMPLEMENTED"]],
  [503, ["SOCKET_TIMEOUT", "CANNOT_OPEN_FILE", "CANNOT_SCHEDULE_TASK"]],
  [408, ["TIMEOUT_EXCEEDED"]],
];
const STATUS = new Map(STATUS_BY_NAME.flatMap(([status, names]) => names.map((n) => [n, status] as const)));

/** An error answered in ClickHouse's exception protocol: `Code: N. DB::Exception: … (NAME)`. */
class Exception extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    /** The engine's own text, when it already is in that form. */
    text?: string,
  ) {
    super(text ?? `Code: ${code}. DB::Exception: ${message}. (${codeName})`);
  }
}

function asException(err: unknown): Exception {
  if (err instanceof Exception) return err;
  const text = (err instanceof Error ? err.message : String(err)).trimEnd();
  const m = /^Code: (\d+)\. [\s\S]*\(([A-Z0-9_]+)\)$/.exec(text);
  return m ? new Exception(Number(m[1]), m[2]!, "", text) : new Exception(1001, "STD_EXCEPTION", text);
}

const sqlString = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function sameSecret(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Who the request says it is: X-ClickHouse-User/Key headers, Basic auth, or user/password URL parameters. */
function credentials(req: IncomingMessage, params: URLSearchParams) {
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const methods: { user: string; password: string }[] = [];
  if (header("x-clickhouse-user") !== undefined || header("x-clickhouse-key") !== undefined)
    methods.push({ user: header("x-clickhouse-user") ?? "default", password: header("x-clickhouse-key") ?? "" });
  const auth = header("authorization");
  if (auth?.startsWith("Basic ")) {
    const decoded = Buffer.from(auth.slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    methods.push({ user: colon < 0 ? decoded : decoded.slice(0, colon), password: colon < 0 ? "" : decoded.slice(colon + 1) });
  } else if (auth !== undefined) {
    throw new Exception(516, "AUTHENTICATION_FAILED", "Invalid authentication: only Basic authorization is supported");
  }
  if (params.has("user") || params.has("password"))
    methods.push({ user: params.get("user") ?? "default", password: params.get("password") ?? "" });
  if (methods.length > 1)
    throw new Exception(
      516,
      "AUTHENTICATION_FAILED",
      "Invalid authentication: it is not allowed to use several authentication methods simultaneously",
    );
  return methods[0] ?? { user: "default", password: "" };
}

function decoderFor(encoding: string | undefined): ((b: Buffer) => Buffer) | null {
  switch ((encoding ?? "").toLowerCase()) {
    case "":
    case "identity":
      return (b) => b;
    case "gzip":
      return zlib.gunzipSync;
    case "deflate":
      return zlib.inflateSync;
    case "br":
      return zlib.brotliDecompressSync;
    default:
      return null;
  }
}

const ENCODERS: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Exception(168, "QUERY_IS_TOO_LARGE", `Request body is larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The output format a query's answer is in: its own FORMAT clause, else default_format, else TabSeparated. */
function outputFormat(query: string, fallback: string) {
  if (/^\s*INSERT\b/i.test(query)) return fallback;
  return /\bFORMAT\s+([A-Za-z0-9_]+)\s*;?\s*$/i.exec(query)?.[1] ?? fallback;
}

export async function startChdbServer(opts: ChdbServerOptions): Promise<ChdbServer> {
  const user = opts.user ?? "default";
  mkdirSync(opts.path, { recursive: true });
  // Held for the server's life: it keeps the engine and its data directory open between requests.
  const anchor = new Session(opts.path);
  const [version = "", timezone = "UTC"] = (await anchor.queryAsync("SELECT version(), timezone()", { format: "TabSeparated" }))
    .text()
    .trim()
    .split("\t");
  const displayName = "vigil-chdb";

  async function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    const params = url.searchParams;
    if (url.pathname === "/ping" && (req.method === "GET" || req.method === "HEAD")) {
      res.writeHead(200, { "content-type": "text/plain; charset=UTF-8" }).end("Ok.\n");
      return;
    }
    if (url.pathname !== "/") {
      res.writeHead(404, { "content-type": "text/plain; charset=UTF-8" });
      res.end(`There is no handle ${url.pathname}\n\nUse / or /ping for health checks.\nSend queries with POST or GET /?query=...\n`);
      return;
    }
    if (req.method !== "GET" && req.method !== "POST" && req.method !== "HEAD")
      throw new Exception(48, "NOT_IMPLEMENTED", `HTTP method ${req.method} is not supported, use GET or POST`);

    const who = credentials(req, params);
    if (who.user !== user || !sameSecret(who.password, opts.password))
      throw new Exception(
        516,
        "AUTHENTICATION_FAILED",
        `${who.user}: Authentication failed: password is incorrect, or there is no user with such name`,
      );

    if (params.has("session_id")) throw new Exception(48, "NOT_IMPLEMENTED", "HTTP sessions (session_id) are not supported by this server");
    if (params.get("compress") === "1" || params.get("decompress") === "1")
      throw new Exception(
        48,
        "NOT_IMPLEMENTED",
        "ClickHouse's native compression (compress/decompress) is not supported, use enable_http_compression",
      );
    if (String(req.headers["content-type"] ?? "").startsWith("multipart/form-data"))
      throw new Exception(48, "NOT_IMPLEMENTED", "multipart/form-data requests are not supported, send parameters in the URL");

    const decode = decoderFor(req.headers["content-encoding"] as string | undefined);
    if (!decode) throw new Exception(48, "NOT_IMPLEMENTED", `Unknown Content-Encoding: ${req.headers["content-encoding"]}`);
    const raw = await readBody(req);
    let body: string;
    try {
      body = decode(raw).toString("utf8");
    } catch {
      throw new Exception(432, "UNKNOWN_CODEC", `Cannot decode the request body as ${req.headers["content-encoding"]}`);
    }
    const fromUrl = params.get("query") ?? "";
    // As ClickHouse: the query parameter, then the body (an INSERT's data, or the rest of the query).
    const query = req.method === "POST" && body.length > 0 ? (fromUrl ? `${fromUrl}\n${body}` : body) : fromUrl;
    if (query.trim() === "") {
      if (req.method === "GET") {
        res.writeHead(200, { "content-type": "text/plain; charset=UTF-8" }).end("Ok.\n");
        return;
      }
      throw new Exception(62, "SYNTAX_ERROR", "Empty query");
    }

    // Everything the request sets applies to this request only: each one runs on its own connection.
    const setup: string[] = [];
    if (req.method === "GET" && !params.has("readonly")) setup.push("SET readonly = 2"); // GET never writes
    for (const [key, value] of params) {
      if (PROTOCOL_PARAMS.has(key) || HTTP_ONLY_SETTINGS.has(key)) continue;
      if (!IDENT.test(key)) throw new Exception(115, "UNKNOWN_SETTING", `Unknown setting '${key}'`);
      setup.push(`SET ${key} = ${sqlString(value)}`); // param_x sets the query parameter {x:Type}
    }
    const database = params.get("database");
    if (database && database !== "default") setup.push(`USE \`${database.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``);

    const format = params.get("default_format") ?? "TabSeparated";
    const session = new Session(opts.path);
    let result: Awaited<ReturnType<Session["queryAsync"]>>;
    try {
      result = await session.queryAsync([...setup, query].join(";\n"), { format });
    } finally {
      session.close();
    }

    const out = outputFormat(query, format);
    const headers: Record<string, string> = {
      "content-type": /^JSON/i.test(out) ? "application/json; charset=UTF-8" : "text/plain; charset=UTF-8",
      "x-clickhouse-format": out,
      "x-clickhouse-summary": JSON.stringify({
        read_rows: String(result.rowsRead),
        read_bytes: String(result.bytesRead),
        elapsed_ns: String(Math.round(result.elapsed * 1e9)),
      }),
    };
    let payload: Buffer = Buffer.from(result.bytes());
    if (params.get("enable_http_compression") === "1") {
      const accepted = String(req.headers["accept-encoding"] ?? "")
        .split(",")
        .map((e) => e.trim().split(";")[0]!.toLowerCase());
      const codec = accepted.find((e) => e in ENCODERS);
      if (codec) {
        payload = ENCODERS[codec]!(payload);
        headers["content-encoding"] = codec;
      }
    }
    res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : payload);
  }

  const server = createServer((req, res) => {
    const queryId = new URL(req.url ?? "/", "http://localhost").searchParams.get("query_id") || randomUUID();
    res.setHeader("x-clickhouse-query-id", queryId);
    res.setHeader("x-clickhouse-timezone", timezone);
    res.setHeader("x-clickhouse-server-display-name", displayName);
    answer(req, res).catch((err: unknown) => {
      const e = asException(err);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // Drain what the client is still sending, so it reads our answer instead of a reset connection.
      req.resume();
      res.writeHead(STATUS.get(e.codeName) ?? 500, {
        "content-type": "text/plain; charset=UTF-8",
        "x-clickhouse-exception-code": String(e.code),
      });
      res.end(`${e.message} (version ${version})\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    version,
    /** Stops taking requests and lets those in flight finish, so a stop never cuts an insert in half. */
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      await closed;
      anchor.close();
    },
  };
}
