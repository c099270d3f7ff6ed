import { SlaSkeleton } from "../../../../../../features/sla/sla-report";

export default function Loading() {
  return <SlaSkeleton />;
}
