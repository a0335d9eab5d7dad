// Saving a text as a file from the browser (run and checkpoint files, sweep bundles, chart CSV):
// an object URL on a clicked <a download>, revoked once the download has surely started.

/** Offers `text` as a download named `name`. */
export function download(name: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A run's name as a file name: word characters, dots and dashes, at most 80 characters. */
export const fileName = (name: string): string => name.replace(/[^\w.-]+/g, '_').slice(0, 80);
