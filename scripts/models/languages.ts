// The three languages the models are generated in, with the quicktype options each uses and why.
import { FetchingJSONSchemaStore, InputData, JSONSchemaInput, PythonTargetLanguage, quicktypeMultiFile } from 'quicktype-core';
// The option's value type; quicktype-core's index does not export it.
import { AcronymStyleOptions } from 'quicktype-core/dist/esm/support/Acronyms.js';

export type Language = 'python' | 'java' | 'go';
export const LANGUAGES: readonly Language[] = ['python', 'java', 'go'];

export const PYTHON_VERSION = '3.7';
export const JAVA_PACKAGE = 'payments.models';
export const GO_PACKAGE = 'models';

type Run = (inputData: InputData) => ReturnType<typeof quicktypeMultiFile>;

/**
 * quicktype's Python reads a `date` (and a `time`) as a datetime and writes it back as a date-time:
 * `birthDate: 1990-04-21` would go out as `1990-04-21T00:00:00`, which the API refuses. Here they
 * stay strings; `date-time` is still a datetime.
 */
class PythonWithDateStrings extends PythonTargetLanguage {
  override get stringTypeMapping() {
    const mapping = new Map(super.stringTypeMapping);
    mapping.delete('date');
    mapping.delete('time');
    return mapping;
  }
}

const run: Record<Language, Run> = {
  // Dataclasses with from_dict/to_dict on the typing module: Python 3.7 and later.
  python: (inputData) => quicktypeMultiFile({ inputData, lang: new PythonWithDateStrings(), outputFilename: 'models.py', rendererOptions: { 'python-version': PYTHON_VERSION } }),
  // Plain classes, one file each, without Jackson (the default needs its jars). Acronyms written as
  // words keep the spec's spelling (`SandboxUmaReceiveRequest`, `getId`; the default writes
  // `getID`); quicktype still capitalises a leading one (`UMAAddressQuoteDestination`).
  java: (inputData) =>
    quicktypeMultiFile({ inputData, lang: 'java', rendererOptions: { 'just-types': true, 'acronym-style': AcronymStyleOptions.Camel, package: JAVA_PACKAGE, 'array-type': 'list' } }),
  // With Unmarshal<Type> and Marshal; omitempty, or an absent optional field comes back as `null`.
  go: (inputData) => quicktypeMultiFile({ inputData, lang: 'go', outputFilename: 'models.go', rendererOptions: { package: GO_PACKAGE, 'omit-empty': true } }),
};

/** The names of the types one generated source file declares. */
export const typeNames: Record<Language, (source: string) => string[]> = {
  python: (source) => [...source.matchAll(/^class (\w+)/gm)].map((m) => m[1] ?? ''),
  java: (source) => [...source.matchAll(/^public (?:class|enum|interface) (\w+)/gm)].map((m) => m[1] ?? ''),
  go: (source) => [...source.matchAll(/^type (\w+) /gm)].map((m) => m[1] ?? ''),
};

/** One language's models from the prepared document (see input.ts): file name → source. */
export async function generate(language: Language, document: Record<string, unknown>): Promise<Map<string, string>> {
  const input = new JSONSchemaInput(new FetchingJSONSchemaStore());
  // A URI ending in `#/definitions/` makes every definition a top-level type named by its key.
  await input.addSource({ name: 'models', schema: JSON.stringify(document), uris: ['models.json#/definitions/'] });
  const inputData = new InputData();
  inputData.addInput(input);
  const results = await run[language](inputData);
  return new Map([...results].map(([file, { lines }]) => [file, `${lines.join('\n')}\n`]));
}
