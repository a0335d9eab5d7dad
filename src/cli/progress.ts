// A one-line progress bar with ETA for stderr, redrawn in place with a carriage return.

function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}:${String(sec).padStart(2, '0')}`;
}

/** `\r[#####.....] 12/200  6%  0:41 elapsed  ETA 5:02  success 0.31` */
export function progressLine(done: number, total: number, elapsedMs: number, success?: number): string {
  const width = 24;
  const frac = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(frac * width);
  const eta = done > 0 ? (elapsedMs / done) * (total - done) : Number.NaN;
  const tail = success !== undefined && Number.isFinite(success) ? `  success ${success.toFixed(2)}` : '';
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${String(Math.round(frac * 100)).padStart(3)}%  ${clock(elapsedMs)} elapsed  ETA ${Number.isFinite(eta) ? clock(eta) : '--:--'}${tail}`;
}
