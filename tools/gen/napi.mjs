export function generate() { return []; }
