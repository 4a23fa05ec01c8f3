// The backends every behavioural test runs over: the same suite must pass on both.
export const BACKENDS = ['napi', 'koffi'] as const;
