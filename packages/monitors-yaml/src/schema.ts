import { HttpMonitorInput, MonitorInput } from "@vigil/api-contract";
import { z } from "zod";

type JsonObject = { [k: string]: unknown };
const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

const DURATION_HELP = 'Milliseconds (45000) or a duration such as "800ms", "45s", "1m".';

/**
 * JSON Schema of a monitors file for editors (yaml-language-server), generated from `MonitorInput`.
 * Adjusted only where the file differs from the API body: the entry key is the monitor's key, and
 * `kind` may be left out when `request` shows it.
 */
export function monitorsJsonSchema(): JsonObject {
  const entryKey = HttpMonitorInput.shape.key.unwrap();
  const schema = z.toJSONSchema(z.record(entryKey, MonitorInput), { io: "input", target: "draft-7" }) as JsonObject;
  const entry = schema.additionalProperties;
  const branches = isObject(entry) && Array.isArray(entry.oneOf) ? entry.oneOf : [];
  for (const branch of branches) {
    if (!isObject(branch) || !isObject(branch.properties)) continue;
    delete branch.properties.key;
    if (Array.isArray(branch.required)) branch.required = branch.required.filter((k) => k !== "kind");
    for (const field of ["timeout", "degradedAfter"]) {
      const prop = branch.properties[field];
      if (isObject(prop)) prop.description = DURATION_HELP;
    }
  }
  return {
    ...schema,
    title: "Vigil monitors file",
    description: "A map of entry key → monitor. The entry key is kept on the monitor; `vigil apply` matches by it.",
  };
}
