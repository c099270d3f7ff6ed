export { formatYamlError, type ParsedMonitors, type ParseResult, parseMonitorsYaml, type YamlError } from "./parse";
export type { Segment } from "./positions";
export { monitorsJsonSchema } from "./schema";
export { fillPlaceholders, secretEnvName } from "./secrets";
export { SCHEMA_COMMENT, serializeMonitorsYaml } from "./serialize";
export { ruleText } from "./rules";
