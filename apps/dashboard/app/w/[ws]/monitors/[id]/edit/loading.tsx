import { FormSkeleton } from "../../../../../../components/form-skeleton";

export default function Loading() {
  return <FormSkeleton title="Edit monitor" />;
}
