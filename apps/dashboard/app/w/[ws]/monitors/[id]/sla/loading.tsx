import { SlaSkeleton } from "../../../../../../components/sla-report";

export default function Loading() {
  return <SlaSkeleton />;
}
