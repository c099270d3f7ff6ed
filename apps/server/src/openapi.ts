import { ErrorBody } from "@vigil/api-contract";
import { z } from "zod";
import { scopeFor } from "./auth/scopes";
import { valid } from "./validate";

export interface RouteDoc {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** Hono path, e.g. /v1/monitors/:id */
  path: string;
  summary: string;
  tag: string;
  auth?: "apiKey" | "serviceKey";
  body?: z.ZodType;
  query?: z.ZodObject;
  response?: z.ZodType;
  status?: number;
}

const docs: RouteDoc[] = [];

/** Records a route that takes no body and no query for the OpenAPI document. */
export function describeRoute(doc: Omit<RouteDoc, "body" | "query">): void {
  docs.push(doc);
}

/**
 * Records a route with a JSON body and returns the validator for that same schema: what the document
 * promises is what the route checks (`what` names the body in errors: "monitor: url …").
 */
export function withBody<S extends z.ZodType>(doc: Omit<RouteDoc, "body"> & { body: S }, what: string) {
  docs.push(doc);
  return valid("json", doc.body, what);
}

/** Records a route with query parameters and returns their validator, from one schema. */
export function withQuery<S extends z.ZodObject>(doc: Omit<RouteDoc, "query"> & { query: S }) {
  docs.push(doc);
  return valid("query", doc.query, "query");
}

const schema = (s: z.ZodType, io: "input" | "output") => z.toJSONSchema(s, { io, unrepresentable: "any", target: "openapi-3.0" });

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const d of docs) {
    const path = d.path.replace(/:(\w+)/g, "{$1}");
    const params = [...d.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
    const query = d.query
      ? Object.entries(d.query.shape).map(([name, s]) => ({
          name,
          in: "query",
          required: !(s as z.ZodType).safeParse(undefined).success,
          schema: schema(s as z.ZodType, "input"),
        }))
      : [];
    paths[path] ??= {};
    paths[path][d.method] = {
      summary: d.summary,
      tags: [d.tag],
      security: d.auth ? [{ [d.auth]: [] }] : [],
      ...(d.auth === "apiKey" ? { "x-vigil-scope": scopeFor(d.method.toUpperCase(), d.path) } : {}),
      parameters: [...params, ...query],
      ...(d.body ? { requestBody: { required: true, content: { "application/json": { schema: schema(d.body, "input") } } } } : {}),
      responses: {
        [String(d.status ?? 200)]: d.response
          ? { description: "OK", content: { "application/json": { schema: schema(d.response, "output") } } }
          : { description: "No content" },
        default: { description: "Error", content: { "application/json": { schema: schema(ErrorBody, "output") } } },
      },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "Vigil API", version: "1.0.0", description: "Monitors, notification channels, private locations and probe ingest." },
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "A workspace API key (vgl_key_…)" },
        serviceKey: { type: "http", scheme: "bearer", description: "A private location's SERVICE_KEY (vgl_loc_…)" },
      },
    },
    paths,
  };
}
