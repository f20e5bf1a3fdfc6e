/**
 * Typed errors for the model. Every validation failure in `src/model` throws a
 * {@link ModelInputError} whose `field` names the offending input (a config key such as
 * `num_attention_heads`, or an option such as `tp`), so the CLI and the widgets can point at it.
 * A broken invariant of the model itself (an index it computed that falls outside its own array)
 * throws a {@link ModelInvariantError} instead: a bug to fix, which no caller mistakes for bad input.
 */

/** An input that the model cannot compute with: missing, non-numeric, out of range or inconsistent. */
export class ModelInputError extends Error {
  /** The input field at fault, e.g. `"hidden_size"`, `"tp"`, `"zeroStage"`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = "ModelInputError";
    this.field = field;
  }
}

/**
 * The model broke one of its own invariants, e.g. an index it computed falls outside the array it
 * built. A bug in `src/model`, not a bad input: callers that catch {@link ModelInputError} to mark
 * an input invalid (config-search, the step model's memory check) let this one through.
 */
export class ModelInvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelInvariantError";
  }
}

/**
 * `items[index]`, checked: throws a {@link ModelInvariantError} naming `what` when `index` is not an
 * integer in [0, items.length). The model indexes only arrays it sized itself, so an index out of
 * range is a bug; `src/model` is type-checked with `noUncheckedIndexedAccess`, and this is the guard
 * to use where a `for…of`, `.entries()` or destructuring does not fit.
 */
export function at<T>(items: ArrayLike<T>, index: number, what: string): T {
  if (!Number.isInteger(index) || index < 0 || index >= items.length) {
    throw new ModelInvariantError(`${what}: index ${index} is out of range (length ${items.length})`);
  }
  return items[index] as T;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return typeof value;
}

/** A positive integer (≥ 1), or a ModelInputError naming `field`. */
export function requirePositiveInteger(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new ModelInputError(field, `${field} must be a positive integer (got ${describe(value)})`);
  }
  return value;
}

/** A non-negative integer (≥ 0), or a ModelInputError naming `field`. */
export function requireNonNegativeInteger(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ModelInputError(field, `${field} must be a non-negative integer (got ${describe(value)})`);
  }
  return value;
}

/** A finite number > 0, or a ModelInputError naming `field`. */
export function requirePositiveNumber(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ModelInputError(field, `${field} must be a positive number (got ${describe(value)})`);
  }
  return value;
}

/** A finite number ≥ 0, or a ModelInputError naming `field`. */
export function requireNonNegativeNumber(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ModelInputError(field, `${field} must be a non-negative number (got ${describe(value)})`);
  }
  return value;
}

/** A number in the half-open interval (0, 1], e.g. an MFU. */
export function requireFraction(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > 1) {
    throw new ModelInputError(field, `${field} must be a number in (0, 1] (got ${describe(value)})`);
  }
  return value;
}

/** A boolean, or a ModelInputError naming `field`. */
export function requireBoolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") {
    throw new ModelInputError(field, `${field} must be true or false (got ${describe(value)})`);
  }
  return value;
}

/** One of `allowed`, or a ModelInputError naming `field` and listing the allowed values. */
export function requireOneOf<T extends string | number>(value: unknown, allowed: readonly T[], field: string): T {
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw new ModelInputError(
      field,
      `${field} must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")} (got ${describe(value)})`,
    );
  }
  return value as T;
}

/** Throws if `value` is NaN or infinite: the model never returns either. */
export function assertFinite(value: number, what: string): number {
  if (!Number.isFinite(value)) {
    throw new ModelInputError(what, `${what} is not a finite number; the inputs are too large or inconsistent`);
  }
  return value;
}
