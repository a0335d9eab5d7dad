// The shipped warning record (study/warnings.json, written by `round report --warnings`), fetched
// once per page and checked with its schema. Absent or invalid, the banner shows no early warning
// at all: a warning whose false-alarm rate is unknown is not shown as one.
import { useEffect, useState } from 'react';
import { parseWarningRates, type WarningRates } from '../../core/metrics/warningRates.js';

export const WARNING_RATES_PATH = 'study/warnings.json';

let loading: Promise<WarningRates | null> | null = null;

function load(): Promise<WarningRates | null> {
  loading ??= fetch(new URL(WARNING_RATES_PATH, document.baseURI))
    .then(async (res) => (res.ok ? parseWarningRates(JSON.parse(await res.text())) : null))
    .catch(() => null);
  return loading;
}

/** The record once loaded (null before, or when there is none). */
export function useWarningRates(): WarningRates | null {
  const [rates, setRates] = useState<WarningRates | null>(null);
  useEffect(() => {
    let live = true;
    void load().then((r) => {
      if (live) setRates(r);
    });
    return () => {
      live = false;
    };
  }, []);
  return rates;
}
