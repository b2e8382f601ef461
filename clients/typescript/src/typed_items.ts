// Compile-time checks of the item types: `tsc --strict` fails on any line below marked
// `@ts-expect-error` that is *not* an error, so a loosened type (an `unknown` item, a verifier id
// that is any string, an input that takes any field) breaks the build.
import type { ScoreItem, ScoreRequest, VerifierId } from "./index.js";

/** A well-typed item of each kind compiles. */
export const typedItems: ScoreItem[] = [
  { verifier: "math", input: { response: "\\boxed{2}", reference: "2" } },
  { id: "x", verifier: "exact-match", input: { response: "Paris", reference: "Paris", extract: "boxed" } },
  { verifier: "multiple-choice", input: { response: "(B)", reference: "B" } },
  {
    verifier: "composite",
    input: {
      response: "1. 12\n2. 3/4",
      split: "numbered",
      parts: [
        { verifier: "math", input: { reference: "12" } },
        { verifier: "math", input: { reference: "0.75" }, weight: 2 },
      ],
      aggregate: "weighted",
    },
  },
  {
    verifier: "grounding",
    input: {
      response: "<useful_chunks><CHUNK_3></useful_chunks><answer>Paris</answer>",
      gold_chunks: [3, 17],
      answer: { verifier: "exact-match", input: { reference: "Paris" } },
    },
  },
  {
    verifier: "process",
    input: {
      response: "Step 1: 3 * 4 = 12\nStep 2: 2 + 12 = 14",
      check: { by: "verifier", verifier: "math", expected: [{ reference: "12" }, { reference: "14" }] },
      aggregate: "min",
    },
  },
];

/** A misspelled verifier id is refused. */
// @ts-expect-error "maths" is not a verifier id
export const misspelledVerifier: ScoreItem = { verifier: "maths", input: { response: "2", reference: "2" } };

/** A misspelled input field is refused. */
export const misspelledField: ScoreRequest = {
  // @ts-expect-error `refrence` is not a field of the math input
  items: [{ verifier: "math", input: { response: "2", refrence: "2" } }],
};

/** An item field that does not exist is refused. */
export const unknownItemField: ScoreRequest = {
  // @ts-expect-error `weight` is not a field of a score item
  items: [{ verifier: "math", weight: 2, input: { response: "2", reference: "2" } }],
};

/** The input type follows the verifier: exact-match's `extract` is not a math option. */
export const wrongVerifierInput: ScoreRequest = {
  // @ts-expect-error `extract` is an exact-match field, not a math one
  items: [{ verifier: "math", input: { response: "2", reference: "2", extract: "boxed" } }],
};

/** A composite's split rule is a closed set. */
export const unknownSplit: ScoreRequest = {
  // @ts-expect-error "paragraphs" is not a split rule
  items: [{ verifier: "composite", input: { response: "x", parts: [], split: "paragraphs" } }],
};

/** A grounding citation format is a closed set. */
export const unknownFormat: ScoreRequest = {
  // @ts-expect-error "footnotes" is not a citation format
  items: [{ verifier: "grounding", input: { response: "x", gold_chunks: [1], answer: { verifier: "math" }, format: "footnotes" } }],
};

/** The verifier ids are a closed set. */
export const verifierIds: VerifierId[] = ["math", "code", "code-tests", "np", "rubric", "rlpr", "exact-match", "regex-match", "multiple-choice", "composite", "grounding", "process", "verilog"];
