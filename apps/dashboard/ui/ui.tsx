import type { LucideIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";

const cx = (...c: (string | false | null | undefined)[]) => c.filter(Boolean).join(" ");

export { cx };

type Variant = "primary" | "secondary" | "danger" | "ghost";
const variants: Record<Variant, string> = {
  primary: "bg-zinc-900 text-white hover:bg-zinc-700 disabled:bg-zinc-400",
  secondary: "border border-zinc-300 bg-white text-zinc-900 hover:bg-zinc-50",
  danger: "bg-red-600 text-white hover:bg-red-700",
  ghost: "text-zinc-700 hover:bg-zinc-100",
};
export const buttonClass = (variant: Variant = "primary", extra?: string) =>
  cx(
    "inline-flex h-9 items-center justify-center gap-2 whitespace-nowrap rounded-md px-3.5 text-sm font-medium transition-colors disabled:cursor-not-allowed",
    variants[variant],
    extra,
  );

export function Button({ variant = "primary", className, ...props }: ComponentProps<"button"> & { variant?: Variant }) {
  return <button type="submit" className={buttonClass(variant, className)} {...props} />;
}

/** A form's submit button: its icon, then `busy` while the action runs, else its label. */
export function PendingSubmit({
  pending,
  icon: Icon,
  busy,
  className,
  children,
}: {
  pending: boolean;
  icon: LucideIcon;
  busy: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <Button disabled={pending} className={className}>
      <Icon className="size-4" aria-hidden />
      {pending ? busy : children}
    </Button>
  );
}

/** A layout's first link: hidden until focused, it skips to `#main`. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
    >
      Skip to content
    </a>
  );
}

export function Input({ className, invalid, ...props }: ComponentProps<"input"> & { invalid?: boolean }) {
  return (
    <input
      aria-invalid={invalid || undefined}
      className={cx(
        "h-9 w-full rounded-md border bg-white px-3 text-sm shadow-xs placeholder:text-zinc-400",
        invalid ? "border-red-500" : "border-zinc-300",
        className,
      )}
      {...props}
    />
  );
}

export function Select({ className, invalid, ...props }: ComponentProps<"select"> & { invalid?: boolean }) {
  return (
    <select
      aria-invalid={invalid || undefined}
      className={cx(
        "h-9 w-full rounded-md border bg-white px-2.5 text-sm shadow-xs",
        invalid ? "border-red-500" : "border-zinc-300",
        className,
      )}
      {...props}
    />
  );
}

/** A label, the control, and the rule it broke right below it. */
export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={name} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${name}-error`} className="text-sm text-red-600" role="alert">
          {label} {error}
        </p>
      ) : hint ? (
        <p className="text-xs text-zinc-500">{hint}</p>
      ) : null}
    </div>
  );
}

export function Card({ className, children }: { className?: string; children: ReactNode }) {
  // min-w-0: inside a grid a wide table scrolls in its card instead of widening the page.
  return <section className={cx("min-w-0 rounded-xl border border-zinc-200 bg-white shadow-xs", className)}>{children}</section>;
}

export function CardHeader({ title, description, action }: { title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-100 px-5 py-4">
      <div>
        <h2 className="text-base font-semibold">{title}</h2>
        {description ? <p className="mt-0.5 text-sm text-zinc-500">{description}</p> : null}
      </div>
      {action}
    </div>
  );
}

/** A card with a header and one padded block under it (a form, a short text). */
export function CardSection({
  title,
  description,
  className,
  children,
}: {
  title: string;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader title={title} description={description} />
      <div className="px-5 py-4">{children}</div>
    </Card>
  );
}

export function PageHeader({ title, description, action }: { title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-1 max-w-2xl text-sm text-zinc-500">{description}</p> : null}
      </div>
      {action}
    </div>
  );
}

type Tone = "green" | "red" | "zinc" | "amber" | "indigo";
const tones: Record<Tone, string> = {
  green: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  red: "bg-red-50 text-red-700 ring-red-600/20",
  zinc: "bg-zinc-100 text-zinc-700 ring-zinc-500/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
  indigo: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
};
export function Badge({ tone = "zinc", children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span className={cx("inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset", tones[tone])}>
      {children}
    </span>
  );
}

export function Empty({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center">
      <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-zinc-100 text-zinc-500">{icon}</div>
      <p className="font-medium">{title}</p>
      {children ? <div className="mt-1 max-w-md text-sm text-zinc-500">{children}</div> : null}
    </div>
  );
}

export function Table({ head, children }: { head: string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-100 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-5 py-2.5 font-medium whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">{children}</tbody>
      </table>
    </div>
  );
}
export const td = "px-5 py-3 align-middle";

export function Notice({ tone = "amber", children }: { tone?: "amber" | "red" | "indigo"; children: ReactNode }) {
  const t = {
    amber: "border-amber-200 bg-amber-50 text-amber-900",
    red: "border-red-200 bg-red-50 text-red-800",
    indigo: "border-indigo-200 bg-indigo-50 text-indigo-900",
  }[tone];
  return <div className={cx("rounded-lg border px-4 py-3 text-sm", t)}>{children}</div>;
}

export function Code({ children }: { children: ReactNode }) {
  return <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[0.8125rem]">{children}</code>;
}
