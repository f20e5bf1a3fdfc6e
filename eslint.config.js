// ESLint (flat config) for the TypeScript of the repository; `npm run lint` runs it after the
// prose checks. Formatting is Prettier's job (.prettierrc.json, `npm run format`), not ESLint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["node_modules/", "_site/", "test-output/", ".cache/", "bench/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.mjs", "**/*.js"],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Unused names: tsc already refuses them (noUnusedLocals/noUnusedParameters); `_x` marks a required but unused
      // parameter. No rule here finds unused exports (typescript-eslint has none; tsc neither).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // Type-only imports say so, so that tsx and esbuild drop them.
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // Named exports only (one name per thing, to import and search by), except config files that tools load by
      // default export.
      "no-restricted-exports": [
        "error",
        {
          restrictDefaultExports: {
            direct: true,
            named: true,
            defaultFrom: true,
            namedFrom: true,
            namespaceFrom: true,
          },
        },
      ],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    // Code that runs in the browser, or draws into a DOM it is handed.
    files: ["src/figures/**/*.ts", "src/widgets/**/*.ts", "tests/browser/**/*.ts", "harness/**/*.ts"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // Figures draw into the element they receive; the model is pure: neither reaches for page globals.
    files: ["src/figures/**/*.ts", "src/model/**/*.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        {
          name: "window",
          message: "draw into the element you are given (architecture: figures and the model use no page globals)",
        },
        {
          name: "document",
          message: "use element.ownerDocument (architecture: figures and the model use no page globals)",
        },
      ],
    },
  },
  {
    // Files whose tool loads a default export, and declarations of other packages' modules.
    files: [".eleventy.ts", "eslint.config.js", "src/types/**/*.d.ts"],
    rules: { "no-restricted-exports": "off" },
  },
  {
    // src/model/index.ts is the model's public surface (its header): code outside the model imports from there.
    files: ["**/*.ts", "**/*.mjs"],
    ignores: ["src/model/**", "tests/model/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)src/model/(?!index\\.ts$).+|^\\.\\./model/(?!index\\.ts$).+",
              message: "import the model through src/model/index.ts",
            },
          ],
        },
      ],
    },
  },
);
