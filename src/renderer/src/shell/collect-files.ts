/**
 * The files of a drop. In the browser (web host) a dropped folder arrives as an entry to
 * walk; Electron's bridge resolves a folder's File itself (main expands it), so there the
 * drop's own File objects go through unchanged.
 */
export async function filesOfDrop(data: DataTransfer, walkFolders: boolean): Promise<File[]> {
  const plain = [...data.files];
  if (!walkFolders) return plain;
  const entries = [...data.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry());
  // Synthetic drops (and some platforms) have no entries: fall back to the File list.
  if (entries.length === 0 || entries.some((e) => e === null)) return plain;
  const out: File[] = [];
  for (const entry of entries) if (entry) await walk(entry, out, 0);
  return out;
}

async function walk(entry: FileSystemEntry, out: File[], depth: number): Promise<void> {
  if (entry.isFile) {
    out.push(await fileOf(entry as FileSystemFileEntry));
    return;
  }
  // A folder holds an upload's files; its subfolders (a build tree) are not walked far.
  if (!entry.isDirectory || depth > 2) return;
  for (const child of await readAll(entry as FileSystemDirectoryEntry)) {
    await walk(child, out, depth + 1);
  }
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => {
    entry.file(resolve, reject);
  });
}

/** readEntries answers in batches; an empty batch ends the listing. */
async function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => {
      reader.readEntries(resolve, reject);
    });
    if (batch.length === 0) return all;
    for (const entry of batch) all.push(entry);
  }
}
