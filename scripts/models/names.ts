// Every generated type must carry a name the spec gives: a component schema's, or the name of a
// group of enums with the same values (input.ts). Names compare without letter case: quicktype
// writes the acronyms it knows in capitals in Python and Go, as PEP 8 and Go's style ask
// (`UmaAddress` → `UMAAddress`). A name made up from a property or a place (`DatumClass`,
// `Details` for an inline object), or to tell copies apart (`PurpleAddress`, `Address1`), fails.
import type { ModelInput } from './input.ts';

export interface NameReport {
  /** Every type the language's files declare. */
  types: string[];
  /** Types whose name the spec does not give. */
  invented: string[];
  /** Types whose made-up name is listed in KNOWN_INVENTED. */
  known: string[];
  /** Component schemas with a type of their own name. */
  schemasWithType: string[];
  /** Component schemas without one, and why (undefined: no reason known, which fails the check). */
  withoutType: { name: string; why: string | undefined }[];
}

/**
 * Names quicktype makes up where the spec has no type to name, with why. Each must still be made in
 * some language (generate-models.ts fails an entry none of them makes), so the list cannot outlive it.
 */
export const KNOWN_INVENTED: { names: string[]; why: string }[] = [
  {
    names: ['DataClass', 'Status', 'Type', 'TypeEnum'],
    why: "AnyWebhookEvent, the sample-webhook trigger's event (a oneOf of the nine webhooks' events): quicktype makes one class of a union of classes, so it also merges the nine events' `data` (an invitation, transactions, a customer, accounts, ...) into one class named after the property, and their `status` and `type` enums into one each",
  },
];
const knownInvented = new Set(KNOWN_INVENTED.flatMap((k) => k.names.map((n) => n.toLowerCase())));

export function checkNames(types: string[], input: ModelInput, definitions: Record<string, Record<string, unknown>>): NameReport {
  const allowed = new Set([...input.allowedNames].map((n) => n.toLowerCase()));
  const declared = new Set(types.map((t) => t.toLowerCase()));
  const invented = types.filter((t) => !allowed.has(t.toLowerCase()) && !knownInvented.has(t.toLowerCase()));
  const known = types.filter((t) => !allowed.has(t.toLowerCase()) && knownInvented.has(t.toLowerCase()));
  const schemasWithType = input.schemaNames.filter((n) => declared.has(n.toLowerCase()));
  const withoutType = input.schemaNames.filter((n) => !declared.has(n.toLowerCase())).map((name) => ({ name, why: whyNoType(name, input, definitions[name] ?? {}) }));
  return { types, invented, known, schemasWithType, withoutType };
}

function whyNoType(name: string, input: ModelInput, schema: Record<string, unknown>): string | undefined {
  const group = input.enums.find((g) => g.members.includes(name));
  if (group !== undefined && group.name !== name) return `an enum with the same values as ${group.name}, whose type it shares`;
  if (schema.type === 'object' && schema.properties === undefined) return 'a map with string keys, written as the language’s map type';
  if (typeof schema.type === 'string') return `a plain ${schema.type}, written as the language’s ${schema.type} type`;
  return undefined;
}
