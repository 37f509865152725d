/**
 * Files a build keeps for later builds (social cards, minified drawings, image verdicts) are written under a name
 * of their own and then renamed into place: a rename is atomic, so a build beside this one, or the next build
 * after one stopped halfway, reads the whole file or none.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';

const partOf = (file: string) => `${file}.${process.pid}.part`;

export async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  await writeFile(partOf(file), data);
  await rename(partOf(file), file);
}

export function writeWholeSync(file: string, data: string | Uint8Array): void {
  writeFileSync(partOf(file), data);
  renameSync(partOf(file), file);
}
