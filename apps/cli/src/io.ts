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
};

/** An error the user should see as one message, with the exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 1: invalid input (file, flags, 4xx); 2: server or network trouble (5xx, refused, timeout). */
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

export const EXIT = { ok: 0, invalid: 1, server: 2 } as const;
