// Vite's `?raw` imports (the hostile test reads bench/HOSTILE.md this way inside workerd).
declare module "*.md?raw" {
  const text: string;
  export default text;
}
