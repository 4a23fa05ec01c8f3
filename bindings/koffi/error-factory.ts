// How the binding makes its errors without knowing the TypeScript face: it is handed a factory (createKoffiApi), as
// the N-API addon is (setErrorFactory in lib/loader.ts), so both backends throw the face's SvcppError with the same
// code and bindings/ imports nothing from lib/ at run time.

/**
 * Makes the Error a non-Ok Svcpp_Errc throws, from the code and the detail (Svcpp_GetLastErrorMessage's, or the
 * binding's).
 */
export type ErrcErrorFactory = (errc: number, detail: string) => Error;
