/**
 * Seeded mutations of a monitors file, for fuzz tests here and in the CLI. Same seed, same files.
 */

export { prng } from "@vigil/testing";

export const VALID_FILE = `# yaml-language-server: $schema=./vigil.schema.json
api-health:
  name: API health
  kind: http
  frequency: 1m
  regions: [ams, iad]
  retry: 3
  degradedAfter: 800
  timeout: 10s
  request:
    url: https://example.com/health
    method: GET
    headers: { Accept: application/json }
  assertions:
    - { kind: statusCode, compare: eq, target: 200 }
    - { kind: header, key: content-type, compare: contains, target: json }
    - kind: jsonBody
      path: $.status
      compare: eq
      target: ok
  openTelemetry: { endpoint: http://otel:4318/v1/metrics, headers: { Authorization: Bearer token } }
postgres:
  kind: tcp
  frequency: 30s
  regions:
    - iad
  timeout: 45000
  request: { host: db.internal, port: 5432 }
`;

const ODD_VALUES = [
  "true",
  "123",
  "-1",
  "1.5",
  '""',
  "null",
  "[a, b]",
  "{ x: 1 }",
  "2m",
  "~",
  "'quoted'",
  "&a x",
  "*a",
  "!!int x",
  "|\n  text",
];
const ODD_CHARS = [
  ":",
  "-",
  "[",
  "]",
  "{",
  "}",
  "#",
  "&",
  "*",
  "!",
  "|",
  ">",
  "'",
  '"',
  "%",
  "@",
  "`",
  " ",
  "\t",
  "\n",
  ",",
  "?",
  "\\",
  "\u0000",
  "\u00e9",
  "\u{1F600}",
];

export function mutate(text: string, rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  let lines = text.split("\n");
  const rounds = 1 + Math.floor(rand() * 3);
  for (let r = 0; r < rounds; r++) {
    const i = Math.floor(rand() * lines.length);
    const j = Math.floor(rand() * lines.length);
    const line = lines[i] ?? "";
    switch (Math.floor(rand() * 8)) {
      case 0: // delete a line
        lines.splice(i, 1);
        break;
      case 1: // duplicate a line
        lines.splice(i, 0, line);
        break;
      case 2: // swap two lines
        lines[i] = lines[j] ?? "";
        lines[j] = line;
        break;
      case 3: {
        // flip one character
        const at = Math.floor(rand() * (line.length + 1));
        lines[i] = line.slice(0, at) + pick(ODD_CHARS) + line.slice(at + 1);
        break;
      }
      case 4: {
        // change a value's type
        const colon = line.indexOf(": ");
        lines[i] = colon >= 0 ? `${line.slice(0, colon + 2)}${pick(ODD_VALUES)}` : `${line} ${pick(ODD_VALUES)}`;
        break;
      }
      case 5: {
        // random bytes
        const at = Math.floor(rand() * (line.length + 1));
        const bytes = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => String.fromCharCode(Math.floor(rand() * 0x2ff)));
        lines[i] = line.slice(0, at) + bytes.join("") + line.slice(at);
        break;
      }
      case 6: // change indentation
        lines[i] = rand() < 0.5 ? ` ${line}` : line.replace(/^ /, "");
        break;
      default: // truncate the file
        lines = lines.slice(0, i + 1);
        lines[i] = line.slice(0, Math.floor(rand() * line.length));
    }
  }
  return lines.join("\n");
}
