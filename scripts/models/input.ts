// The bundle's component schemas as one JSON Schema document for quicktype (`definitions`, one per
// component schema), prepared in four ways, each because quicktype would otherwise name, merge or
// drop what the spec does not:
//
// 1. One document for all schemas, so every `$ref` to a schema reaches the same type. Given one
//    document per schema, quicktype makes a copy of a referenced schema per document and invents
//    names to tell them apart (`PurpleAddress`, `BeneficialOwnerPersonalInfoClass`, `DatumClass`).
// 2. A discriminated union's variants carry their discriminator as a `const`; quicktype makes one
//    class of a union's variants, and each `const` would be an enum of one value with a name of
//    its own. Each variant's discriminator becomes the enum of all the union's discriminator values
//    instead (the mapping's keys): the component enum with exactly those values when there is one
//    (`CustomerType` for `Customer`), else an enum named `<Union><Property>`
//    (`ExternalAccountInfoAccountType`). The variant's model then accepts the other values too.
// 3. quicktype makes one enum of all enums with the same values, whatever their names. Every
//    group of enums with the same values gets one name, which every inline member of the group
//    takes as its `title`: a component enum's name when the group has one (the first by name), else
//    the union's enum of 2., else `<Schema><Property>` of its first inline enum (`Error400Code`).
//    A second component enum of a group is left out and its `$ref`s point to the first: quicktype's Go
//    would declare an `Unmarshal<Second>` for a type it never writes (it writes the first).
// 4. An object with properties that also takes other keys (`additionalProperties` true or a schema)
//    becomes a map: quicktype's classes keep only the declared properties and would drop the rest
//    (`Error400Details`: the `accountId` other 400 codes add beside `errors`).
type Json = Record<string, unknown>;

const REF = '#/components/schemas/';
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const pascal = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
const refName = (ref: string) => (ref.startsWith(REF) ? ref.slice(REF.length) : undefined);

/** One group of enums with the same values, and the one name quicktype gives them. */
export interface EnumGroup {
  name: string;
  values: string[];
  /** Component enums of the group (`KycStatus`), then `<Union>.<property>` and `<Schema>.<property>` of its inline members. */
  members: string[];
}

export interface ModelInput {
  /** `{definitions: {<component schema name>: schema}}`, with `$ref`s to `#/definitions/<name>`. */
  document: Json;
  schemaNames: string[];
  /** Every group of enums with the same values. */
  enums: EnumGroup[];
  /** Names a generated type may have: the component schemas' and the enum groups'. */
  allowedNames: Set<string>;
  /** Component enums left out for another with the same values (3.): `<second>` → `<first>`. */
  aliases: Map<string, string>;
}

interface EnumSite {
  /** `KycStatus` (a component enum), `Customer.customerType` (a union's discriminator), `Error400.code`. */
  member: string;
  kind: 'component' | 'discriminator' | 'inline';
  name: string;
  values: string[];
  node: Json;
}

const stringValues = (node: Json): string[] | undefined => {
  if (typeof node.const === 'string') return [node.const];
  if (Array.isArray(node.enum) && node.enum.every((v) => typeof v === 'string' || v === null)) return node.enum.filter((v): v is string => typeof v === 'string');
  return undefined;
};
const valueKey = (values: string[]) => JSON.stringify([...values].sort());

/** 2.: each variant's discriminator `const` becomes the union's enum (an inline enum site titled later). */
function discriminators(schemas: Record<string, Json>, sites: EnumSite[]): void {
  // Values → component enum; of two with the same values the first by name (the later entry wins).
  const componentEnums = new Map(
    Object.entries(schemas)
      .filter(([, s]) => stringValues(s) !== undefined)
      .map(([name, s]) => [valueKey(stringValues(s) ?? []), name] as const)
      .sort(([, a], [, b]) => b.localeCompare(a)),
  );
  const owner = new Map<string, string>();
  for (const [union, schema] of Object.entries(schemas)) {
    const discriminator = schema.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    if (!Array.isArray(schema.oneOf) || discriminator === undefined) continue;
    const { propertyName, mapping } = discriminator;
    if (mapping === undefined) throw new Error(`${union}: a discriminator without a mapping`);
    const values = Object.keys(mapping);
    const component = componentEnums.get(valueKey(values));
    const member = `${union}.${propertyName}`;
    // A variant may carry several values (a webhook's event types): it is typed once.
    for (const ref of new Set(Object.values(mapping))) {
      const variant = refName(ref);
      const variantSchema = variant === undefined ? undefined : schemas[variant];
      if (variant === undefined || variantSchema === undefined) throw new Error(`${member}: mapping to ${ref}, not a component schema`);
      if (owner.has(variant)) throw new Error(`${variant} is a variant of ${owner.get(variant)} and ${union}: one discriminator enum cannot type both`);
      owner.set(variant, union);
      const holders = [variantSchema, ...((variantSchema.allOf as Json[] | undefined) ?? [])].filter((s) => isObject(s.properties) && isObject((s.properties as Json)[propertyName]));
      const holder = holders.find((s) => stringValues((s.properties as Record<string, Json>)[propertyName] ?? {}) !== undefined);
      if (holder === undefined) throw new Error(`${variant}: no const ${propertyName} for the discriminator of ${union}`);
      const properties = holder.properties as Json;
      if (component !== undefined) {
        properties[propertyName] = { $ref: `${REF}${component}` };
      } else {
        const node: Json = { type: 'string', enum: values };
        properties[propertyName] = node;
        sites.push({ member, kind: 'discriminator', name: `${union}${pascal(propertyName)}`, values, node });
      }
    }
  }
}

