// The `stopword` package ships no types; the bench uses its English list only.
declare module "stopword" {
  export const eng: readonly string[];
}
