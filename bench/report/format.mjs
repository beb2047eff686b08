// How the report writes numbers: '–' for a missing one.

export const f = (x, digits = 3) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
export const fr = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(2)}×`);
export const fi = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US'));
export const met = (ok) => (ok === null ? 'n/a' : ok ? '**met**' : '**not met**');