/** 4.: a copy of the schema in which an object that takes other keys besides its properties is a map. */
function openObjectsAsMaps(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjectsAsMaps);
  if (!isObject(node)) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'example' || k === 'examples' || k.startsWith('x-') ? v : openObjectsAsMaps(v)]));
  const extra = copy.additionalProperties;
  if (!isObject(copy.properties) || extra === undefined || extra === false) return copy;
  const { properties, required: _required, ...rest } = copy;
  return { ...rest, additionalProperties: extra === true ? true : { anyOf: [extra, ...Object.values(properties)] } };
}

/** The inline enums of one component schema, named `<Schema><Property>` after the nearest property. */
function inlineEnums(schema: unknown, owner: string, property: string | undefined, sites: EnumSite[]): void {
  if (Array.isArray(schema)) {
    for (const item of schema) inlineEnums(item, owner, property, sites);
    return;
  }
  if (!isObject(schema) || typeof schema.$ref === 'string') return;
  const values = stringValues(schema);
  if (values !== undefined && !sites.some((s) => s.node === schema)) {
    if (property === undefined) throw new Error(`${owner}: an inline enum outside any property; name it in the spec`);
    sites.push({ member: `${owner}.${property}`, kind: 'inline', name: `${owner}${pascal(property)}`, values, node: schema });
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    if (key === 'properties' && isObject(value)) for (const [name, sub] of Object.entries(value)) inlineEnums(sub, owner, name, sites);
    else inlineEnums(value, owner, property, sites);
  }
}

/** 3.: one name per group of enums with the same values, set as the `title` of its inline members. */
function nameEnumGroups(sites: EnumSite[]): EnumGroup[] {
  const rank = { component: 0, discriminator: 1, inline: 2 } as const;
  const groups = new Map<string, EnumSite[]>();
  for (const site of sites) groups.set(valueKey(site.values), [...(groups.get(valueKey(site.values)) ?? []), site]);
  return [...groups.values()]
    .map((group) => {
      const ordered = [...group].sort((a, b) => rank[a.kind] - rank[b.kind] || a.name.localeCompare(b.name));
      const name = ordered[0]?.name ?? '';
      for (const site of group) if (site.kind !== 'component') site.node.title = name;
      return { name, values: ordered[0]?.values ?? [], members: [...new Set(ordered.map((s) => s.member))] };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

const rewriteRefs = (node: unknown, aliases: Map<string, string>): unknown =>
  JSON.parse(JSON.stringify(node), (key, value: unknown) => {
    const name = key === '$ref' && typeof value === 'string' ? refName(value) : undefined;
    return name === undefined ? value : `#/definitions/${aliases.get(name) ?? name}`;
  });

export function modelInput(bundle: Json): ModelInput {
  const original = (bundle.components as { schemas: Record<string, Json> }).schemas;
  // A copy of every schema: the bundle is left as it was.
  const schemas = Object.fromEntries(Object.entries(original).map(([name, s]) => [name, openObjectsAsMaps(s) as Json]));
  const sites: EnumSite[] = [];
  discriminators(schemas, sites);
  for (const [name, schema] of Object.entries(schemas)) {
    const values = stringValues(schema);
    if (values !== undefined) sites.push({ member: name, kind: 'component', name, values, node: schema });
  }
  for (const [name, schema] of Object.entries(schemas)) inlineEnums(schema, name, undefined, sites);
  const enums = nameEnumGroups(sites);
  const aliases = new Map(enums.flatMap((group) => group.members.filter((m) => m !== group.name && schemas[m] !== undefined).map((m) => [m, group.name] as const)));
  for (const name of aliases.keys()) delete schemas[name];
  const schemaNames = Object.keys(original);
  return { document: { definitions: rewriteRefs(schemas, aliases) as Json }, schemaNames, enums, allowedNames: new Set([...schemaNames, ...enums.map((e) => e.name)]), aliases };
}
