/**
 * What the profiling found: the README notes under the table. Written by hand from the
 * runs and scratch profiles (see each note); the measured notes come from the scenarios.
 */
export const ANALYSIS: readonly string[] = [
  'Server limits (profiled with scratch scripts and the extra baselines above): every upload PUT costs the sandbox\'s server 60–90 ms of its own work when the machine is quiet (Django auth, database lookups, a temporary file; the last one re-reads the whole file to hash it and copies it into the store), about 25–30 requests/s on these 2 cores whatever the client\'s concurrency (8 at a time was no faster than 4). Many small files are server-bound, and so is the "3× faster than the CLI" target: the CLI also probes then PUTs each file, one at a time; on a quiet machine it was only about 2× slower than 4 parallel raw PUTs.',
  'Many small files, what the app controls: the app probes each file (an empty PUT with a `*` Content-Range) before sending it, 2 requests per file; "curl ×4, probe first" vs "curl ×4" shows that probe\'s cost. Skipping it for files that a just-created artifact lists in `files_to_upload` (they cannot be partly there) measured 4.9 s → 2.8 s for 50 × 200 kB with a probe-less copy of upload-file.ts; the change belongs in upload.ts (uploadArtifact → uploadFiles → uploadFile: start at offset 0 for fresh files) and is not made yet.',
  'One big file: the app sends 50 MiB chunks with Content-Range after a probe, as the protocol and the Python client do (50 MiB is what real servers\' Nginx `client_max_body_size` admits), so 512 MiB takes 12 requests where the `curl` line sends one PUT without Content-Range, which a server behind that Nginx would refuse. "curl, 50 MiB chunks" is a raw-HTTP client under the same rule (each chunk piped through dd, so a pessimistic baseline).',
  'Listing work requests is server-bound: 11–20 ms of server time per work request, for the app and the CLI alike.',
  "Downloads: the app's downloads (tarball, and extracted in the last run) have outliers of 10–110 s where curl takes 2–3 s for the same server-streamed .tar.gz. Reading undici's response body without backpressure takes 2–3 s; piping it into a file stream sometimes stalls, with or without the app's counting Transform. Not fixed: to be investigated in src/main/artifacts/download.ts (saveExclusive, extractTarStream) against the server's flow control.",
  'Hashing: src/main/artifacts/checksums.ts now reads into two reused 1 MiB buffers, the next read running while the current chunk is hashed (it was a read stream allocating a fresh 1 MiB buffer per chunk: 0.61× OpenSSL on 1 GiB before, 1.17–1.19× after).',
  "Noise: the machine is shared with other test runs against the same sandbox; in the run of this table, the server was busy (the single-PUT curl of 512 MiB took longer than the chunked one), so the upload ratios differ from those of a quiet run (app / curl 1.24, app / curl ×4 for small files 1.24, CLI / app 1.73, the app's chunked upload 0.88× of chunked curl).",
  'Peak RSS is the whole Node process running the upload, jiti (the TypeScript loader, not in the app) included.',
];

export const RENDERER =
  'Renderer (first paint of the work-request list with 10,000 rows, frame times while scrolling): not measured yet — the work-request list UI does not exist (a later issue).';
