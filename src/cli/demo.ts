/** Placeholder replaced below. */
export async function runDemo(): Promise<number> { return 0; }
