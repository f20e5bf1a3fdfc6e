/**
 * Loaded before the unit tests (`--import` in package.json's test:unit): fixes the seed of
 * fast-check's property tests where a run must be reproducible. `FC_SEED=<integer>` sets it
 * (to replay a failure: fast-check prints the seed and path of every counterexample); under
 * `CI=true` it defaults to a fixed seed, so a CI run does not turn red by chance and a red run
 * can be replayed exactly. Local runs keep fast-check's random seed, so they keep exploring new
 * inputs; a counterexample found that way is a bug to fix, with FC_SEED to replay it.
 */
import fc from "fast-check";

const CI_SEED = 20261123;

const fromEnv = process.env.FC_SEED;
if (fromEnv !== undefined && fromEnv !== "") {
  const seed = Number(fromEnv);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got "${fromEnv}"`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
} else if (process.env.CI === "true" || process.env.CI === "1") {
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: CI_SEED });
}
