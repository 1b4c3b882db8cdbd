/**
 * A byte count as people read it, the one convention of the whole UI: binary units that say
 * so (1 KiB = 1,024 bytes): `621 B`, `2.4 KiB`, `247 KiB` for 253,074 bytes, `3.10 MiB`.
 */
export function sizeText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 2 : 1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}
