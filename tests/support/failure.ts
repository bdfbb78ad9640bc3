/** What a promise was rejected with; a promise that resolves fails the test. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the step to fail");
}
