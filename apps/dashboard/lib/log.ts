import { createLogger, type Logger } from "@vigil/service";

let logger: Logger | undefined;
export function log(): Logger {
  logger ??= createLogger("dashboard");
  return logger;
}
