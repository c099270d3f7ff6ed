/** A variable that is missing or breaks its rule: the one line a service prints before it stops. */
export class EnvError extends Error {
  constructor(
    readonly variable: string,
    readonly rule: string,
  ) {
    super(`${variable}: ${rule}`);
    this.name = "EnvError";
  }
}
