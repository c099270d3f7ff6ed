import { FormSkeleton } from "../../../../../ui/form-skeleton";

export default function Loading() {
  return <FormSkeleton title="New monitor" />;
}
