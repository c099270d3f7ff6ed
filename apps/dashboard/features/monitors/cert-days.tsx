import { ShieldAlert, ShieldCheck } from "lucide-react";
import { cx } from "../../ui/ui";

const DAY_MS = 86_400_000;

/** Days until the monitor's TLS certificate ends, as its latest results saw it; nothing when it has none. */
export function CertDays({ notAfter, now = Date.now() }: { notAfter: number | null; now?: number }) {
  if (notAfter === null) return null;
  const days = Math.floor((notAfter - now) / DAY_MS);
  const date = new Date(notAfter).toISOString().slice(0, 10);
  const tone = days < 7 ? "bg-red-50 text-red-700" : days < 21 ? "bg-amber-50 text-amber-800" : "bg-emerald-50 text-emerald-700";
  const Icon = days < 21 ? ShieldAlert : ShieldCheck;
  return (
    <span
      data-testid="cert-days"
      className={cx("inline-flex items-center gap-1 rounded px-1.5 py-px font-sans text-[11px] font-medium", tone)}
      title={`TLS certificate valid until ${date}`}
    >
      <Icon className="size-3" aria-hidden />
      {days < 0 ? `certificate expired ${date}` : `certificate: ${days} ${days === 1 ? "day" : "days"} left`}
    </span>
  );
}
