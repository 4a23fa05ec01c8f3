// native/include/svcpp.h — the C ABI, the one contract every other layer binds.
import { cSnapshotDeclarations } from './c_snapshots.mjs';
import { eventRecordDeclarations } from './event_records.mjs';
import { cDoc, GENERATED } from './text.mjs';

const PREAMBLE = `/*
 * svcpp.h — the svcpp C ABI (libsvcpp).
 * ${GENERATED}
 *
 * Conventions (the whole contract; README "C ABI" has the long form):
 *
 *  Handles    Every object is a caller-allocated struct holding one opaque pointer. A zeroed struct is
 *             the empty state. Init/Clone write a new object into *self (overwriting, not dropping it);
 *             Drop releases it and zeroes the struct; dropping a zeroed struct is Ok. Using a dropped,
 *             zeroed, foreign or wrong-type handle returns Svcpp_Errc_InvalidHandle and never crashes.
 *  Strings    Svcpp_String {ptr, size}: UTF-8, length-delimited, ptr may be NULL only when size is 0.
 *             Inputs are borrowed for the call and validated (Svcpp_Errc_InvalidUtf8). Outputs are
 *             allocated by the library, NUL-terminated after size bytes, and freed with Svcpp_Free(ptr).
 *             Lengths in limits count Unicode code points.
 *  Spans      Svcpp_<T>Span {ptr, size}: an array of T handles, {NULL, 0} when empty. Passed to a callback:
 *             borrowed (Clone the elements you keep). Written to an out-param: the caller owns the elements
 *             and the buffer; Svcpp_<T>Span_Drop releases both (or adopt each element, then Svcpp_Free(ptr)).
 *             Passed in (a list field's setter, by value): borrowed for the call; every element must be a
 *             live handle (else Svcpp_Errc_InvalidHandle naming the index, and nothing changes) and is
 *             copied. Svcpp_UInt64Span {ptr, size} holds plain ids: an output's buffer is the caller's,
 *             freed with Svcpp_Free(ptr) or Svcpp_UInt64Span_Drop (same thing, and it zeroes the span);
 *             passed to a callback or in, it is borrowed like any span.
 *  Maps       Svcpp_Properties {size, keys, values}: keys[i] -> values[i], each a Svcpp_String. Inputs (by
 *             value) are borrowed for the call and copied; memory may come from anywhere. keys/values may
 *             be NULL only when size is 0; a NULL array otherwise is Svcpp_Errc_NullArgument, a malformed
 *             key or value Svcpp_Errc_InvalidUtf8, a duplicate key or an exceeded documented limit
 *             Svcpp_Errc_InvalidArgument. Outputs (Svcpp_Properties *out) are sorted by key bytes, strings
 *             NUL-terminated, {0, NULL, NULL} when empty, and freed with Svcpp_FreeProperties. Passed to a
 *             callback: borrowed (sorted too).
 *  Optionals  Input: a pointer, NULL = unset. Output: the function returns bool (false = absent or
 *             misuse, *out untouched) and writes *out when true.
 *  Errors     Functions that can be misused return Svcpp_Errc synchronously; the function did nothing
 *             unless it returns Svcpp_Errc_Ok. Required scalar getters return the value (a default on
 *             misuse). Svcpp_GetLastErrorMessage gives a thread-local detail of the last failure.
 *             Domain failures (HTTP errors, limits checked by the service, not Ready) are asynchronous
 *             Svcpp_ClientResult values, never Svcpp_Errc.
 *  Callbacks  (callback, userDataFree, userData) triples. An accepted registration owns userData until it
 *             ends, then calls userDataFree(userData) exactly once, on a thread inside an svcpp call. A
 *             call that returns non-Ok took nothing: the callback never runs and userDataFree is not
 *             called. Callbacks run only inside Svcpp_RunCallbacks / Svcpp_Client_RunCallbacks, on the
 *             pumping thread; everything passed to a callback is borrowed for its duration.
 *  Threads    Every function may be called from any thread. The wakeup hook (CallbacksPendingFn) is the
 *             only callback that runs on an SDK thread. Dropping a client with callbacks pending delivers
 *             each pending one-shot exactly once (with its result, or ClientDestroyed) and frees every
 *             registration's user data before returning.
 *  Enums      32-bit; values are only ever appended. Unknown input values: Svcpp_Errc_InvalidArgument.
 */`;

