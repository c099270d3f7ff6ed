/** Everything a command touches outside itself, so tests run the CLI in-process. */
export type Io = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Whether stderr is a terminal (progress lines are drawn only then, or for large uploads). */
  stderrIsTty?: boolean;
  /** Asks the user a question (`vigil login` without --token); absent when there is no terminal. */
  prompt?: (question: string) => Promise<string>;
  cwd?: string;
  /** `--json`: errors too are printed as one JSON object on stdout (`{"error": {...}}`). */
  json?: boolean;
};

/** The one shape of an error under `--json`. */
export function printJsonError(
  io: Io,
  error: { message: string; exitCode: number; status?: number; issues?: readonly Record<string, unknown>[] },
): void {
  const { message, exitCode, status, issues } = error;
  io.stdout(
    `${JSON.stringify({ error: { message, exitCode, ...(status !== undefined ? { status } : {}), issues: issues ?? [] } }, null, 2)}\n`,
  );
}

/** An error the user should see as one message, with the exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 1: invalid input (file, flags, 4xx); 2: server or network trouble (5xx, refused, timeout). */
    readonly exitCode: 1 | 2,
    /** Already printed in full (e.g. every problem of a file); only the exit code is left to give. */
    readonly reported = false,
  ) {
    super(message);
  }
}

export const EXIT = { ok: 0, invalid: 1, server: 2 } as const;
