/** `$Name@Domain` with the domain lower-cased: the form UMA addresses are compared in (names are case-sensitive). */
export function canonicalUmaAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
}
