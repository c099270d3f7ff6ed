import Link from "next/link";
import { Code } from "./ui";

/** Who can lift a limit (from `liftInfo`): the instance admins, a link for them, and the operator's exact lines. */
export function LiftHint({ info }: { info?: Record<string, string> }) {
  if (!info?.limit) return null;
  return (
    <span className="mt-1 block" data-testid="lift-hint">
      Limit key <Code>{info.limit}</Code>. An instance admin lifts it
      {info.liftAdmins ? ` (${info.liftAdmins})` : ""}
      {info.liftUrl ? (
        <>
          {" "}
          —{" "}
          <Link className="underline" href={info.liftUrl}>
            open this workspace in the instance area
          </Link>
        </>
      ) : null}
      . The operator can run:
      <code className="mt-1 block overflow-x-auto rounded bg-white/60 p-1.5 font-mono text-xs whitespace-pre">{info.liftCli}</code>
      <span className="mt-1 block text-xs">or, against the database:</span>
      <code className="mt-1 block overflow-x-auto rounded bg-white/60 p-1.5 font-mono text-xs whitespace-pre">{info.liftSql}</code>
    </span>
  );
}
