// What the round-trip programs of Python and Go read and answer (scripts/models/round_trip.py, go.ts).

export interface RoundTripCase {
  id: string;
  /** The model (type) to decode with: the component schema's, or the enum it shares (input.ts). */
  model: string;
  value: unknown;
}

/** Per case id: the JSON the model wrote back, or why it could not. */
export type RoundTripResults = Map<string, { json: unknown } | { error: string }>;

export function parseResults(stdout: string): RoundTripResults {
  const list = JSON.parse(stdout) as ({ id: string; json: unknown } | { id: string; error: string })[];
  return new Map(list.map(({ id, ...rest }) => [id, rest]));
}