function enumBlock(e) {
  let s = cDoc(e.doc);
  s += `typedef SVCPP_ENUM(${e.cName}) {\n`;
  for (const [name, value, doc] of e.values) {
    s += `    ${e.cName}_${name} = ${value},${doc ? ` /* ${doc} */` : ''}\n`;
  }
  s += `    ${e.cName}_forceint = 0x7FFFFFFF\n} ${e.cName};\n`;
  return s;
}

function functionDecl(model, fn) {
  const params = fn.params.length ? fn.params.map(model.cParamDecl).join(', ') : 'void';
  return `${cDoc(fn.doc)}SVCPP_API ${model.cReturnType(fn)} SVCPP_CALL ${fn.cName}(${params});\n`;
}

export function generate(model) {
  const { abi, product, enums, callbacks, types, functions } = model;
  let h = `${PREAMBLE}\n#ifndef SVCPP_H\n#define SVCPP_H\n\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n`;
  h += `#if defined(_WIN32)
#  if defined(SVCPP_BUILDING)
#    define SVCPP_API __declspec(dllexport)
#  elif defined(SVCPP_STATIC)
#    define SVCPP_API
#  else
#    define SVCPP_API __declspec(dllimport)
#  endif
#  define SVCPP_CALL __cdecl
#else
#  define SVCPP_API __attribute__((visibility("default")))
#  define SVCPP_CALL
#endif

/* Enums are 32-bit in C (the _forceint value) and have int32_t as fixed underlying type in C++, so a C++
 * translation unit may hold any 32-bit value in them (unknown values are rejected, never undefined). */
#ifdef __cplusplus
#  define SVCPP_ENUM(name) enum name : int32_t
#else
#  define SVCPP_ENUM(name) enum name
#endif

#define SVCPP_ABI_VERSION_MAJOR ${abi.major}
#define SVCPP_ABI_VERSION_MINOR ${abi.minor}
#define SVCPP_ABI_VERSION ((SVCPP_ABI_VERSION_MAJOR << 16) | SVCPP_ABI_VERSION_MINOR)
#define SVCPP_VERSION_MAJOR ${product.major}
#define SVCPP_VERSION_MINOR ${product.minor}
#define SVCPP_VERSION_PATCH ${product.patch}

#ifdef __cplusplus
extern "C" {
#endif

`;
  h += '/* ---- Enums ---------------------------------------------------------------------------------- */\n\n';
  for (const e of enums) h += `${enumBlock(e)}\n`;

  h += '/* ---- Strings, properties, tokens ------------------------------------------------------------ */\n\n';
  h += '/** UTF-8 string, length-delimited (see Strings above). */\n';
  h += 'typedef struct Svcpp_String { uint8_t *ptr; size_t size; } Svcpp_String;\n';
  h += '/** A string map: keys[i] -> values[i]. Outputs are sorted by key bytes; input keys must be unique. */\n';
  h += 'typedef struct Svcpp_Properties { size_t size; Svcpp_String *keys; Svcpp_String *values; } Svcpp_Properties;\n';
  h += '/** Identifies an additive registration (Add...Callback); 0 = none. */\n';
  h += 'typedef uint64_t Svcpp_CallbackToken;\n\n';

  h += '/* ---- Handles --------------------------------------------------------------------------------- */\n\n';
  for (const t of types) h += `${cDoc(t.doc)}typedef struct ${t.cName} { void *opaque; } ${t.cName};\n`;
  if (model.spans.length) {
    h +=
      '\n/* ---- Spans (native/SEMANTICS.md "Spans") -------------------------------------------------------- */\n\n';
    for (const s of model.spans)
      h += `typedef struct ${s.cName} { ${s.elem ? s.elem.cName : 'uint64_t'} *ptr; size_t size; } ${s.cName};\n`;
  }
  h += '\n/* ---- Callbacks ------------------------------------------------------------------------------- */\n\n';
  for (const cb of callbacks) {
    h += `${cDoc(cb.doc)}typedef void (SVCPP_CALL *${cb.cName})(${model.cCallbackParams(cb)});\n`;
  }

  h += `
/* ---- Library ---------------------------------------------------------------------------------- */

/** (major << 16) | minor of the ABI this library implements. */
SVCPP_API uint32_t SVCPP_CALL Svcpp_GetAbiVersion(void);
/** Ok when a caller compiled against compiledAgainst (pass SVCPP_ABI_VERSION) can use this library:
 *  same major, library minor >= caller minor. Otherwise Svcpp_Errc_AbiMismatch. */
SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_CheckAbiVersion(uint32_t compiledAgainst);
/** Detail of the last failed call on this thread (empty when none). Caller frees out->ptr with Svcpp_Free. */
SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_GetLastErrorMessage(Svcpp_String *out);
/** Allocates memory the library may free (and that callers free with Svcpp_Free). */
SVCPP_API void *SVCPP_CALL Svcpp_Alloc(size_t size);
/** Frees library-allocated memory (output strings, span buffers). NULL is allowed. */
SVCPP_API void SVCPP_CALL Svcpp_Free(void *ptr);
/** Frees a library-allocated properties map (keys, values and their strings). */
SVCPP_API void SVCPP_CALL Svcpp_FreeProperties(Svcpp_Properties props);
/** Runs the queued callbacks of every client on the calling thread (call once per frame).
 *  A client already being pumped by another call is skipped; Busy if every pending client was. */
SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_RunCallbacks(void);
/** For every client: clears every event registration (freeing user data) and completes every pending
 *  one-shot callback now, on this thread, with ErrorType Aborted. No earlier registration runs again. */
SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_ResetCallbacks(void);
/** Wakeup hook for hosts that use the global pump: fires when any client's queue becomes non-empty.
 *  Same rules as Svcpp_Client_SetCallbacksPendingHook; a NULL fn clears it. */
SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_SetCallbacksPendingHook(Svcpp_CallbacksPendingFn fn,
    Svcpp_FreeFn fnUserDataFree, void *fnUserData);
/** Copies an output string's bytes into buffer, then frees it (Svcpp_Free) and zeroes *s: for FFI hosts that read
 *  memory of their own faster than the library's. s NULL, {NULL, size > 0}, or buffer NULL with capacity > 0:
 *  NullArgument; size > capacity: InvalidArgument, and nothing changes (free it yourself). */
SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_TakeStringInto(Svcpp_String *s, uint8_t *buffer, size_t capacity);
/** A wakeup descriptor for event-loop hosts that cannot take a hook on an SDK thread (FFI): the read end of a
 *  non-blocking, close-on-exec pipe that gets a byte whenever the client's hook would fire (and at once if work is
 *  queued); read it empty, then Svcpp_Client_RunCallbacks. The caller owns *outFd and closes it; the library keeps
 *  the write end until the client is dropped (then the read end sees end-of-file) or a new call replaces it.
 *  outFd NULL: NullArgument; bad client: InvalidHandle; Windows: NotSupported. */
SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_Client_OpenWakeupFd(Svcpp_Client const *self, int32_t *outFd);

`;
  for (const t of types) {
    h += `/* ---- ${t.name} ${'-'.repeat(Math.max(3, 92 - t.name.length))} */\n\n`;
    for (const fn of functions.filter((f) => f.owner === t)) h += functionDecl(model, fn);
    h += '\n';
  }
  if (model.spans.length) {
    h += '/* ---- Span release ------------------------------------------------------------------------------ */\n\n';
    for (const fn of functions.filter((f) => f.op === 'spanDrop')) h += functionDecl(model, fn);
    h += '\n';
  }
  h += cSnapshotDeclarations(model);
  h += eventRecordDeclarations(model);
  h += '/* ---- Enum names -------------------------------------------------------------------------------- */\n\n';
  for (const fn of functions.filter((f) => f.op === 'enumToString')) h += functionDecl(model, fn);

  h += '\n#ifdef __cplusplus\n} /* extern "C" */\n#endif\n\n#endif /* SVCPP_H */\n';
  return [{ path: 'native/include/svcpp.h', content: h }];
}
