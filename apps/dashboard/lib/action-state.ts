/** What a form's server action hands back to the form. */
export interface ActionState {
  ok?: boolean;
  /** A message for the whole form. */
  error?: string;
  /** Field name → what is wrong with it. */
  fields?: Record<string, string>;
  /** A secret shown once (API key, SERVICE_KEY). */
  secret?: string;
  /** Extra values for the success view. */
  info?: Record<string, string>;
  /** Changes on every submission so a dialog reopens. */
  at?: number;
}
